// LineSource implementation. Regular files are mapped (no copy; the parallel edge-list reader
// splits the mapping between threads); gzip and pipes go through Stream, which inflates every
// gzip member in turn and refuses data after the last one instead of ignoring it as gzread did.
#include "closure/graph/line_source.hpp"

#include <fcntl.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>
#include <zlib.h>

#include <algorithm>
#include <atomic>
#include <cerrno>
#include <cstdio>
#include <cstring>
#include <new>

#include "closure/executor.hpp"
#include "closure/graph/tool_file_magic.hpp"

namespace closure {

namespace {

// Mapped text of this size or more is scanned for binary bytes by all threads.
constexpr size_t kParallelScanBytes = size_t{32} << 20;

constexpr size_t kInitialBuffer = size_t{1} << 20;
constexpr size_t kReadChunk = size_t{1} << 17;

// Bytes that never occur in a text graph file; finding one means the file is binary (or
// mis-encoded, such as UTF-16) and parsing it would only produce confusing errors.
// Tab, newline, vertical tab, form feed and carriage return (9..13) are the allowed controls.
bool is_binary_byte(unsigned char c) {
  return c < 9 || (c > 13 && c < 0x20) || c == 0x7f;
}

// An error of the stream, completed by LineSource with the file name and position.
struct StreamError {
  std::string message;
};

// The first '\n' or '\r' in [p, end), or end.
const char* find_eol(const char* p, const char* end) {
  const char* nl = static_cast<const char*>(std::memchr(p, '\n', static_cast<size_t>(end - p)));
  const char* stop = nl != nullptr ? nl : end;
  const char* cr = static_cast<const char*>(std::memchr(p, '\r', static_cast<size_t>(stop - p)));
  return cr != nullptr ? cr : stop;
}

}  // namespace

// The input read through a descriptor: plain bytes, or gzip members inflated one after another.
class LineSource::Stream {
 public:
  // `prefix`: bytes already read from fd (an InputSource's peek), delivered first; `ended`:
  // that read already met the end of the input (a terminal is not asked twice).
  Stream(int fd, const std::string& prefix, bool ended)
      : fd_(fd), in_eof_(ended), in_(std::max(kReadChunk, prefix.size())), in_end_(prefix.size()) {
    std::memcpy(in_.data(), prefix.data(), prefix.size());
  }
  ~Stream() {
    if (gzip_) ::inflateEnd(&zs_);
    ::close(fd_);
  }
  Stream(const Stream&) = delete;
  Stream& operator=(const Stream&) = delete;

  // Up to `n` bytes of (decompressed) data into `out`; 0 only at the end of the input.
  size_t read(char* out, size_t n) {
    if (!detected_) detect();
    if (!gzip_) {
      if (in_pos_ < in_end_) {
        const size_t k = std::min(n, in_end_ - in_pos_);
        std::memcpy(out, in_.data() + in_pos_, k);
        in_pos_ += k;
        return k;
      }
      if (in_eof_) return 0;
      return raw_read(reinterpret_cast<unsigned char*>(out), n);
    }
    size_t produced = 0;
    while (produced == 0 && !done_) {
      if (between_members_) {
        next_member();
        continue;
      }
      if (in_pos_ == in_end_ && !refill())
        throw StreamError{"truncated gzip data: the compressed stream ends early"};
      zs_.next_in = in_.data() + in_pos_;
      zs_.avail_in = static_cast<uInt>(in_end_ - in_pos_);
      zs_.next_out = reinterpret_cast<Bytef*>(out);
      zs_.avail_out = static_cast<uInt>(std::min<size_t>(n, UINT32_MAX));
      const int rc = ::inflate(&zs_, Z_NO_FLUSH);
      in_pos_ = in_end_ - zs_.avail_in;
      produced = std::min<size_t>(n, UINT32_MAX) - zs_.avail_out;
      if (rc == Z_STREAM_END) {
        between_members_ = true;
      } else if (rc == Z_MEM_ERROR) {
        throw std::bad_alloc();
      } else if (rc == Z_DATA_ERROR || rc == Z_NEED_DICT || rc == Z_STREAM_ERROR) {
        throw StreamError{std::string("corrupt gzip data: ") +
                          (zs_.msg != nullptr ? zs_.msg : "invalid data")};
      }
    }
    return produced;
  }

 private:
  // Fills in_ (which must be consumed); false at the end of the file.
  bool refill() {
    if (in_eof_) return false;
    in_pos_ = 0;
    in_end_ = raw_read(in_.data(), in_.size());
    if (in_end_ == 0) in_eof_ = true;
    return in_end_ > 0;
  }

