// The SIGBUS handler and its fixed table of guarded ranges (a signal handler may only read
// lock-free atomics and make async-signal-safe calls; mmap is one on Linux).
#include "closure/util/sigbus_guard.hpp"

#include <sys/mman.h>
#include <unistd.h>

#include <atomic>
#include <cerrno>
#include <csignal>
#include <cstdint>
#include <mutex>

namespace closure {
namespace {

constexpr int kSlots = 64;
std::atomic<uintptr_t> g_begin[kSlots];
std::atomic<uintptr_t> g_end[kSlots];
std::atomic<bool> g_claimed[kSlots];
std::atomic<bool> g_faulted[kSlots];
struct sigaction g_previous;
uintptr_t g_page = 4096;  // set once, before the handler is installed

extern "C" void on_sigbus(int sig, siginfo_t* info, void* context) {
  const int saved_errno = errno;
  // Only a fault of the kernel's has an address; one sent by kill or tgkill (si_code <= 0)
  // is not ours to absorb.
  const auto addr = info->si_code > 0 ? reinterpret_cast<uintptr_t>(info->si_addr) : 0;
  for (int i = 0; addr != 0 && i < kSlots; ++i) {
    const uintptr_t b = g_begin[i].load(std::memory_order_acquire);
    const uintptr_t e = g_end[i].load(std::memory_order_acquire);
    // A slot released and claimed again between the two loads: begin moved, skip it.
    if (b == 0 || addr < b || addr >= e || g_begin[i].load(std::memory_order_acquire) != b)
      continue;
    const uintptr_t page = addr & ~(g_page - 1);
    if (::mmap(reinterpret_cast<void*>(page), size_t(g_page), PROT_READ,
               MAP_PRIVATE | MAP_ANONYMOUS | MAP_FIXED, -1, 0) == MAP_FAILED)
      break;
    g_faulted[i].store(true, std::memory_order_release);
    errno = saved_errno;
    return;  // the load is retried and reads zeros
  }
  errno = saved_errno;
  // Not ours: what was there before decides (by default, the process ends on SIGBUS).
  if (g_previous.sa_flags & SA_SIGINFO) {
    g_previous.sa_sigaction(sig, info, context);
  } else if (g_previous.sa_handler != SIG_IGN && g_previous.sa_handler != SIG_DFL) {
    g_previous.sa_handler(sig);
  } else {
    ::signal(SIGBUS, SIG_DFL);  // the faulting load runs again and ends the process
  }
}

void install_once() {
  static std::once_flag once;
  std::call_once(once, [] {
    g_page = uintptr_t(::sysconf(_SC_PAGESIZE));
    struct sigaction action {};
    action.sa_sigaction = on_sigbus;
    action.sa_flags = SA_SIGINFO | SA_NODEFER;
    sigemptyset(&action.sa_mask);
    ::sigaction(SIGBUS, &action, &g_previous);
  });
}

}  // namespace

SigbusGuard::SigbusGuard(const void* base, size_t size) {
  if (base == nullptr || size == 0) return;
  install_once();
  for (int i = 0; i < kSlots; ++i) {
    bool expected = false;
    if (!g_claimed[i].compare_exchange_strong(expected, true)) continue;
    g_faulted[i].store(false, std::memory_order_relaxed);
    g_end[i].store(reinterpret_cast<uintptr_t>(base) + size, std::memory_order_release);
    g_begin[i].store(reinterpret_cast<uintptr_t>(base), std::memory_order_release);
    slot_ = i;
    return;
  }
}

SigbusGuard::~SigbusGuard() {
  if (slot_ < 0) return;
  g_begin[slot_].store(0, std::memory_order_release);
  g_end[slot_].store(0, std::memory_order_release);
  g_claimed[slot_].store(false, std::memory_order_release);
}

bool SigbusGuard::faulted() const {
  return slot_ >= 0 && g_faulted[slot_].load(std::memory_order_acquire);
}

}  // namespace closure
