// A budget that allocations draw on (against util/available_memory.hpp's figure), so that
// methods refuse with the sizes named (OutOfMemoryError, exit 4) instead of dying in
// std::bad_alloc or the OOM killer.
#pragma once

#include <atomic>
#include <cstddef>
#include <string>

#include "closure/util/available_memory.hpp"

namespace closure {

// A shared counter of bytes charged against a limit; charge() throws OutOfMemoryError
// naming `what`, the bytes asked for, the total and the limit, before the allocation
// happens. Thread-safe.
class MemoryBudget {
 public:
  // `fixed`: bytes already committed besides what is charged (named in the message).
  MemoryBudget(size_t limit, size_t fixed, std::string what)
      : limit_(limit), fixed_(fixed), what_(std::move(what)) {}
  void charge(size_t bytes);
  // Charges `bytes` and says true, or charges nothing and says false where they pass the limit.
  bool try_charge(size_t bytes);
  size_t used() const { return used_.load(std::memory_order_relaxed); }
  size_t limit() const { return limit_; }
  // What charge() would still grant: the limit less the fixed bytes and those charged.
  size_t room() const {
    const size_t taken = fixed_ + used();
    return taken < limit_ ? limit_ - taken : 0;
  }

 private:
  size_t limit_, fixed_;
  std::string what_;
  std::atomic<size_t> used_{0};
};

}  // namespace closure
