// Slot assignment by steps from the highest: a counting sort of rows by last reader, then a
// free list.
#include "closure/util/reuse_slots.hpp"

#include <algorithm>

namespace closure {

ReusedSlots reuse_slots(const std::vector<uint32_t>& last_reader, size_t rows_per_step) {
  constexpr uint32_t kNone = ReusedSlots::kNone;
  const size_t rows = last_reader.size();
  const size_t steps = (rows + rows_per_step - 1) / rows_per_step;
  // Rows whose last reader is step k, bucketed by k.
  std::vector<uint64_t> begin(steps + 1, 0);
  for (uint32_t k : last_reader)
    if (k != kNone) ++begin[k + 1];
  for (size_t k = 0; k < steps; ++k) begin[k + 1] += begin[k];
  std::vector<uint32_t> released(begin[steps]);
  {
    std::vector<uint64_t> at(begin.begin(), begin.end() - 1);
    for (size_t r = 0; r < rows; ++r)
      if (last_reader[r] != kNone) released[at[last_reader[r]]++] = uint32_t(r);
  }
  ReusedSlots out;
  out.slot.assign(rows, kNone);
  std::vector<uint32_t> free_slots;
  for (size_t k = steps; k-- > 0;) {
    // Step k reads its rows back before it writes its own: their slots are free for it.
    for (uint64_t i = begin[k]; i < begin[k + 1]; ++i) free_slots.push_back(out.slot[released[i]]);
    for (size_t r = k * rows_per_step; r < std::min(rows, (k + 1) * rows_per_step); ++r) {
      if (last_reader[r] != kNone) out.slot[r] = take_slot(free_slots, out.slots);
    }
  }
  return out;
}

}  // namespace closure
