// The reachability-index benchmark.
#include "bench/index_bench.hpp"

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <memory>
#include <random>

#include "closure/reach/index_file.hpp"
#include "closure/reach/reach_index.hpp"

namespace closure {
namespace {

using Clock = std::chrono::steady_clock;
double since(Clock::time_point t0) {
  return std::chrono::duration<double>(Clock::now() - t0).count();
}

// Plain BFS on the input graph with a reusable stamp array: the per-query baseline.
class Bfs {
 public:
  explicit Bfs(const Graph& g) : g_(g), stamp_(g.vertex_count(), 0) {}
  // Strict: stops as soon as v is reached by one or more edges.
  bool reaches(vertex_t u, vertex_t v) {
    ++epoch_;
    queue_.clear();
    queue_.push_back(u);
    for (size_t h = 0; h < queue_.size(); ++h)
      for (vertex_t w : g_.successors(queue_[h])) {
        if (w == v) return true;
        if (stamp_[w] != epoch_) stamp_[w] = epoch_, queue_.push_back(w);
      }
    return false;
  }
  // Everything u reaches (strict), as a stamp: reached(w) afterwards.
  void all_from(vertex_t u) {
    ++epoch_;
    queue_.clear();
    for (vertex_t w : g_.successors(u))
      if (stamp_[w] != epoch_) stamp_[w] = epoch_, queue_.push_back(w);
    for (size_t h = 0; h < queue_.size(); ++h)
      for (vertex_t w : g_.successors(queue_[h]))
        if (stamp_[w] != epoch_) stamp_[w] = epoch_, queue_.push_back(w);
  }
  bool reached(vertex_t w) const { return stamp_[w] == epoch_; }
  const std::vector<vertex_t>& visited() const { return queue_; }

