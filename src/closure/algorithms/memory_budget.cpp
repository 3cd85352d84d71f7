// The memory budget's charges (the limits themselves: util/available_memory.cpp).
#include "closure/algorithms/memory_budget.hpp"

#include <cstdint>

#include "closure/errors.hpp"

namespace closure {

bool MemoryBudget::try_charge(size_t bytes) {
  const size_t before = used_.fetch_add(bytes, std::memory_order_relaxed);
  if (fixed_ + before + bytes <= limit_) return true;
  used_.fetch_sub(bytes, std::memory_order_relaxed);
  return false;
}

void MemoryBudget::charge(size_t bytes) {
  if (try_charge(bytes)) return;
  const size_t before = used();
  throw OutOfMemoryError(
      what_ + " needs more than " + format_bytes(double(fixed_ + before + bytes)) +
          " of host memory (" + format_bytes(double(fixed_)) + " of work arrays, " +
          format_bytes(double(before + bytes)) + " of closure rows so far); " +
          format_bytes(double(limit_)) + " is available (free memory, ulimit -v or a cgroup limit)",
      Advice::kWithoutClosure);
}

}  // namespace closure
