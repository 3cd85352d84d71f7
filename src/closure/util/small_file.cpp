// read_small_file: open non-blocking, check the type, read at most max_bytes + 1.
#include "closure/util/small_file.hpp"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>

namespace closure {

SmallFileStatus read_small_file(const std::string& path, size_t max_bytes, std::string& out,
                                int* error) {
  out.clear();
  int unused = 0;
  int& err = error ? *error : unused;
  err = 0;
  const int fd = ::open(path.c_str(), O_RDONLY | O_NONBLOCK | O_CLOEXEC);
  if (fd < 0) {
    err = errno;
    return err == ENOENT || err == ENOTDIR ? SmallFileStatus::kMissing
                                           : SmallFileStatus::kUnreadable;
  }
  struct stat st {};
  SmallFileStatus status = SmallFileStatus::kOk;
  if (::fstat(fd, &st) != 0) {
    err = errno;
    status = SmallFileStatus::kUnreadable;
  } else if (!S_ISREG(st.st_mode)) {
    status = SmallFileStatus::kNotRegular;
  } else if (uint64_t(st.st_size) > max_bytes) {
    status = SmallFileStatus::kTooLarge;
  } else {
    // Room for what the file holds and one byte more, to see one that grew past the bound
    // while read (never the bound itself: a cache entry's is 1 GiB).
    try {
      out.resize(size_t(st.st_size) + 1);
    } catch (...) {
      ::close(fd);
      throw;
    }
    size_t got = 0;
    while (got < out.size()) {
      const ssize_t k = ::read(fd, out.data() + got, out.size() - got);
      if (k < 0 && errno == EINTR) continue;
      if (k < 0) {
        err = errno;
        status = SmallFileStatus::kUnreadable;
        break;
      }
      if (k == 0) break;
      got += size_t(k);
    }
    if (status == SmallFileStatus::kOk && (got > max_bytes || got > size_t(st.st_size)))
      status = got > max_bytes ? SmallFileStatus::kTooLarge : SmallFileStatus::kUnreadable;
    out.resize(status == SmallFileStatus::kOk ? got : 0);
  }
  ::close(fd);
  return status;
}

std::string describe(SmallFileStatus status, size_t max_bytes, int error) {
  switch (status) {
    case SmallFileStatus::kOk:
      return "was read";
    case SmallFileStatus::kMissing:
      return "does not exist";
    case SmallFileStatus::kNotRegular:
      return "is not a regular file (a FIFO or a device?)";
    case SmallFileStatus::kTooLarge:
      return "is larger than " + std::to_string(max_bytes) + " bytes";
    case SmallFileStatus::kUnreadable:
      return error ? std::string("cannot be read: ") + std::strerror(error) : "cannot be read";
  }
  return "cannot be read";
}

}  // namespace closure
