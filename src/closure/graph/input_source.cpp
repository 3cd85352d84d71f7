// InputSource implementation: a stream's first bytes are read into a prefix that its next
// owner reads first; a regular file is peeked with pread, which moves nothing.
#include "closure/graph/input_source.hpp"

#include <fcntl.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>

#include "closure/errors.hpp"
#include "closure/graph/input_error.hpp"
#include "closure/util/input_registry.hpp"

namespace closure {

void throw_cannot_open(const std::string& name, int error) {
  const std::string why = std::string("cannot open: ") + std::strerror(error);
  if (error == EMFILE || error == ENFILE || error == ENOMEM) throw ResourceError(name + ": " + why);
  throw InputError(name, 0, why);
}

InputSource::InputSource(const std::string& path)
    : path_(path), name_(path == "-" ? "<stdin>" : path) {
  if (path == "-") {
    fd_ = ::dup(STDIN_FILENO);
    if (fd_ < 0)
      throw InputError(name_, 0,
                       std::string("cannot read standard input: ") + std::strerror(errno));
  } else {
    fd_ = ::open(path.c_str(), O_RDONLY | O_CLOEXEC);
    if (fd_ < 0) throw_cannot_open(name_, errno);
  }
  if (::fstat(fd_, &stat_) != 0) {
    const int e = errno;
    ::close(fd_);
    throw_cannot_open(name_, e);
  }
  if (S_ISDIR(stat_.st_mode)) {
    ::close(fd_);
    throw InputError(name_, 0, "cannot open: is a directory, not a graph file");
  }
  note_input(stat_);
}

InputSource::~InputSource() {
  if (fd_ >= 0) ::close(fd_);
}

InputSource::InputSource(InputSource&& other) noexcept
    : path_(std::move(other.path_)),
      name_(std::move(other.name_)),
      fd_(other.fd_),
      stat_(other.stat_),
      prefix_(std::move(other.prefix_)),
      stream_eof_(other.stream_eof_) {
  other.fd_ = -1;
}

std::string_view InputSource::peek(size_t n) {
  if (regular()) {
    if (prefix_.size() < n) {
      prefix_.resize(n);
      size_t got = 0;
      while (got < n) {
        const ssize_t k = ::pread(fd_, prefix_.data() + got, n - got, off_t(got));
        if (k < 0 && errno == EINTR) continue;
        if (k <= 0) break;
        got += size_t(k);
      }
      prefix_.resize(got);
    }
    return std::string_view(prefix_).substr(0, n);
  }
  while (prefix_.size() < n && !stream_eof_) {
    char buf[4096];
    const ssize_t k = ::read(fd_, buf, std::min(sizeof buf, n - prefix_.size()));
    if (k < 0 && errno == EINTR) continue;
    if (k < 0) throw InputError(name_, 0, std::string("cannot read: ") + std::strerror(errno));
    if (k == 0) stream_eof_ = true;
    prefix_.append(buf, size_t(k));
  }
  return std::string_view(prefix_).substr(0, n);
}

int InputSource::release(std::string& stream_prefix) {
  stream_prefix = regular() ? std::string() : std::move(prefix_);
  prefix_.clear();
  const int fd = fd_;
  fd_ = -1;
  return fd;
}

}  // namespace closure
