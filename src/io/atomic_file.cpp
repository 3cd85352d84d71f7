// Temporary-file-and-rename output.
#include "io/atomic_file.hpp"

#include <unistd.h>

#include <atomic>
#include <cerrno>
#include <csignal>
#include <cstring>
#include <stdexcept>

namespace closure {
namespace {

// Temporary files still open, so that Ctrl-C or a kill removes them too (destructors do
// not run then). Fixed slots, because the signal handler may only read and unlink.
constexpr int kSlots = 64;
constexpr size_t kPathMax = 4096;
char g_paths[kSlots][kPathMax];
std::atomic<bool> g_used[kSlots];

extern "C" void remove_temporaries_and_reraise(int sig) {
  for (int i = 0; i < kSlots; ++i)
    if (g_used[i].load()) ::unlink(g_paths[i]);
  std::signal(sig, SIG_DFL);
  std::raise(sig);
}

int register_temporary(const std::string& path) {
  static const bool installed = [] {
    for (int sig : {SIGINT, SIGTERM, SIGHUP}) std::signal(sig, remove_temporaries_and_reraise);
    return true;
  }();
  (void)installed;
  if (path.size() >= kPathMax) return -1;
  for (int i = 0; i < kSlots; ++i) {
    bool expected = false;
    if (g_used[i].load() || !g_used[i].compare_exchange_strong(expected, true)) continue;
    // The slot is ours but the handler may read it: write the path before it can matter.
    g_used[i].store(false);
    std::memcpy(g_paths[i], path.c_str(), path.size() + 1);
    g_used[i].store(true);
    return i;
  }
  return -1;  // more than kSlots outputs at once: only the destructor cleans this one up
}

void unregister_temporary(int slot) {
  if (slot >= 0) g_used[slot].store(false);
}

}  // namespace

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
  slot_ = register_temporary(tmp_);
  std::setvbuf(file_, nullptr, _IOFBF, 1 << 20);
}

AtomicFile::~AtomicFile() {
  if (file_ && file_ != stdout) std::fclose(file_);
  if (!committed_ && !tmp_.empty()) std::remove(tmp_.c_str());
  unregister_temporary(slot_);
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
  unregister_temporary(slot_);
  slot_ = -1;
}

}  // namespace closure
