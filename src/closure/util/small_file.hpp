// Reading a small configuration or cache file (the tuning overlay, a program-cache entry)
// safely: opened without blocking (a FIFO under that name never hangs the process), only a
// regular file is read, and never more than a bound (/dev/zero cannot exhaust memory).
#pragma once

#include <cstddef>
#include <string>

namespace closure {

enum class SmallFileStatus { kOk, kMissing, kNotRegular, kTooLarge, kUnreadable };

// The file's bytes in `out` when kOk; `out` is empty otherwise. A path through something
// that is not a folder (ENOTDIR: $HOME naming a file) is missing, as a missing file is.
// `error` (where given): the errno of a kUnreadable.
SmallFileStatus read_small_file(const std::string& path, size_t max_bytes, std::string& out,
                                int* error = nullptr);

// "is not a regular file", "is larger than N bytes", "cannot be read: Too many open files"
// (with the `error` read_small_file gave), ...: for messages.
std::string describe(SmallFileStatus status, size_t max_bytes, int error = 0);

}  // namespace closure
