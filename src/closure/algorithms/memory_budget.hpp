// How much host memory this process may still use, and a budget that allocations draw
// on, so that methods refuse with the sizes named (OutOfMemoryError, exit 4) instead of
// dying in std::bad_alloc or the OOM killer.
#pragma once

#include <atomic>
#include <cstddef>
#include <string>

namespace closure {

// The least of: MemAvailable (/proc/meminfo; physical memory where absent), the cgroup's
// memory.max minus memory.current (v2; limit_in_bytes minus usage_in_bytes for v1), and
// RLIMIT_AS (ulimit -v) minus the address space already mapped. Bytes.
size_t available_host_memory();

// A shared counter of bytes charged against a limit; charge() throws OutOfMemoryError
// naming `what`, the bytes asked for, the total and the limit, before the allocation
// happens. Thread-safe.
class MemoryBudget {
 public:
  // `fixed`: bytes already committed besides what is charged (named in the message).
  MemoryBudget(size_t limit, size_t fixed, std::string what)
      : limit_(limit), fixed_(fixed), what_(std::move(what)) {}
  void charge(size_t bytes);
  size_t used() const { return used_.load(std::memory_order_relaxed); }
  size_t limit() const { return limit_; }

 private:
  size_t limit_, fixed_;
  std::string what_;
  std::atomic<size_t> used_{0};
};

}  // namespace closure
