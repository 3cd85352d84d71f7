// Temporary-file-and-rename output.
#include "io/atomic_file.hpp"

#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <stdexcept>

namespace closure {

static std::runtime_error io_error(const std::string& what, const std::string& path) {
  return std::runtime_error(what + " " + path + ": " + std::strerror(errno));
}

AtomicFile::AtomicFile(std::string path) : path_(std::move(path)) {
  if (path_ == "-") {
    file_ = stdout;
    return;
  }
  // Appended piecewise: GCC 12 warns (-Wrestrict, a false positive) on a + b + c here.
  tmp_ = path_;
  tmp_ += ".tmp-";
  tmp_ += std::to_string(::getpid());
  file_ = std::fopen(tmp_.c_str(), "wb");
  if (!file_) throw io_error("cannot create", tmp_);
  std::setvbuf(file_, nullptr, _IOFBF, 1 << 20);
}

AtomicFile::~AtomicFile() {
  if (file_ && file_ != stdout) std::fclose(file_);
  if (!committed_ && !tmp_.empty()) std::remove(tmp_.c_str());
}

void AtomicFile::write(const void* data, size_t size) {
  if (size && std::fwrite(data, 1, size, file_) != size)
    throw io_error("cannot write", tmp_.empty() ? path_ : tmp_);
}

void AtomicFile::write(std::string_view bytes) {
  write(bytes.data(), bytes.size());
}

void AtomicFile::commit() {
  if (std::fflush(file_) != 0) throw io_error("cannot write", tmp_.empty() ? path_ : tmp_);
  if (file_ == stdout) {
    committed_ = true;
    return;
  }
  const bool failed = std::ferror(file_) || std::fclose(file_) != 0;
  file_ = nullptr;
  if (failed) throw io_error("cannot write", tmp_);
  if (std::rename(tmp_.c_str(), path_.c_str()) != 0) throw io_error("cannot rename into", path_);
  committed_ = true;
}

}  // namespace closure
