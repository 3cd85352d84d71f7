// A lowest-value-wins store that threads may race on: the reads of a sweep's rows
// (column_count.cpp's last readers, chained_blocks.cpp's loads of rows), found in parallel
// chunks that meet at a row.
#pragma once

#include <atomic>
#include <cstdint>

namespace closure {

// x = min(x, v), atomically; a store only where v is lower (most calls, a relaxed load).
inline void atomic_min(uint32_t& x, uint32_t v) {
  std::atomic_ref<uint32_t> ref(x);
  uint32_t now = ref.load(std::memory_order_relaxed);
  while (v < now && !ref.compare_exchange_weak(now, v, std::memory_order_relaxed)) {
  }
}

}  // namespace closure
