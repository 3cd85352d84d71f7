// `closure bench index`: build time, size and query time of the reachability index, the
// share of queries answered without search, the speed-up over BFS, and a check of every
// sampled answer against BFS.
#pragma once

#include <cstdint>
#include <string>

#include "closure/graph/graph.hpp"

namespace closure {

struct IndexBenchOptions {
  size_t random_pairs = 1000000;
  size_t sources = 100;  // BFS sources for the reachable pairs and the check
  size_t reachable_pairs = 1000000;
  size_t checked_random_per_source = 1000;  // random targets per source, checked against BFS
  size_t bfs_queries = 1000;                // per-query BFS timed on this many pairs of each set
  int repeats = 3;                          // query timings: the median of this many passes
  uint64_t seed = 1;
  std::string index_dir;  // non-empty: write the file there and time the load
};

struct IndexBenchRow {
  std::string graph;
  size_t vertices = 0, edges = 0, components = 0;
  double build_s = 0, build_s_per_10m_edges = 0;
  double index_bytes_per_vertex = 0, graph_bytes_per_vertex = 0, file_bytes_per_vertex = 0;
  double write_s = 0, load_s = 0;
  double random_us = 0, random_without_search = 0, random_yes = 0;
  double reach_us = 0, reach_without_search = 0;
  double random_batch_us = 0, reach_batch_us = 0;  // Querier::reaches_many, per pair
  double bfs_random_us = 0, bfs_reach_us = 0;
  uint64_t checked = 0, mismatches = 0;
};

IndexBenchRow bench_index(const std::string& name, const Graph& g, const IndexBenchOptions& o);
std::string index_bench_header();
std::string format_index_bench_row(const IndexBenchRow& r);

}  // namespace closure
