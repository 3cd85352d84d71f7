// AtomicFile: output written to a temporary file beside the target and renamed into
// place on commit(), so an interrupted or failed run never leaves a truncated file; on
// SIGINT, SIGTERM or SIGHUP the temporary files are removed before the process dies.
#pragma once

#include <cstdio>
#include <string>
#include <string_view>

namespace closure {

class AtomicFile {
 public:
  // "-" writes to standard output directly (nothing to rename).
  explicit AtomicFile(std::string path);
  ~AtomicFile();  // removes the temporary file unless commit() succeeded
  AtomicFile(const AtomicFile&) = delete;
  AtomicFile& operator=(const AtomicFile&) = delete;

  void write(std::string_view bytes);
  void write(const void* data, size_t size);
  void commit();  // flushes, checks for write errors, renames; throws std::runtime_error

 private:
  std::string path_, tmp_;
  std::FILE* file_ = nullptr;
  bool committed_ = false;
  int slot_ = -1;  // registration for removal on SIGINT/SIGTERM/SIGHUP
};

}  // namespace closure
