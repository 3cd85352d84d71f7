// LabelMap implementation: open addressing with linear probing; a hand-rolled table because
// std::unordered_map's node allocations dominate parse time at a million edges.
#include "closure/graph/label_map.hpp"

#include <algorithm>
#include <charconv>
#include <random>

#include "closure/graph/huge_pages.hpp"
#include "closure/graph/read_graph.hpp"

namespace closure::detail {

namespace {

constexpr unsigned kInitialLog2 = 10;

bool canonical_unsigned(std::string_view s, uint64_t& value) {
  if (s.empty() || (s.size() > 1 && s[0] == '0')) return false;
  const char* end = s.data() + s.size();
  auto [ptr, ec] = std::from_chars(s.data(), end, value);
  return ec == std::errc() && ptr == end;
}

}  // namespace

uint64_t label_hash_seed() {
  static const uint64_t seed = [] {
    std::random_device rd;
    return (uint64_t{rd()} << 32) ^ rd();
  }();
  return seed;
}

LabelMap::LabelMap(bool numeric_allowed) : numeric_(numeric_allowed), seed_(label_hash_seed()) {
  slots_.assign(size_t{1} << kInitialLog2, Slot{0, kEmpty});
  shift_ = 64 - kInitialLog2;
}

vertex_t LabelMap::intern(std::string_view label) {
  if (numeric_) {
    uint64_t value;
    if (canonical_unsigned(label, value)) return intern_number(value);
    switch_to_names();
  }
  return intern_name(label);
}

vertex_t LabelMap::intern_number(uint64_t value) {
  const size_t mask = slots_.size() - 1;
  for (size_t i = slot_of(value);; i = (i + 1) & mask) {
    ++probes_;
    Slot& s = slots_[i];
    if (s.id == kEmpty) {
      if (count_ >= kMaxVertices) return kFull;
      if (2 * (count_ + 1) > slots_.size()) {
        grow();
        return intern_number(value);
      }
      s = Slot{value, static_cast<vertex_t>(count_)};
      numbers_.push_back(value);
      return static_cast<vertex_t>(count_++);
    }
    if (s.key == value) return s.id;
  }
}

vertex_t LabelMap::intern_name(std::string_view label) {
  const uint64_t h = hash_label(label, seed_);
  const size_t mask = slots_.size() - 1;
  for (size_t i = slot_of(h);; i = (i + 1) & mask) {
    ++probes_;
    Slot& s = slots_[i];
    if (s.id == kEmpty) {
      if (count_ >= kMaxVertices) return kFull;
      if (2 * (count_ + 1) > slots_.size()) {
        grow();
        return intern_name(label);
      }
      s = Slot{h, static_cast<vertex_t>(count_)};
      names_.emplace_back(label);
      return static_cast<vertex_t>(count_++);
    }
    if (s.key == h && names_[s.id] == label) return s.id;
  }
}

void LabelMap::grow() {
  std::vector<Slot> old;
  reserve_huge(old, slots_.size() * 2);
  old.assign(slots_.size() * 2, Slot{0, kEmpty});
  old.swap(slots_);
  --shift_;
  const size_t mask = slots_.size() - 1;
  for (const Slot& s : old) {
    if (s.id == kEmpty) continue;
    size_t i = slot_of(s.key);
    while (slots_[i].id != kEmpty) i = (i + 1) & mask;
    slots_[i] = s;
  }
}

void LabelMap::switch_to_names() {
  numeric_ = false;
  names_.reserve(numbers_.size());
  for (uint64_t n : numbers_) names_.push_back(std::to_string(n));
  numbers_ = {};
  std::fill(slots_.begin(), slots_.end(), Slot{0, kEmpty});
  const size_t mask = slots_.size() - 1;
  for (size_t id = 0; id < names_.size(); ++id) {
    const uint64_t h = hash_label(names_[id], seed_);
    size_t i = slot_of(h);
    while (slots_[i].id != kEmpty) i = (i + 1) & mask;
    slots_[i] = Slot{h, static_cast<vertex_t>(id)};
  }
}

std::vector<std::string> LabelMap::take_labels() {
  if (numeric_) {
    names_.reserve(numbers_.size());
    for (uint64_t n : numbers_) names_.push_back(std::to_string(n));
    numbers_ = {};
  }
  slots_ = {};
  count_ = 0;
  return std::move(names_);
}

}  // namespace closure::detail
