#include "closure/reach/name_table.hpp"

#include <bit>

#include "closure/graph/label_hash.hpp"
#include "closure/io/content_hash.hpp"

namespace closure::reach {

uint64_t name_slot_count(uint64_t names) {
  return std::bit_ceil(std::max<uint64_t>(2, names + (names + 2) / 3));
}

uint64_t name_seed(std::string_view label_bytes) {
  return content_hash(label_bytes.data(), label_bytes.size(), 0x6e616d6573656564ull);
}

std::vector<uint64_t> build_name_slots(const uint64_t* label_offsets, const char* label_bytes,
                                       uint64_t names, uint64_t seed) {
  std::vector<uint64_t> slots(name_slot_count(names), 0);
  const uint64_t mask = slots.size() - 1;
  for (uint64_t v = 0; v < names; ++v) {
    const std::string_view name(label_bytes + label_offsets[v],
                                size_t(label_offsets[v + 1] - label_offsets[v]));
    const uint64_t h = detail::hash_label(name, seed);
    uint64_t i = h & mask;
    while (slots[i] != 0) i = (i + 1) & mask;
    slots[i] = (h & 0xffffffff00000000ull) | (v + 1);
  }
  return slots;
}

uint64_t NameTable::hash(std::string_view label) const {
  return detail::hash_label(label, seed);
}

std::optional<vertex_t> NameTable::find(std::string_view label, uint64_t h) const {
  const uint64_t mask = slot_count - 1;
  const uint64_t tag = h & 0xffffffff00000000ull;
  uint64_t i = h & mask;
  // The loader checked that some slot is empty, so the probe ends; the bound only guards
  // against a table that breaks that promise.
  for (uint64_t probes = 0; probes < slot_count; ++probes, i = (i + 1) & mask) {
    const uint64_t s = slots[i];
    if (s == 0) return std::nullopt;
    if ((s & 0xffffffff00000000ull) == tag) {
      const auto v = uint32_t(s) - 1;
      if (name(v) == label) return vertex_t(v);
    }
  }
  return std::nullopt;
}

}  // namespace closure::reach
