// Slots for rows that live from their writing to their last reading, in a sweep that runs
// its steps from the highest to 0 (the propagations' reverse topological order): a row
// written at step s and last read at step r < s holds its slot over [r, s]; a slot freed at
// step r (its reads come first there) takes a row written at r or below. The most rows
// live at once: a history's width.
#pragma once

#include <cstddef>
#include <cstdint>
#include <vector>

namespace closure {

struct ReusedSlots {
  static constexpr uint32_t kNone = 0xffffffffu;
  std::vector<uint32_t> slot;  // per row: its slot, or kNone (never read back)
  size_t slots = 0;
};

// A slot for a row: the one freed last (its lines are the likeliest still cached), else a
// new one (counted in `slots`).
inline uint32_t take_slot(std::vector<uint32_t>& free_slots, size_t& slots) {
  if (free_slots.empty()) return uint32_t(slots++);
  const uint32_t s = free_slots.back();
  free_slots.pop_back();
  return s;
}

// last_reader[row]: the lowest step reading the row back (kNone: none); rows are written
// at step row / rows_per_step.
ReusedSlots reuse_slots(const std::vector<uint32_t>& last_reader, size_t rows_per_step);

}  // namespace closure
