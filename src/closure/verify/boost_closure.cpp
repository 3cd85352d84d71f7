// Boost.Graph reference closure, its memory estimate, and the full/sampled verification.
#include "closure/verify/boost_closure.hpp"

#include <algorithm>
#include <boost/graph/adjacency_list.hpp>
#include <boost/graph/breadth_first_search.hpp>
#include <boost/graph/strong_components.hpp>
#include <boost/graph/topological_sort.hpp>
#include <boost/graph/transitive_closure.hpp>
#include <boost/pending/queue.hpp>
#include <numeric>
#include <random>
#include <stdexcept>

#include "closure/errors.hpp"
#include "closure/util/available_memory.hpp"

namespace closure {

namespace {

using BoostGraph = boost::adjacency_list<boost::vecS, boost::vecS, boost::directedS>;
using BoostVertex = boost::graph_traits<BoostGraph>::vertex_descriptor;

BoostGraph to_boost(const Graph& g) {
  BoostGraph bg(g.vertex_count());
  for (vertex_t u = 0; u < g.vertex_count(); ++u)
    for (vertex_t v : g.successors(u)) boost::add_edge(u, v, bg);
  return bg;
}

// Boost's closure, one sorted duplicate-free successor list per vertex.
std::vector<std::vector<vertex_t>> boost_rows(const Graph& g) {
  const BoostGraph bg = to_boost(g);
  BoostGraph tc;
  boost::transitive_closure(bg, tc);
  std::vector<std::vector<vertex_t>> rows(g.vertex_count());
  // transitive_closure adds the closure's vertices in g's order, so ids coincide.
  for (vertex_t u = 0; u < g.vertex_count(); ++u) {
    auto [first, last] = boost::adjacent_vertices(u, tc);
    rows[u].assign(first, last);
    std::sort(rows[u].begin(), rows[u].end());
    rows[u].erase(std::unique(rows[u].begin(), rows[u].end()), rows[u].end());
  }
  return rows;
}

// Appends "u -> v: missing/extra" lines (in the input's labels) for the difference of two
// sorted lists, up to the report's limit; returns whether they were equal.
bool compare_row(const Graph& g, vertex_t u, const std::vector<vertex_t>& expected,
                 const std::vector<vertex_t>& actual, VerifyReport& report) {
  constexpr size_t kLimit = 10;
  if (expected == actual) return true;
  size_t i = 0, j = 0;
  auto note = [&](vertex_t v, const char* what) {
    if (report.first_mismatches.size() < kLimit)
      report.first_mismatches.push_back(g.label(u) + " -> " + g.label(v) + ": " + what);
  };
  while (i < expected.size() || j < actual.size()) {
    if (j == actual.size() || (i < expected.size() && expected[i] < actual[j])) {
      note(expected[i++], "missing");
    } else if (i == expected.size() || actual[j] < expected[i]) {
      note(actual[j++], "extra");
    } else {
      ++i, ++j;
    }
  }
  return false;
}

}  // namespace

std::vector<Edge> boost_closure_pairs(const Graph& g) {
  std::vector<Edge> out;
  const auto rows = boost_rows(g);
  for (vertex_t u = 0; u < rows.size(); ++u)
    for (vertex_t v : rows[u]) out.emplace_back(u, v);
  return out;
}

Closure boost_closure(const Graph& g) {
  const auto rows = boost_rows(g);
  const size_t n = g.vertex_count();
  std::vector<vertex_t> identity(n);
  std::iota(identity.begin(), identity.end(), vertex_t{0});
  std::vector<uint8_t> cyclic(n, 0);
  std::vector<uint64_t> offsets{0};
  std::vector<vertex_t> targets;
  for (vertex_t u = 0; u < n; ++u) {
    for (vertex_t v : rows[u]) {
      if (v == u)
        cyclic[u] = 1;
      else
        targets.push_back(v);
    }
    offsets.push_back(targets.size());
  }
  return Closure::from_sparse(std::move(identity), std::move(cyclic), std::move(offsets),
                              std::move(targets));
}

BoostEstimate estimate_boost_closure(const Graph& g, uint64_t closure_pairs) {
  // Replays transitive_closure.hpp up to its chain decomposition, with the same calls,
  // so the chain count (which sizes its components x chains table) is Boost's own.
  const BoostGraph bg = to_boost(g);
  const size_t n = g.vertex_count();
  BoostEstimate est;
  if (n == 0) return est;
  std::vector<size_t> comp(n);
  const size_t num_scc = boost::strong_components(
      bg, boost::make_iterator_property_map(comp.begin(), boost::get(boost::vertex_index, bg)));
  std::vector<std::vector<size_t>> cg(num_scc);
  for (vertex_t u = 0; u < n; ++u)
    for (vertex_t v : g.successors(u))
      if (comp[u] != comp[v]) cg[comp[u]].push_back(comp[v]);
  BoostGraph cgraph(num_scc);
  for (size_t s = 0; s < num_scc; ++s) {
    std::sort(cg[s].begin(), cg[s].end());
    cg[s].erase(std::unique(cg[s].begin(), cg[s].end()), cg[s].end());
    for (size_t t : cg[s]) boost::add_edge(s, t, cgraph);
  }
  std::vector<size_t> topo_order;
  boost::topological_sort(cgraph, std::back_inserter(topo_order),
                          boost::vertex_index_map(boost::identity_property_map()));
  std::reverse(topo_order.begin(), topo_order.end());
  std::vector<size_t> topo_number(num_scc);
  for (size_t i = 0; i < num_scc; ++i) topo_number[topo_order[i]] = i;
  for (size_t s = 0; s < num_scc; ++s) {
    // Boost takes the adjacency in cgraph's order, then sorts by topological number.
    std::sort(cg[s].begin(), cg[s].end(),
              [&](size_t a, size_t b) { return topo_number[a] < topo_number[b]; });
  }
  std::vector<uint8_t> in_chain(num_scc, 0);
  size_t chains = 0;
  for (size_t v0 : topo_order) {
    if (in_chain[v0]) continue;
    ++chains;
    for (size_t v = v0;;) {
      in_chain[v] = 1;
      auto next = std::find_if(cg[v].begin(), cg[v].end(), [&](size_t w) { return !in_chain[w]; });
      if (next == cg[v].end()) break;
      v = *next;
    }
  }
  est.components = num_scc;
  est.chains = chains;
  est.closure_pairs = closure_pairs;
  const uint64_t m = g.edge_count();
  // Unknown closure size: assume the worst a graph of this shape can give.
  const uint64_t pairs = closure_pairs ? closure_pairs : uint64_t(n) * n;
  const uint64_t table = uint64_t(num_scc) * (chains * sizeof(size_t) + 24);
  const uint64_t graphs = 2 * (uint64_t(n) * 32 + m * 12);  // the input copy and its CG
  const uint64_t component_lists = uint64_t(n) * 8 + uint64_t(num_scc) * 48;
  // The closure graph plus the component-level successor lists it is built from:
  // 64 bytes per pair, measured (peak RSS minus the table: 51-64 bytes per pair on kegg,
  // amaze, arXiv, ba10k5d and a 10,000-vertex 10% DAG), well above the 8-byte target an
  // out-edge stores: vector growth, and an edge record plus list entry per pair.
  const uint64_t closure_graph = pairs * 64 + uint64_t(n) * 32;
  est.bytes = table + graphs + component_lists + closure_graph;
  return est;
}

std::string_view verdict_name(Verdict v) {
  switch (v) {
    case Verdict::kMatch:
      return "MATCH";
    case Verdict::kMismatch:
      return "MISMATCH";
    case Verdict::kInconclusive:
      return "INCONCLUSIVE";
  }
  return "?";
}

namespace {

// Which vertices a sampled verification searches from; chosen apart from the comparison so
// that the sample is fixed by the seed alone.
struct SourceSample {
  std::vector<uint8_t> is_source;  // per vertex
  size_t candidates = 0, chosen = 0;
  bool exhaustive = false;  // every candidate chosen
};

// Sources among the vertices with an out-edge: a sink reaches nothing, so a sample of
// sinks (most of a sparse DAG's vertices) would compare no pairs at all. Every sink is
// checked by verify_sampled instead, which is cheap: its row must be empty.
SourceSample choose_sources(const Graph& g, size_t sample_sources, uint64_t seed) {
  const size_t n = g.vertex_count();
  std::vector<vertex_t> sources;
  for (vertex_t v = 0; v < n; ++v)
    if (!g.successors(v).empty()) sources.push_back(v);
  SourceSample sample;
  sample.candidates = sources.size();
  sample.exhaustive = sample_sources >= sample.candidates;
  if (!sample.exhaustive) {
    // Partial Fisher-Yates: the first k entries become a uniform sample, fixed by seed.
    std::mt19937_64 rng(seed);
    for (size_t i = 0; i < sample_sources; ++i) {
      std::uniform_int_distribution<size_t> pick(i, sample.candidates - 1);
      std::swap(sources[i], sources[pick(rng)]);
    }
    sources.resize(sample_sources);
  }
  sample.chosen = sources.size();
  sample.is_source.assign(n, 0);
  for (vertex_t s : sources) sample.is_source[s] = 1;
  return sample;
}

// One source's reach set by Boost's BFS at a time; a class so that the colours, the queue
// and the list of reached vertices are allocated once for all sources.
class BoostReach {
 public:
  explicit BoostReach(const Graph& g)
      : bg_(to_boost(g)), color_(g.vertex_count(), boost::white_color) {}