  size_t raw_read(unsigned char* out, size_t n) {
    for (;;) {
      const ssize_t got = ::read(fd_, out, n);
      if (got >= 0) return static_cast<size_t>(got);
      if (errno != EINTR) throw StreamError{std::string("read error: ") + std::strerror(errno)};
    }
  }

  void detect() {
    detected_ = true;
    while (in_end_ < 2 && !in_eof_) {
      const size_t got = raw_read(in_.data() + in_end_, in_.size() - in_end_);
      if (got == 0) in_eof_ = true;
      in_end_ += got;
    }
    gzip_ = in_end_ >= 2 && in_[0] == 0x1f && in_[1] == 0x8b;
    if (gzip_ && ::inflateInit2(&zs_, 16 + MAX_WBITS) != Z_OK) throw std::bad_alloc();
  }

  // After a member: another member follows (gzip -c a b > c, pigz, bgzip all write these),
  // or the file ends. Zero bytes (tape padding, which gzip itself skips) are allowed; anything
  // else is refused: silently ignoring it would drop whatever it was meant to hold.
  void next_member() {
    for (;;) {
      if (in_pos_ == in_end_ && !refill()) {
        done_ = true;
        return;
      }
      if (in_[in_pos_] != 0) break;
      ++in_pos_;
      zero_padding_ = true;
    }
    if (!zero_padding_) {
      // A second member needs its two magic bytes; the second may be in the next read.
      if (in_[in_pos_] == 0x1f) {
        if (in_pos_ + 1 == in_end_) {
          in_[0] = 0x1f;
          in_pos_ = 0;
          in_end_ = 1;
          if (!in_eof_) {
            const size_t got = raw_read(in_.data() + 1, in_.size() - 1);
            if (got == 0) in_eof_ = true;
            in_end_ += got;
          }
        }
        if (in_pos_ + 1 < in_end_ && in_[in_pos_ + 1] == 0x8b) {
          ::inflateReset(&zs_);
          between_members_ = false;
          return;
        }
      }
    }
    throw StreamError{
        "data after the end of the gzip stream that is not another gzip member (an appended "
        "or damaged file?); decompress it and check its end"};
  }

