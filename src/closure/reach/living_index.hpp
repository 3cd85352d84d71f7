// A living index: a reachability index that grows. A base ReachIndex (built or loaded,
// never changed) and an upper IndexLayer of appended vertices and edges. Answers equal
// those of an index rebuilt from the base's graph plus every appended edge.
//
// What an appended edge (u, v) costs (docs/architecture.md):
//   - u new (not in the base), v old or new: the commit and release pattern. The edge goes
//     into the layer: O(1) plus the label lookups. Queries from a layer vertex search the
//     layer from it, then ask the base from the old vertices the search meets.
//   - u old and u already reaches v in the base: nothing changes (reachability is closed).
//   - any other edge from an old vertex: may connect old vertices anew or merge components,
//     so the base is rebuilt from its condensation (one edge per component link, a cycle
//     per cyclic component: the same reachability in O(components + condensation edges))
//     plus the layer and the new edges. So is the layer once it outgrows
//     AppendOptions::merge_fraction of the base, as git merges its commit-graph layers.
#pragma once

#include <cstdint>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "closure/reach/index_layer.hpp"
#include "closure/reach/reach_index.hpp"

namespace closure::reach {

// BuildOptions::supportive of a rebuild that keeps the base's count (what a file's index was
// built with), the default of every append and merge: an index built with --supportive 5
// stays so through appends, whichever entry point made them.
inline constexpr uint32_t kBaseSupportive = UINT32_MAX;
inline BuildOptions keeping_base_supportive() {
  BuildOptions o;
  o.supportive = kBaseSupportive;
  return o;
}

struct AppendOptions {
  // The layer is merged into a rebuilt base once its vertices and edges exceed this share
  // of the base's vertices (and merge_minimum): it bounds what a query from the layer
  // searches.
  double merge_fraction = 1.0 / 16;
  uint64_t merge_minimum = 4096;
  BuildOptions build = keeping_base_supportive();
};

struct AppendReport {
  uint64_t edges_given = 0, new_vertices = 0, layer_edges = 0, already_implied = 0;
  bool rebuilt = false;
  const char* why_rebuilt = "";  // "an edge from an old vertex", "the layer grew", ""
};

// Members per component and the reversed condensation: what descendants() and ancestors()
// walk, built once per base on first use and shared by every snapshot over that base.
struct BaseWalk {
  std::vector<uint32_t> member_offsets, members;  // components + 1; vertices
  std::vector<uint32_t> pred_offsets, preds;      // reversed condensation
};

class LivingIndex {
 public:
  // The base alone, or with the layer its file held (`layer` from decode_layer; its names
  // are checked against the base's here: throws IndexFileError naming `file`).
  explicit LivingIndex(std::shared_ptr<const ReachIndex> base, IndexLayer layer = {},
                       const std::string& file = "<memory>");

  const ReachIndex& base() const { return *base_; }
  const std::shared_ptr<const ReachIndex>& base_shared() const { return base_; }
  const IndexLayer& layer() const { return layer_; }
  uint64_t vertex_count() const { return base_->vertex_count() + layer_.vertex_count(); }
  uint64_t edge_count_in_layer() const { return layer_.edges; }
  std::optional<vertex_t> find(std::string_view label) const;
  std::string label(vertex_t v) const;

  // Adds the edges (by label; unknown labels become new vertices). All or nothing: on an
  // exception (out of memory while rebuilding) the index is as it was.
  AppendReport add_edges(const std::vector<std::pair<std::string, std::string>>& edges,
                         const AppendOptions& options = {});
  // Adds the labels not yet known as vertices without edges.
  void add_vertices(const std::vector<std::string>& labels);
  // Folds the layer into a rebuilt base now (the file then holds a plain index).
  void merge(const BuildOptions& options = keeping_base_supportive());
  // Writes base + layer through AtomicFile; returns the bytes written. Time proportional to
  // the file: the base's arrays are copied, not rebuilt.
  uint64_t write(const std::string& path) const;
  const BaseWalk& walk() const;

 private:
  void rebuild(const std::vector<Edge>& old_edges, const BuildOptions& options);
  std::shared_ptr<const ReachIndex> base_;
  IndexLayer layer_;
  struct WalkCache {
    std::once_flag once;
    BaseWalk walk;
  };
  std::shared_ptr<WalkCache> walk_ = std::make_shared<WalkCache>();
};

// Answers on one LivingIndex (one per thread: it owns the scratch space of both levels).
class LivingQuerier {
 public:
  explicit LivingQuerier(const LivingIndex& index);
  // Strict semantics, as Querier: u reaches u only on a cycle.
  bool reaches(vertex_t u, vertex_t v);
  // out[i] = reaches(us[i], vs[i]); pairs of base vertices go through the base's pipelined
  // batch.
  void reaches_many(const vertex_t* us, const vertex_t* vs, size_t n, bool* out);
  // Every vertex u reaches (resp. that reaches v), ascending; strict like reaches().
  std::vector<vertex_t> descendants(vertex_t u);
  std::vector<vertex_t> ancestors(vertex_t v);
  // Moves to another index over the same base (the service's next snapshot after an
  // append into the layer), keeping the base's scratch space; false if the base differs.
  bool rebind(const LivingIndex& next);
  Querier& base() { return base_; }
  const Querier& base() const { return base_; }

 private:
  // Marks the layer vertices reachable from layer vertex u by one edge or more; returns
  // the base vertices their edges lead to.
  const std::vector<vertex_t>& search_layer(vertex_t u);
  const LivingIndex* index_;
  Querier base_;
  std::vector<uint32_t> layer_stamp_;
  uint32_t epoch_ = 0;
  std::vector<vertex_t> stack_, exits_;
};

}  // namespace closure::reach