  // The sorted reach set of s, s included only if a cycle leads back to it.
  const std::vector<vertex_t>& row(vertex_t s) {
    auto color_map =
        boost::make_iterator_property_map(color_.begin(), boost::get(boost::vertex_index, bg_));
    reached_.clear();
    bool self = false;
    Visitor vis;
    vis.source = s;
    vis.self = &self;
    vis.reached = &reached_;
    // breadth_first_visit does not re-whiten all n colours per source; only the
    // vertices this search touched are reset below.
    boost::breadth_first_visit(bg_, s, queue_, vis, color_map);
    color_[s] = boost::white_color;
    for (vertex_t v : reached_) color_[v] = boost::white_color;
    if (self) reached_.push_back(s);
    std::sort(reached_.begin(), reached_.end());
    return reached_;
  }

 private:
  struct Visitor : boost::default_bfs_visitor {
    vertex_t source;
    bool* self;
    std::vector<vertex_t>* reached;
    void discover_vertex(BoostVertex v, const BoostGraph&) const {
      if (v != source) reached->push_back(vertex_t(v));
    }
    // Strict semantics: the source is in its own reach set only if an edge leads back.
    void examine_edge(boost::graph_traits<BoostGraph>::edge_descriptor e,
                      const BoostGraph& graph) const {
      if (boost::target(e, graph) == source) *self = true;
    }
  };

