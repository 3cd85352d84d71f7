// LabelMap implementation: open addressing with linear probing; a hand-rolled table because
// std::unordered_map's node allocations dominate parse time at a million edges.
#include "closure/graph/label_map.hpp"

#include <algorithm>
#include <charconv>
#include <cstring>

#include "closure/graph/read_graph.hpp"
#include "closure/util/huge_pages.hpp"
#include "closure/util/random_bits.hpp"

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
  static const uint64_t seed = random_u64();
  return seed;
}

LabelMap::LabelMap(bool numeric_allowed, bool borrow_names)
    : numeric_(numeric_allowed), seed_(label_hash_seed()), borrow_(borrow_names) {
  slots_.assign(size_t{1} << kInitialLog2, Slot{0, kEmpty, 0, nullptr});
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

template <class IsLabel, class Store>
vertex_t LabelMap::find_or_insert(uint64_t key, const IsLabel& is_label, const Store& store) {
  for (;;) {
    const size_t mask = slots_.size() - 1;
    for (size_t i = slot_of(key);; i = (i + 1) & mask) {
      ++probes_;
      Slot& s = slots_[i];
      if (s.id == kEmpty) {
        if (count_ >= kMaxVertices) return kFull;
        if (2 * (count_ + 1) > slots_.size()) break;  // grow, then probe the new table
        s = Slot{key, static_cast<vertex_t>(count_), 0, nullptr};
        store(s);
        return static_cast<vertex_t>(count_++);
      }
      if (s.key == key && is_label(s)) return s.id;
    }
    grow();
  }
}

vertex_t LabelMap::intern_number(uint64_t value) {
  return find_or_insert(
      value, [](const Slot&) { return true; }, [&](Slot&) { numbers_.push_back(value); });
}

vertex_t LabelMap::intern_name(std::string_view label) {
  return intern_name(label, hash_label(label, seed_));
}

vertex_t LabelMap::intern_name(std::string_view label, uint64_t h) {
  return find_or_insert(
      h,
      [&](const Slot& s) {
        return s.name ? s.name_size == label.size() &&
                            std::memcmp(s.name, label.data(), label.size()) == 0
                      : name(s.id) == label;
      },
      [&](Slot& s) {
        if (!borrow_) {
          names_.emplace_back(label);
          return;
        }
        views_.push_back(label);
        if (label.size() < UINT32_MAX) {
          s.name_size = static_cast<uint32_t>(label.size());
          s.name = label.data();
        }
      });
}

void LabelMap::grow() {
  std::vector<Slot> old;
  reserve_huge(old, slots_.size() * 2);
  old.assign(slots_.size() * 2, Slot{0, kEmpty, 0, nullptr});
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
  for (uint64_t n : numbers_) {
    if (borrow_) {
      owned_.push_back(std::to_string(n));
      views_.push_back(owned_.back());
    } else {
      names_.push_back(std::to_string(n));
    }
  }
  numbers_ = {};
  std::fill(slots_.begin(), slots_.end(), Slot{0, kEmpty, 0, nullptr});
  const size_t mask = slots_.size() - 1;
  for (size_t id = 0; id < count_; ++id) {
    const uint64_t h = hash_label(name(static_cast<vertex_t>(id)), seed_);
    size_t i = slot_of(h);
    while (slots_[i].id != kEmpty) i = (i + 1) & mask;
    // Borrowed names of numbers live in owned_, a deque: their bytes never move.
    const std::string_view stored = name(static_cast<vertex_t>(id));
    slots_[i] = borrow_ ? Slot{h, static_cast<vertex_t>(id), static_cast<uint32_t>(stored.size()),
                               stored.data()}
                        : Slot{h, static_cast<vertex_t>(id), 0, nullptr};
  }
}

std::vector<uint64_t> LabelMap::hashes_by_id() const {
  std::vector<uint64_t> out(count_);
  for (const Slot& s : slots_)
    if (s.id != kEmpty) out[s.id] = s.key;
  return out;
}

VertexLabels LabelMap::take_labels() {
  slots_ = {};
  count_ = 0;
  if (numeric_) {
    VertexLabels::Numbers numbers(numbers_.begin(), numbers_.end());
    numbers_ = {};
    return VertexLabels::from_numbers(std::move(numbers));
  }
  if (borrow_) names_.assign(views_.begin(), views_.end());
  return VertexLabels(std::move(names_));
}

}  // namespace closure::detail
