// free_bytes_for: statvfs on the output's folder.
#include "closure/io/free_space.hpp"

#include <sys/statvfs.h>

namespace closure {

std::optional<uint64_t> free_bytes_for(const std::string& path) {
  const auto slash = path.find_last_of('/');
  const std::string folder = slash == std::string::npos ? "."
                             : slash == 0               ? "/"
                                                        : path.substr(0, slash);
  struct statvfs fs {};
  if (::statvfs(folder.c_str(), &fs) != 0) return std::nullopt;
  // A file system of no blocks (/proc, /sys: -o /dev/fd/01) has no space to tell; the
  // write's own error names the mistake, where "0 bytes free" would mislead.
  if (fs.f_blocks == 0) return std::nullopt;
  return uint64_t(fs.f_bavail) * uint64_t(fs.f_frsize);
}

}  // namespace closure