  int fd_;
  bool detected_ = false, gzip_ = false, in_eof_ = false, done_ = false;
  bool between_members_ = false, zero_padding_ = false;
  z_stream zs_{};
  std::vector<unsigned char> in_;
  size_t in_pos_ = 0, in_end_ = 0;
};

LineSource::LineSource(const std::string& path) : LineSource(InputSource(path)) {}

LineSource::LineSource(InputSource&& input) : name_(input.name()) {
  opened_ = input.status();
  const bool gzip = input.peek(2) == "\x1f\x8b";
  const bool stream_ended = input.stream_ended();
  std::string prefix;
  int fd = input.release(prefix);  // -1 once closed or handed to the Stream
  // A constructor that throws runs no destructor: what is opened here is released here.
  try {
    open(fd, prefix, gzip, stream_ended);
  } catch (...) {
    guard_.reset();
    if (map_ != nullptr) ::munmap(map_, map_size_);
    map_ = nullptr;
    if (watch_fd_ >= 0) ::close(watch_fd_);
    watch_fd_ = -1;
    if (fd >= 0 && !stream_) ::close(fd);
    throw;
  }
}

void LineSource::open(int& fd, const std::string& prefix, bool gzip, bool stream_ended) {
  gzip_ = gzip;
  if (S_ISREG(opened_.st_mode)) watch_fd_ = ::fcntl(fd, F_DUPFD_CLOEXEC, 0);
  // A regular file that is not gzip is mapped whole: no copies, and the parallel edge-list
  // reader can hand its parts to threads. (Size 0 may be a /proc file: streamed.)
  if (S_ISREG(opened_.st_mode) && opened_.st_size > 0 && !gzip) {
    // MAP_POPULATE maps every page in one call: faulting them in one by one cost more than
    // parsing them on the 2-core virtual machine. With more cores, a large file's pages are
    // instead faulted in by the threads that scan it for binary bytes (check_bytes), in
    // parallel: one thread populating a large file was a sizeable share of a 16-core read.
    const size_t size = static_cast<size_t>(opened_.st_size);
    const bool populate = size < kParallelScanBytes || thread_budget() <= 2;
    void* map =
        ::mmap(nullptr, size, PROT_READ, MAP_PRIVATE | (populate ? MAP_POPULATE : 0), fd, 0);
    if (map != MAP_FAILED) {
      ::close(fd);
      fd = -1;
      map_ = map;
      map_size_ = size;
      guard_ = std::make_unique<SigbusGuard>(map, size);
      data_ = static_cast<const char*>(map);
      end_ = known_size_ = map_size_;
      eof_ = started_ = true;
      if (std::string_view(data_, end_).substr(0, 3) == "\xEF\xBB\xBF") pos_ = 3;
      try {
        check_bytes(pos_, end_);
      } catch (const InputError&) {
        check_unchanged();  // zeros where the file shrank are not binary data
        throw;
      }
      meter_start(meter_, known_size_);
      return;
    }
  }
  stream_ = std::make_unique<Stream>(fd, prefix, stream_ended);
  fd = -1;  // the Stream's now
  buf_.resize(kInitialBuffer);
  data_ = buf_.data();
  meter_start(meter_, 0);  // a stream's size is not known: no share, only seconds
}

void LineSource::check_unchanged() const {
  if (watch_fd_ < 0) return;
  struct stat now {};
  const bool shrank = guard_ && guard_->faulted();
  if (!shrank && ::fstat(watch_fd_, &now) == 0 && now.st_size == opened_.st_size &&
      now.st_mtim.tv_sec == opened_.st_mtim.tv_sec &&
      now.st_mtim.tv_nsec == opened_.st_mtim.tv_nsec)
    return;
  fail_at(0, "the file changed while it was read (" +
                 std::string(shrank ? "it shrank under the reader" : "its size or time changed") +
                 "); read it again once nothing writes to it");
}

LineSource::LineSource(std::string_view text, std::string name)
    : name_(std::move(name)),
      meter_(nullptr),  // text in memory is read in no time worth showing
      data_(text.data()),
      end_(text.size()),
      known_size_(text.size()),
      eof_(true),
      started_(true) {
  if (text.substr(0, 3) == "\xEF\xBB\xBF") pos_ = 3;
  check_bytes(pos_, end_);
}

LineSource::~LineSource() {
  guard_.reset();
  if (map_ != nullptr) ::munmap(map_, map_size_);
  if (watch_fd_ >= 0) ::close(watch_fd_);
}

size_t LineSource::count_lines(std::string_view text) {
  size_t lines = static_cast<size_t>(std::count(text.begin(), text.end(), '\n'));
  // Lone carriage returns end lines too; most files have none, and memchr finds that fast.
  for (const char *p = text.data(), *end = p + text.size();;) {
    p = static_cast<const char*>(std::memchr(p, '\r', static_cast<size_t>(end - p)));
    if (p == nullptr) break;
    ++p;
    if (p == end || *p != '\n') ++lines;
  }
  if (!text.empty() && text.back() != '\n' && text.back() != '\r') ++lines;
  return lines;
}

bool LineSource::find_binary_byte(std::string_view text, size_t& line, size_t& column,
                                  unsigned char& byte) {
  // Blocks without an early exit, so the compiler vectorizes the common all-clean case.
  constexpr size_t kBlock = 64;
  const auto* p = reinterpret_cast<const unsigned char*>(text.data());
  const size_t to = text.size();
  size_t block = 0;
  for (; block + kBlock <= to; block += kBlock) {
    unsigned char any = 0;
    for (size_t i = 0; i < kBlock; ++i) {
      const unsigned char c = p[block + i];
      any |= static_cast<unsigned char>((c < 9) | (static_cast<unsigned char>(c - 14) < 18) |
                                        (c == 0x7f));
    }
    if (any != 0) break;
  }
  const char* bad = std::find_if(text.data() + block, text.data() + to, [](char c) {
    return is_binary_byte(static_cast<unsigned char>(c));
  });
  if (bad == text.data() + to) return false;
  const char* line_start = bad;
  while (line_start > text.data() && line_start[-1] != '\n' && line_start[-1] != '\r') --line_start;
  // Lines before the bad one: complete terminators only, so count the text up to its line.
  line =
      1 + count_lines(std::string_view(text.data(), static_cast<size_t>(line_start - text.data())));
  column = static_cast<size_t>(bad - line_start) + 1;
  byte = static_cast<unsigned char>(*bad);
  return true;
}

void LineSource::check_bytes(size_t from, size_t to) const {
  // Scan only the new bytes; number lines from the first unconsumed one.
  size_t line = 0, column = 0;
  unsigned char byte = 0;
  if (to - from >= kParallelScanBytes && thread_budget() > 1) {
    // Pieces scanned by all threads; a piece that finds a binary byte sends the whole scan
    // back to one thread, which finds the first one and its line (an error, so rare).
    constexpr size_t kPiece = size_t{4} << 20;
    std::atomic<bool> found{false};
    parallel_chunks((to - from + kPiece - 1) / kPiece, 1, [&](size_t a, size_t b) {
      for (size_t k = a; k < b && !found; ++k) {
        const size_t p = from + k * kPiece, q = std::min(to, p + kPiece);
        size_t l, c;
        unsigned char y;
        if (find_binary_byte(std::string_view(data_ + p, q - p), l, c, y)) found = true;
      }
    });
    if (!found) return;
  }
  if (!find_binary_byte(std::string_view(data_ + from, to - from), line, column, byte)) return;
  if (consumed_base_ == 0 && end_ >= 8)
    if (const char* kind = tool_file_kind(std::string_view(data_, 8), gzip_)) fail_at(0, kind);
  const std::string_view before(data_ + pos_, from - pos_);
  size_t full = 0;
  if (!before.empty()) {
    // Complete lines between pos_ and `from`, and how far into its line `from` already is.
    const char* last = data_ + from;
    while (last > data_ + pos_ && last[-1] != '\n' && last[-1] != '\r') --last;
    full = count_lines(std::string_view(data_ + pos_, static_cast<size_t>(last - (data_ + pos_))));
    if (line == 1) column += static_cast<size_t>(data_ + from - last);
  }
  char hex[8];
  std::snprintf(hex, sizeof hex, "0x%02x", byte);
  fail_at(line_ + block_lines_ + full + line, std::string("binary data (byte ") + hex +
                                                  " in column " + std::to_string(column) +
                                                  "): not a text graph file");
}

bool LineSource::fill() {
  if (eof_) return false;
  if (pos_ > 0) {
    std::memmove(buf_.data(), buf_.data() + pos_, end_ - pos_);
    end_ -= pos_;
    consumed_base_ += pos_;
    pos_ = 0;
  }
  // A line longer than the buffer (a vertex of huge degree) grows it rather than failing.
  if (end_ == buf_.size()) buf_.resize(buf_.size() * 2);
  data_ = buf_.data();
  size_t got = 0;
  try {
    got = stream_->read(buf_.data() + end_, buf_.size() - end_);
  } catch (const StreamError& e) {
    fail_at(0,
            e.message + " (after line " +
                std::to_string(line_ + count_lines(std::string_view(data_ + pos_, end_ - pos_))) +
                ")");
  }
  if (got == 0) {
    eof_ = true;
    return false;
  }
  const size_t from = end_;
  end_ += got;
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
  size_t scan = 0;  // bytes after pos_ known to hold no line end
  for (;;) {
    const char* stop = find_eol(data_ + pos_ + scan, data_ + end_);
    if (stop != data_ + end_) {
      const size_t at = static_cast<size_t>(stop - data_);
      // A '\r' last in the buffer may be the first half of "\r\n": read on before deciding.
      if (*stop == '\r' && at + 1 == end_ && !eof_) {
        scan = at - pos_;
        if (fill()) continue;
      }
      line = {data_ + pos_, at - pos_};
      pos_ = at + 1;
      if (*stop == '\r' && pos_ < end_ && data_[pos_] == '\n') ++pos_;
      break;
    }
    const size_t partial = end_ - pos_;
    if (!fill()) {
      if (pos_ == end_) {
        meter_consumed(0);
        return false;
      }
      line = {data_ + pos_, end_ - pos_};
      pos_ = end_;
      break;
    }
    scan = partial;
  }
  ++line_;
  meter_consumed(kMeterBytes);
  return true;
}

void LineSource::meter_consumed(size_t at_least) {
  if (meter_ == nullptr || bytes_consumed() - metered_ < std::max<size_t>(at_least, 1)) return;
  meter_->add(bytes_consumed() - metered_);
  metered_ = bytes_consumed();
}

bool LineSource::take_all(std::string_view& text) {
  if (stream_ != nullptr) return false;
  text = {data_ + pos_, end_ - pos_};
  pos_ = end_;
  return true;
}

bool LineSource::next_block(std::string_view& block, size_t want) {
  // Bytes after pos_ already searched and known to hold no settled line end: a line longer
  // than a read is searched once, not again from its end after every read (which made a
  // long line from a pipe cost time quadratic in its length).
  size_t searched = 0;
  for (;;) {
    while (end_ - pos_ < want && fill()) {
    }
    if (pos_ == end_) return false;
    size_t cut = end_;
    if (!eof_) {
      // The last line end whose meaning is settled: a '\r' last in the buffer may yet be
      // followed by '\n', so it does not count.
      cut = 0;
      for (size_t i = end_; i > pos_ + searched; --i) {
        const char c = data_[i - 1];
        if (c == '\n' || (c == '\r' && i < end_)) {
          cut = i;
          break;
        }
      }
      if (cut == 0) {                // one line longer than the buffer: read more of it
        searched = end_ - pos_ - 1;  // all but a last '\r', whose meaning is not settled
        want = end_ - pos_ + 1;
        continue;
      }
    }
    block = {data_ + pos_, cut - pos_};
    pos_ = cut;
    return true;
  }
}

}  // namespace closure
