// Temporary-file-and-rename output.
#include "closure/io/atomic_file.hpp"

#include <unistd.h>

#include <atomic>
#include <cerrno>
#include <csignal>
#include <cstring>
#include <stdexcept>

namespace closure {
namespace {

// Temporary files still open, so that Ctrl-C or a kill removes them too (destructors do
// not run then). Fixed slots, because the signal handler may only read and unlink: a slot
// is claimed, then its path written, then marked ready; the handler reads ready ones.
constexpr int kSlots = 64;
constexpr size_t kPathMax = 4096;
char g_paths[kSlots][kPathMax];
std::atomic<bool> g_claimed[kSlots];
std::atomic<bool> g_ready[kSlots];

extern "C" void remove_temporaries_and_reraise(int sig) {
  for (int i = 0; i < kSlots; ++i)
    if (g_ready[i].load(std::memory_order_acquire)) ::unlink(g_paths[i]);
  std::signal(sig, SIG_DFL);
  std::raise(sig);
}

// Installs the handler for SIGINT, SIGTERM and SIGHUP, except where the signal is
// ignored (under nohup, SIGHUP must stay ignored).
void install_handler_once() {
  static const bool installed = [] {
    for (int sig : {SIGINT, SIGTERM, SIGHUP}) {
      struct sigaction old {};
      if (::sigaction(sig, nullptr, &old) == 0 && old.sa_handler == SIG_IGN) continue;
      struct sigaction action {};
      action.sa_handler = remove_temporaries_and_reraise;
      sigemptyset(&action.sa_mask);
      ::sigaction(sig, &action, nullptr);
    }
    return true;
  }();
  (void)installed;
}

int register_temporary(const std::string& path) {
  install_handler_once();
  if (path.size() >= kPathMax) return -1;
  for (int i = 0; i < kSlots; ++i) {
    bool expected = false;
    if (!g_claimed[i].compare_exchange_strong(expected, true)) continue;
    std::memcpy(g_paths[i], path.c_str(), path.size() + 1);
    g_ready[i].store(true, std::memory_order_release);
    return i;
  }
  return -1;  // more than kSlots outputs at once: only the destructor cleans this one up
}

void unregister_temporary(int slot) {
  if (slot < 0) return;
  g_ready[slot].store(false, std::memory_order_release);
  g_claimed[slot].store(false, std::memory_order_release);
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
  // Unique per process and object: two writers of one path never share a temporary.
  static std::atomic<unsigned> counter{0};
  tmp_ = path_;
  tmp_ += ".tmp-";
  tmp_ += std::to_string(::getpid());
  tmp_ += '-';
  tmp_ += std::to_string(counter++);
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
  const bool write_failed = std::ferror(file_) != 0;
  const bool close_failed = std::fclose(file_) != 0;  // closed either way: no leaked handle
  const bool failed = write_failed || close_failed;
  file_ = nullptr;
  if (failed) throw io_error("cannot write", tmp_);
  if (std::rename(tmp_.c_str(), path_.c_str()) != 0) throw io_error("cannot rename into", path_);
  committed_ = true;
  unregister_temporary(slot_);
  slot_ = -1;
}

}  // namespace closure
