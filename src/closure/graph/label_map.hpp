// LabelMap: input labels to dense vertex ids in first-appearance order. Ids are hashed, never
// used as indices, so sparse or huge ids (4000000000) cost nothing.
#pragma once

#include <cstdint>
#include <deque>
#include <string>
#include <string_view>
#include <vector>

#include "closure/graph/graph.hpp"
#include "closure/graph/label_hash.hpp"

namespace closure::detail {

class LabelMap {
 public:
  static constexpr vertex_t kFull = UINT32_MAX;

  // With `numeric_allowed`, labels are treated as unsigned integers until one is not a
  // canonical decimal (letters, a sign, leading zeros, too large); from then on, and without
  // it, labels are exact strings. Until that switch every label seen was canonical, so both
  // views group labels identically and nothing needs re-reading.
  // With `borrow_names`, name labels are kept as views of the caller's text, which must
  // outlive the map: the parallel edge-list reader's chunk maps, which would otherwise copy
  // every distinct label once per chunk (malloc and copy were a third of reading paths).
  explicit LabelMap(bool numeric_allowed = true, bool borrow_names = false);

  // The id of `label`, added if new; kFull once kMaxVertices labels exist.
  vertex_t intern(std::string_view label);
  // Name mode (!numeric()) in two steps, so a caller can prefetch the slots of the next
  // labels while it interns the current ones: table lookups miss the cache, and overlapping
  // those misses is most of the speed of reading name labels.
  uint64_t name_hash(std::string_view label) const { return hash_label(label, seed_); }
  void prefetch(uint64_t hash) const { __builtin_prefetch(&slots_[slot_of(hash)]); }
  // Once that slot has arrived: the bytes of the name it holds, if its key is this hash.
  void prefetch_name(uint64_t hash) const {
    const Slot& s = slots_[slot_of(hash)];
    if (s.key == hash && s.name) __builtin_prefetch(s.name);
  }
  vertex_t intern_name(std::string_view label, uint64_t hash);
  // The id of the canonical decimal `value`; the map must still be numeric() (a name map
  // interns std::to_string(value) through intern()).
  vertex_t intern_number(uint64_t value);
  size_t size() const { return count_; }
  bool numeric() const { return numeric_; }
  // Labels in id order: numbers() while numeric(), names() after.
  const std::vector<uint64_t>& numbers() const { return numbers_; }
  const std::vector<std::string>& names() const { return names_; }
  // The name of `id` (name mode, owned or borrowed).
  std::string_view name(vertex_t id) const { return borrow_ ? views_[id] : names_[id]; }
  // The labels in id order, taken from the map (numbers while numeric()).
  VertexLabels take_labels();
  // Name mode: every label's hash (name_hash) in id order, read from the slots.
  std::vector<uint64_t> hashes_by_id() const;
  // Slots inspected by every lookup so far: about 1.5 per lookup at the table's load, and
  // what a flood of colliding labels would drive towards quadratic (tests watch it).
  uint64_t probes() const { return probes_; }

 private:
  struct Slot {
    uint64_t key;  // the number itself, or the label's hash
    vertex_t id;   // kEmpty when unused
    // Borrowing name mode: the stored name itself (stable text the map borrows), so a
    // lookup compares it without first reading views_[id], a second random read that was
    // most of a lookup's time on path labels (perf). nullptr: compare name(id) instead.
    uint32_t name_size;
    const char* name;
  };
  static constexpr vertex_t kEmpty = UINT32_MAX;

  vertex_t intern_name(std::string_view label);
  // The probe both modes share: the id of the slot whose key is `key` and `is_label(slot)`
  // holds, or a new id in the first empty slot (`store(slot)` records its label and may
  // fill the slot's name fields).
  template <class IsLabel, class Store>
  vertex_t find_or_insert(uint64_t key, const IsLabel& is_label, const Store& store);
  // Keys are mixed with a per-process random seed (label_hash.hpp), so no input can pick
  // labels that share a slot: a fixed multiplier let 200k crafted integers probe one slot.
  size_t slot_of(uint64_t key) const { return static_cast<size_t>(mix_key(key, seed_) >> shift_); }
  void grow();
  void switch_to_names();

  bool numeric_;
  uint64_t seed_;
  uint64_t probes_ = 0;
  std::vector<Slot> slots_;
  unsigned shift_ = 0;  // 64 - log2(slots_.size())
  size_t count_ = 0;
  std::vector<uint64_t> numbers_;   // numeric mode: labels in id order
  std::vector<std::string> names_;  // name mode: labels in id order
  bool borrow_ = false;
  std::vector<std::string_view> views_;  // name mode, borrowing: labels in id order
  std::deque<std::string> owned_;        // borrowing: numbers turned names, which views_ see
};

}  // namespace closure::detail
