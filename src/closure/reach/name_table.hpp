// The index's name table: input label -> vertex in about one cache miss, stored in the index
// file so that loading an index builds no table.
//
// Open addressing with linear probing over 64-bit slots: the low 32 bits hold vertex + 1 (0 =
// empty), the high 32 bits the top half of the label's hash as a tag, so a probe reads the
// label's bytes only when the tags agree. The hash is SipHash-1-3 (label_hash.hpp) keyed by a
// seed derived from the names themselves: files stay reproducible, and a set of names cannot
// be chosen to collide without knowing the key their own bytes produce. Replaced a binary
// search over the sorted names (20 string comparisons, most of them cache misses: most of
// a `query --pairs` run on a 1M-commit history, docs/benchmarks-queries.md).
#pragma once

#include <cstdint>
#include <optional>
#include <string_view>
#include <vector>

#include "closure/graph/graph.hpp"

namespace closure::reach {

// Slots for n names: the power of two at or above 4n/3 (load 3/8 to 3/4), at least 2, so
// there is always an empty slot to end a probe.
uint64_t name_slot_count(uint64_t names);

// The seed for names whose bytes, concatenated, are `label_bytes`.
uint64_t name_seed(std::string_view label_bytes);

// Vertex v is called label_bytes[label_offsets[v], label_offsets[v + 1]).
std::vector<uint64_t> build_name_slots(const uint64_t* label_offsets, const char* label_bytes,
                                       uint64_t names, uint64_t seed);

// A read-only view of a table (in a built index or one read from a file).
struct NameTable {
  const uint64_t* slots = nullptr;
  uint64_t slot_count = 0;  // a power of two
  uint64_t seed = 0;
  const uint64_t* label_offsets = nullptr;
  const char* label_bytes = nullptr;

  std::string_view name(uint32_t v) const {
    return {label_bytes + label_offsets[v], size_t(label_offsets[v + 1] - label_offsets[v])};
  }
  uint64_t hash(std::string_view label) const;
  // The label's first slot, to prefetch before find(label, hash) when looking up many.
  const uint64_t* first_slot(uint64_t hash) const { return slots + (hash & (slot_count - 1)); }
  // Later stages of that pipeline, once the slot (then the name's offsets) have arrived:
  // request the offsets, then the bytes, of the name the first slot holds if its tag agrees.
  void prefetch_offsets(uint64_t hash) const {
    if (const uint32_t v = tagged_vertex(hash); v != kNoVertex)
      __builtin_prefetch(label_offsets + v);
  }
  void prefetch_name(uint64_t hash) const {
    if (const uint32_t v = tagged_vertex(hash); v != kNoVertex)
      __builtin_prefetch(label_bytes + label_offsets[v]);
  }
  std::optional<vertex_t> find(std::string_view label, uint64_t hash) const;
  std::optional<vertex_t> find(std::string_view label) const { return find(label, hash(label)); }

 private:
  static constexpr uint32_t kNoVertex = ~uint32_t{0};
  uint32_t tagged_vertex(uint64_t hash) const {
    const uint64_t s = *first_slot(hash);
    return s != 0 && (s >> 32) == (hash >> 32) ? uint32_t(s) - 1 : kNoVertex;
  }
};

}  // namespace closure::reach
