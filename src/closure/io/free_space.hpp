// Free space where a file is about to be written: an output larger than its file system can
// hold is refused before the work of writing it, with the sizes, never discovered at ENOSPC.
#pragma once

#include <cstdint>
#include <optional>
#include <string>

namespace closure {

// Bytes an unprivileged writer may still use on the file system of `path`'s folder
// (statvfs: f_bavail blocks of f_frsize); nullopt when it cannot be told, and on a file
// system of no blocks (procfs, sysfs).
std::optional<uint64_t> free_bytes_for(const std::string& path);

}  // namespace closure
