// The upper layer of a living index (living_index.hpp): the vertices and edges appended
// since its base index was built, kept apart so that an append costs what it touches.
// Every layer edge leaves a layer vertex (the commit and release pattern: a new vertex
// points at old ones or at other new ones), so no base vertex reaches a layer vertex and
// the base's answers stay exact; an edge from a base vertex is folded in by rebuilding the
// base instead (LivingIndex::add_edges).
//
// In an index file the layer follows the base's sections (index_file.hpp):
//   uint64 new_vertices, edges, label_bytes, 0
//   uint64 label_offsets[new_vertices + 1]
//   uint32 (source, target) pairs[edges], padded to 8 bytes
//   label bytes, padded to 8 bytes
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

#include "closure/graph/graph.hpp"
#include "closure/graph/label_hash.hpp"

namespace closure::reach {

// A keyed string hash for the layer's names: labels come from clients of `closure serve`,
// so a fixed hash would let them choose labels that share one bucket.
struct LayerNameHash {
  size_t operator()(std::string_view s) const {
    return size_t(detail::hash_label(s, detail::label_hash_seed()));
  }
  using is_transparent = void;
};

struct IndexLayer {
  uint64_t base_vertices = 0;
  std::vector<std::string> names;                 // layer vertex base_vertices + i
  std::vector<std::vector<vertex_t>> successors;  // per layer vertex, without duplicates
  uint64_t edges = 0;
  std::unordered_map<std::string, vertex_t, LayerNameHash, std::equal_to<>> ids;

  uint64_t vertex_count() const { return names.size(); }
  bool empty() const { return names.empty(); }
  bool holds(vertex_t v) const { return v >= base_vertices; }
  std::optional<vertex_t> find(std::string_view label) const;
  // A new layer vertex named `label` (not yet known anywhere).
  vertex_t add_vertex(std::string label);
  // Adds u -> v (u a layer vertex); false when the layer already has it.
  bool add_edge(vertex_t u, vertex_t v);
  const std::vector<vertex_t>& successors_of(vertex_t u) const {
    return successors[u - base_vertices];
  }
};

// The file section for `layer` (8-aligned; empty for an empty layer).
std::string encode_layer(const IndexLayer& layer);
// The layer of a file's section, every id and offset checked; throws IndexFileError naming
// `file`. Names are checked against each other here, against the base's by LivingIndex.
IndexLayer decode_layer(const unsigned char* bytes, uint64_t size, uint64_t base_vertices,
                        const std::string& file);

}  // namespace closure::reach
