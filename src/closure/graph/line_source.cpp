// LineSource implementation: zlib's gzread passes uncompressed files through, so one path
// serves plain and compressed input alike.
#include "closure/graph/line_source.hpp"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>
#include <zlib.h>

#include <algorithm>
#include <cerrno>
#include <climits>
#include <cstdio>
#include <cstring>

namespace closure {

namespace {

constexpr size_t kInitialBuffer = size_t{1} << 20;

// Bytes that never occur in a text graph file; finding one means the file is binary (or
// mis-encoded, such as UTF-16) and parsing it would only produce confusing errors.
// Tab, newline, vertical tab, form feed and carriage return (9..13) are the allowed controls.
bool is_binary_byte(unsigned char c) {
  return c < 9 || (c > 13 && c < 0x20) || c == 0x7f;
}

}  // namespace

LineSource::LineSource(const std::string& path) : name_(path == "-" ? "<stdin>" : path) {
  int fd = -1;
  if (path == "-") {
    fd = ::dup(STDIN_FILENO);
    if (fd < 0) fail_at(0, std::string("cannot read standard input: ") + std::strerror(errno));
  } else {
    struct stat st {};
    if (::stat(path.c_str(), &st) != 0)
      fail_at(0, std::string("cannot open: ") + std::strerror(errno));
    if (S_ISDIR(st.st_mode)) fail_at(0, "cannot open: is a directory, not a graph file");
    fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC);
    if (fd < 0) fail_at(0, std::string("cannot open: ") + std::strerror(errno));
  }
  gz_ = ::gzdopen(fd, "rb");
  if (gz_ == nullptr) {
    ::close(fd);
    fail_at(0, "cannot open: out of memory for the decompressor");
  }
  ::gzbuffer(gz_, 1 << 17);
  buf_.resize(kInitialBuffer);
  data_ = buf_.data();
}

LineSource::LineSource(std::string_view text, std::string name)
    : name_(std::move(name)), data_(text.data()), end_(text.size()), eof_(true), started_(true) {
  if (text.substr(0, 3) == "\xEF\xBB\xBF") pos_ = 3;
  check_bytes(pos_, end_);
}

LineSource::~LineSource() {
  if (gz_ != nullptr) ::gzclose(gz_);
}

void LineSource::check_bytes(size_t from, size_t to) const {
  // Blocks without an early exit, so the compiler vectorizes the common all-clean case.
  constexpr size_t kBlock = 64;
  const auto* p = reinterpret_cast<const unsigned char*>(data_);
  size_t block = from;
  for (; block + kBlock <= to; block += kBlock) {
    unsigned char any = 0;
    for (size_t i = 0; i < kBlock; ++i) {
      const unsigned char c = p[block + i];
      any |= static_cast<unsigned char>((c < 9) | (static_cast<unsigned char>(c - 14) < 18) |
                                        (c == 0x7f));
    }
    if (any != 0) break;
  }
  const char* bad = std::find_if(data_ + block, data_ + to, [](char c) {
    return is_binary_byte(static_cast<unsigned char>(c));
  });
  if (bad == data_ + to) return;
  size_t line = line_ + 1 + std::count(data_ + pos_, bad, '\n');
  const char* line_start = bad;
  while (line_start > data_ + pos_ && line_start[-1] != '\n') --line_start;
  char hex[8];
  std::snprintf(hex, sizeof hex, "0x%02x", static_cast<unsigned char>(*bad));
  fail_at(line, std::string("binary data (byte ") + hex + " in column " +
                    std::to_string(bad - line_start + 1) + "): not a text graph file");
}

size_t LineSource::lines_buffered() const {
  return line_ + static_cast<size_t>(std::count(data_ + pos_, data_ + end_, '\n'));
}

bool LineSource::fill() {
  if (eof_) return false;
  if (pos_ > 0) {
    std::memmove(buf_.data(), buf_.data() + pos_, end_ - pos_);
    end_ -= pos_;
    pos_ = 0;
  }
  // A line longer than the buffer (a vertex of huge degree) grows it rather than failing.
  if (end_ == buf_.size()) buf_.resize(buf_.size() * 2);
  data_ = buf_.data();
  const size_t want = std::min(buf_.size() - end_, size_t{INT_MAX});
  const int got = ::gzread(gz_, buf_.data() + end_, static_cast<unsigned>(want));
  if (got < 0) {
    const int saved_errno = errno;
    int errnum = 0;
    std::string why = ::gzerror(gz_, &errnum);
    // zlib prefixes the message with the descriptor's pseudo-name ("<fd:3>: "), noise here.
    if (why.starts_with("<fd:") && why.find(": ") != std::string::npos)
      why.erase(0, why.find(": ") + 2);
    if (errnum == Z_ERRNO) why = std::strerror(saved_errno);
    fail_at(0, (errnum == Z_ERRNO ? "read error: " : "corrupt gzip data: ") + why +
                   " (after line " + std::to_string(lines_buffered()) + ")");
  }
  if (got == 0) {
    // zlib reports a stream cut short only through gzerror, not through gzread's result.
    int errnum = 0;
    ::gzerror(gz_, &errnum);
    if (errnum == Z_BUF_ERROR)
      fail_at(0, "truncated gzip data: the compressed stream ends early (after line " +
                     std::to_string(lines_buffered()) + ")");
    eof_ = true;
    return false;
  }
  const size_t from = end_;
  end_ += static_cast<size_t>(got);
  if (!started_) {
    started_ = true;
    if (end_ >= 3 && std::memcmp(data_, "\xEF\xBB\xBF", 3) == 0) pos_ = 3;
  }
  check_bytes(std::max(from, pos_), end_);
  return true;
}

std::string_view LineSource::peek(size_t max_bytes) {
  while (end_ - pos_ < max_bytes && fill()) {
  }
  return {data_ + pos_, std::min(end_ - pos_, max_bytes)};
}

bool LineSource::next(std::string_view& line) {
  size_t scan_from = pos_;
  for (;;) {
    const void* nl = std::memchr(data_ + scan_from, '\n', end_ - scan_from);
    if (nl != nullptr) {
      const char* stop = static_cast<const char*>(nl);
      line = {data_ + pos_, static_cast<size_t>(stop - (data_ + pos_))};
      pos_ = static_cast<size_t>(stop - data_) + 1;
      break;
    }
    const size_t partial = end_ - pos_;
    if (!fill()) {
      if (pos_ == end_) return false;
      line = {data_ + pos_, end_ - pos_};
      pos_ = end_;
      break;
    }
    scan_from = pos_ + partial;
  }
  if (!line.empty() && line.back() == '\r') line.remove_suffix(1);
  ++line_;
  return true;
}

}  // namespace closure