  const BoostGraph bg_;
  std::vector<boost::default_color_type> color_;
  std::vector<vertex_t> reached_;
  boost::queue<BoostVertex> queue_;
};

}  // namespace

VerifyReport verify_sampled(const Graph& g, const Closure& c, size_t sample_sources,
                            uint64_t seed) {
  if (sample_sources == 0) throw UsageError("a sampled verification needs at least one source");
  const size_t n = g.vertex_count();
  VerifyReport report;
  if (c.vertex_count() != n) {
    report.mode = "sampled";
    report.first_mismatches.push_back("vertex count " + std::to_string(c.vertex_count()) +
                                      ", expected " + std::to_string(n));
    return report;
  }
  const SourceSample sample = choose_sources(g, sample_sources, seed);
  report.mode = sample.exhaustive ? "sampled all " + std::to_string(sample.candidates) + " sources"
                                  : "sampled " + std::to_string(sample.chosen) + " of " +
                                        std::to_string(sample.candidates) + " sources";
  BoostReach boost_reach(g);
  std::vector<vertex_t> actual;
  bool all_match = true;
  // In vertex order, so that mismatches come out in (u, v) order.
  for (vertex_t s = 0; s < n; ++s) {
    if (!sample.is_source[s]) {
      if (!g.successors(s).empty()) continue;  // not sampled
      c.successors(s, actual);                 // a sink: its row must be empty
      report.actual_pairs += actual.size();
      all_match &= compare_row(g, s, {}, actual, report);
      continue;
    }
    const std::vector<vertex_t>& reached = boost_reach.row(s);
    c.successors(s, actual);
    report.expected_pairs += reached.size();
    report.actual_pairs += actual.size();
    all_match &= compare_row(g, s, reached, actual, report);
  }
  // Too few pairs compared by a partial sample vouch for nothing; an exhaustive one
  // compared every row there is.
  report.inconclusive = all_match && !sample.exhaustive && report.expected_pairs < kMinSampledPairs;
  report.match = all_match && !report.inconclusive;
  return report;
}

namespace {

VerifyReport verify_full(const Graph& g, const Closure& c) {
  VerifyReport report;
  report.mode = "full";
  const size_t n = g.vertex_count();
  if (c.vertex_count() != n) {
    report.first_mismatches.push_back("vertex count " + std::to_string(c.vertex_count()) +
                                      ", expected " + std::to_string(n));
    return report;
  }
  const auto rows = boost_rows(g);
  bool all_match = true;
  std::vector<vertex_t> actual;
  for (vertex_t u = 0; u < n; ++u) {
    c.successors(u, actual);
    report.expected_pairs += rows[u].size();
    all_match &= compare_row(g, u, rows[u], actual, report);
  }
  report.actual_pairs = c.pair_count();
  report.match = all_match && report.expected_pairs == report.actual_pairs;
  return report;
}

}  // namespace

VerifyReport verify_against_boost(const Graph& g, const Closure& c, size_t memory_budget_bytes,
                                  size_t sample_sources, uint64_t seed) {
  if (sample_sources == 0) throw UsageError("a sampled verification needs at least one source");
  // The budget cannot exceed what this process may still allocate (ulimit, cgroup):
  // checked against physical memory alone, Boost's closure ended in std::bad_alloc.
  const size_t available = available_host_memory();
  const size_t budget = std::min(memory_budget_bytes, available / 10 * 8);
  std::string note;
  try {
    const BoostEstimate est = estimate_boost_closure(g, c.pair_count());
    if (est.bytes <= budget) {
      try {
        VerifyReport report = verify_full(g, c);
        report.estimate_bytes = est.bytes;
        return report;
      } catch (const std::bad_alloc&) {
        // The estimate was short of the truth; the sampled check needs far less.
        note = "Boost.Graph's full closure ran out of memory";
      }
    } else if (budget < memory_budget_bytes) {
      note = "Boost.Graph's closure needs about " + format_bytes(double(est.bytes)) + "; " +
             format_bytes(double(available)) + " can still be allocated";
    }
    VerifyReport report = verify_sampled(g, c, sample_sources, seed);
    report.estimate_bytes = est.bytes;
    report.note = note;
    return report;
  } catch (const std::bad_alloc&) {
    throw OutOfMemoryError("verification ran out of memory even for the sampled check (" +
                               format_bytes(double(available)) +
                               " could be allocated when it started)",
                           Advice::kFewerSources);
  }
}

}  // namespace closure
