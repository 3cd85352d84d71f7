// Graph: a directed graph in compressed sparse rows over dense vertex indices 0..n-1,
// with the labels the input used, so output can speak the input's language.
#pragma once

#include <cstdint>
#include <functional>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "closure/graph/vertex_labels.hpp"

namespace closure {

using vertex_t = uint32_t;
using Edge = std::pair<vertex_t, vertex_t>;

class Graph {
 public:
  Graph() = default;
  // Builds the CSR from an edge list over vertices 0..n-1; duplicate edges collapse and
  // each successor list is sorted. `labels` may be empty (labels are then "0".."n-1").
  Graph(size_t n, std::vector<Edge> edges, VertexLabels labels = {});
  // From rows already grouped by source: the successors of u are targets[offsets[u] ..
  // offsets[u+1]), in any order, duplicates allowed (each row is sorted and de-duplicated
  // here). Skips the edge list's counting sort when the caller has rows (a networkx
  // adjacency). Throws std::invalid_argument on bad offsets, std::out_of_range on a target
  // beyond n.
  static Graph from_rows(std::vector<uint64_t> offsets, std::vector<vertex_t> targets);
  // From edges given as interleaved (source, target) ids in blocks, in order (the edge-list
  // reader's chunks, renumbered in place): the graph of the edge-list constructor over the
  // blocks one after another, without an array of all the edges. Throws as it does.
  // `blocks_read`, if given, is called once the blocks are no longer read (the caller may
  // free them then, before the graph's own arrays are allocated).
  static Graph from_pair_blocks(size_t n, std::span<const std::span<const vertex_t>> pair_blocks,
                                VertexLabels labels = {},
                                const std::function<void()>& blocks_read = {});

  size_t vertex_count() const { return offsets_.empty() ? 0 : offsets_.size() - 1; }
  size_t edge_count() const { return targets_.size(); }
  std::span<const vertex_t> successors(vertex_t v) const {
    return {targets_.data() + offsets_[v], targets_.data() + offsets_[v + 1]};
  }
  std::span<const uint64_t> offsets() const { return offsets_; }
  std::span<const vertex_t> targets() const { return targets_; }
  // The input's label of vertex v.
  std::string label(vertex_t v) const { return labels_.empty() ? std::to_string(v) : labels_[v]; }
  // The input's labels: empty when the vertices are "0".."n-1".
  const VertexLabels& labels() const { return labels_; }
  // The vertex with the input's label `label` (label(v) == label), or none; the first such
  // vertex should two share it (the readers give every vertex its own). A scan of the
  // labels, O(n) a call: for many look-ups, build a map from labels() once.
  std::optional<vertex_t> find(std::string_view label) const;
  std::vector<Edge> edges() const;
  bool has_self_loop() const;

 private:
  std::vector<uint64_t> offsets_;  // n + 1 entries
  std::vector<vertex_t> targets_;  // sorted and unique within each vertex
  VertexLabels labels_;

  // Sorts and de-duplicates each row of offsets_/targets_ in place.
  void normalise_rows();
  // Takes the labels (checked against n) and zeroes the n + 1 row offsets.
  void start(size_t n, VertexLabels labels);
  // The parallel CSR build over edge blocks (graph.cpp), then close_gaps.
  template <class Blocks>
  void build_bucketed(size_t n, const Blocks& blocks, size_t m);
  // Moves the rows down over what de-duplication dropped: row u keeps its first kept[u]
  // targets; offsets_ then describe the packed rows.
  void close_gaps(const uint64_t* kept);
};

}  // namespace closure