 private:
  const Graph& g_;
  std::vector<uint32_t> stamp_;
  uint32_t epoch_ = 0;
  std::vector<vertex_t> queue_;
};

struct Timing {
  double us = 0, without_search = 0, yes = 0, batch_us = 0;
};

Timing time_queries(reach::Querier& q, const std::vector<Edge>& pairs, int repeats) {
  std::vector<double> runs;
  Timing t;
  size_t lone_yes = 0;
  for (int r = 0; r < std::max(1, repeats); ++r) {
    q.reset_stats();
    size_t yes = 0;
    const auto t0 = Clock::now();
    for (const auto& [u, v] : pairs) yes += q.reaches(u, v);
    runs.push_back(since(t0));
    t.yes = pairs.empty() ? 0 : double(yes) / double(pairs.size());
    lone_yes = yes;
  }
  std::sort(runs.begin(), runs.end());
  t.us = pairs.empty() ? 0 : runs[runs.size() / 2] / double(pairs.size()) * 1e6;
  t.without_search =
      q.stats().queries ? double(q.stats().without_search()) / double(q.stats().queries) : 0;
  // Which filter decided, for tuning the labels (stderr, beside the build's breakdown),
  // counted outside the timing.
  reach::QueryStats st;
  for (const auto& [u, v] : pairs) q.tally(u, v, st);
  st.search_visits = q.stats().search_visits;
  std::fprintf(stderr,
               "bench index: %llu queries: same component %llu, intervals no %llu / yes %llu, "
               "supportive %llu, Bloom %llu, searched %llu (%.1f components visited each)\n",
               (unsigned long long)st.queries, (unsigned long long)st.same_component,
               (unsigned long long)st.negative_cut, (unsigned long long)st.positive_cut,
               (unsigned long long)st.supportive, (unsigned long long)st.bloom,
               (unsigned long long)st.searched,
               st.searched ? double(st.search_visits) / double(st.searched) : 0.0);
  // The same pairs as one batch (reaches_many), checked against the lone answers.
  std::vector<vertex_t> us(pairs.size()), vs(pairs.size());
  for (size_t i = 0; i < pairs.size(); ++i) us[i] = pairs[i].first, vs[i] = pairs[i].second;
  std::unique_ptr<bool[]> batch(new bool[pairs.size() + 1]);
  std::vector<double> batch_runs;
  for (int r = 0; r < std::max(1, repeats); ++r) {
    const auto t0 = Clock::now();
    q.reaches_many(us.data(), vs.data(), pairs.size(), batch.get());
    batch_runs.push_back(since(t0));
  }
  std::sort(batch_runs.begin(), batch_runs.end());
  t.batch_us = pairs.empty() ? 0 : batch_runs[batch_runs.size() / 2] / double(pairs.size()) * 1e6;
  size_t yes = 0;
  for (size_t i = 0; i < pairs.size(); ++i) yes += batch[i];
  if (yes != lone_yes)
    std::fprintf(stderr, "bench index: the batch answered %zu yes, the lone queries %zu\n", yes,
                 lone_yes);
  return t;
}

double time_bfs(Bfs& bfs, const std::vector<Edge>& pairs, size_t count) {
  count = std::min(count, pairs.size());
  if (!count) return 0;
  const auto t0 = Clock::now();
  size_t yes = 0;
  for (size_t i = 0; i < count; ++i) yes += bfs.reaches(pairs[i].first, pairs[i].second);
  const double s = since(t0);
  if (yes > count) std::printf("impossible\n");  // keeps the loop from being optimised out
  return s / double(count) * 1e6;
}

// Builds the index (timed, with its stages on stderr) and, with an index folder, writes
// and maps it back as `closure serve` would; fills the row's build and size columns.
std::unique_ptr<reach::ReachIndex> build_for_bench(const std::string& name, const Graph& g,
                                                   const IndexBenchOptions& o, IndexBenchRow& row) {
  const size_t n = g.vertex_count();
  auto t0 = Clock::now();
  reach::BuildReport report;
  reach::IndexData data = reach::build_index(g, {}, &report);
  row.build_s = since(t0);
  std::fprintf(
      stderr,
      "bench index: %s built in %.2f s (SCC %.2f, condensation %.2f, labels %.2f, names %.2f)\n",
      name.c_str(), row.build_s, report.scc_s, report.condense_s, report.labels_s, report.names_s);
  row.build_s_per_10m_edges = row.edges ? row.build_s / (double(row.edges) / 1e7) : 0;
  row.components = data.labels.size();
  std::unique_ptr<reach::ReachIndex> index;
  const uint64_t file_bytes = reach::index_file_bytes(data);
  if (!o.index_dir.empty()) {
    const std::string path = o.index_dir + "/bench.idx";
    t0 = Clock::now();
    reach::write_index(path, data);
    row.write_s = since(t0);
    data = {};
    t0 = Clock::now();
    index = reach::load_index(path);
    row.load_s = since(t0);
  } else {
    index = std::make_unique<reach::ReachIndex>(std::move(data));
  }
  row.index_bytes_per_vertex = n ? double(index->label_bytes()) / double(n) : 0;
  row.graph_bytes_per_vertex = n ? double(index->graph_bytes()) / double(n) : 0;
  row.file_bytes_per_vertex = n ? double(file_bytes) / double(n) : 0;
  return index;
}

// Reachable pairs: BFS from random sources that have a successor, targets drawn
// uniformly from what each reaches. The same BFS checks random targets too (counted in
// the row). Shuffled, so that the timing does not walk the sources in order.
std::vector<Edge> reachable_pairs(const Graph& g, const IndexBenchOptions& o, std::mt19937_64& rng,
                                  std::uniform_int_distribution<vertex_t>& any, Bfs& bfs,
                                  reach::Querier& q, IndexBenchRow& row) {
  std::vector<Edge> reach_pairs;
  const size_t per_source = (o.reachable_pairs + o.sources - 1) / std::max<size_t>(o.sources, 1);
  size_t attempts = 0;
  for (size_t s = 0; s < o.sources && attempts < 100 * o.sources + 1000; ++attempts) {
    const vertex_t u = any(rng);
    if (g.successors(u).empty()) continue;
    ++s;
    bfs.all_from(u);
    const auto& seen = bfs.visited();
    std::uniform_int_distribution<size_t> pick(0, seen.size() - 1);
    for (size_t k = 0; k < per_source && reach_pairs.size() < o.reachable_pairs; ++k)
      reach_pairs.emplace_back(u, seen[pick(rng)]);
    for (size_t k = 0; k < o.checked_random_per_source; ++k) {
      const vertex_t v = any(rng);
      ++row.checked;
      if (q.reaches(u, v) != bfs.reached(v)) ++row.mismatches;
    }
  }
  // Every reachable pair is a BFS answer too ("yes"); they are checked by the timing
  // pass (time_all).
  std::shuffle(reach_pairs.begin(), reach_pairs.end(), rng);
  return reach_pairs;
}

// The timed columns: the index on random and on reachable pairs, then BFS on both; every
// reachable pair is checked to be answered yes.
void time_all(reach::Querier& q, Bfs& bfs, const std::vector<Edge>& random_pairs,
              const std::vector<Edge>& reach_pairs, const IndexBenchOptions& o,
              IndexBenchRow& row) {
  const Timing tr = time_queries(q, random_pairs, o.repeats);
  row.random_us = tr.us;
  row.random_without_search = tr.without_search;
  row.random_yes = tr.yes;
  row.random_batch_us = tr.batch_us;
  const Timing tp = time_queries(q, reach_pairs, o.repeats);
  row.reach_us = tp.us;
  row.reach_without_search = tp.without_search;
  row.reach_batch_us = tp.batch_us;
  for (const auto& [u, v] : reach_pairs) {
    ++row.checked;
    if (!q.reaches(u, v)) ++row.mismatches;
  }
  row.bfs_random_us = time_bfs(bfs, random_pairs, o.bfs_queries);
  row.bfs_reach_us = time_bfs(bfs, reach_pairs, o.bfs_queries);
}

}  // namespace

IndexBenchRow bench_index(const std::string& name, const Graph& g, const IndexBenchOptions& o) {
  IndexBenchRow row;
  row.graph = name;
  row.vertices = g.vertex_count();
  row.edges = g.edge_count();
  const size_t n = g.vertex_count();
  const std::unique_ptr<reach::ReachIndex> index = build_for_bench(name, g, o, row);
  if (n == 0) return row;

  std::mt19937_64 rng(o.seed);
  std::uniform_int_distribution<vertex_t> any(0, vertex_t(n - 1));
  std::vector<Edge> random_pairs(o.random_pairs);
  for (auto& p : random_pairs) p = {any(rng), any(rng)};
  Bfs bfs(g);
  reach::Querier q(*index);
  const std::vector<Edge> reach_pairs = reachable_pairs(g, o, rng, any, bfs, q, row);
  time_all(q, bfs, random_pairs, reach_pairs, o, row);
  return row;
}

std::string index_bench_header() {
  return "| graph | n | m | SCCs | build s | s/10M edges | index B/v | graph B/v | file B/v | "
         "random µs | random µs batched | random no-search | random yes | reachable µs | "
         "reachable µs batched | reachable no-search | "
         "BFS random µs | BFS reachable µs | speed-up random | speed-up reachable | checked vs "
         "BFS | mismatches |\n"
         "| --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | "
         "---: | "
         "---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: |\n";
}

std::string format_index_bench_row(const IndexBenchRow& r) {
  char buf[1024];
  auto ratio = [](double a, double b) { return b > 0 ? a / b : 0.0; };
  std::snprintf(
      buf, sizeof buf,
      "| %s | %zu | %zu | %zu | %.2f | %.2f | %.1f | %.1f | %.1f | %.3f | %.3f | %.1f%% | "
      "%.1f%% | %.3f | %.3f | %.1f%% | %.1f | %.1f | %.0fx | %.0fx | %llu | %llu |\n",
      r.graph.c_str(), r.vertices, r.edges, r.components, r.build_s, r.build_s_per_10m_edges,
      r.index_bytes_per_vertex, r.graph_bytes_per_vertex, r.file_bytes_per_vertex, r.random_us,
      r.random_batch_us, 100 * r.random_without_search, 100 * r.random_yes, r.reach_us,
      r.reach_batch_us, 100 * r.reach_without_search, r.bfs_random_us, r.bfs_reach_us,
      ratio(r.bfs_random_us, r.random_us), ratio(r.bfs_reach_us, r.reach_us),
      (unsigned long long)r.checked, (unsigned long long)r.mismatches);
  return buf;
}

}  // namespace closure
