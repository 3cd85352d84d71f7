// LabelMap: input labels to dense vertex ids in first-appearance order. Ids are hashed, never
// used as indices, so sparse or huge ids (4000000000) cost nothing.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "closure/graph/graph.hpp"

namespace closure::detail {

class LabelMap {
 public:
  static constexpr vertex_t kFull = UINT32_MAX;

  // With `numeric_allowed`, labels are treated as unsigned integers until one is not a
  // canonical decimal (letters, a sign, leading zeros, too large); from then on, and without
  // it, labels are exact strings. Until that switch every label seen was canonical, so both
  // views group labels identically and nothing needs re-reading.
  explicit LabelMap(bool numeric_allowed = true);

  // The id of `label`, added if new; kFull once kMaxVertices labels exist.
  vertex_t intern(std::string_view label);
  size_t size() const { return count_; }
  bool numeric() const { return numeric_; }
  std::vector<std::string> take_labels();

 private:
  struct Slot {
    uint64_t key;  // the number itself, or the label's hash
    vertex_t id;   // kEmpty when unused
  };
  static constexpr vertex_t kEmpty = UINT32_MAX;

  vertex_t intern_number(uint64_t value);
  vertex_t intern_name(std::string_view label);
  size_t slot_of(uint64_t key) const {
    return static_cast<size_t>((key * 0x9E3779B97F4A7C15ull) >> shift_);
  }
  void grow();
  void switch_to_names();

  bool numeric_;
  std::vector<Slot> slots_;
  unsigned shift_ = 0;  // 64 - log2(slots_.size())
  size_t count_ = 0;
  std::vector<uint64_t> numbers_;   // numeric mode: labels in id order
  std::vector<std::string> names_;  // name mode: labels in id order
};

}  // namespace closure::detail
