// Times closure's reachability index against O'Reach (Hanauer, Schulz, Trummer: "O'Reach:
// Even Faster Reachability in Large Graphs", SEA 2021) on the same query pairs, in one
// process, the two interleaved round by round; prints the median ns per query of each and
// checks that every answer agrees. O'Reach's code is not part of this project: build this
// file with tools/bench-oreach.sh OREACH_SRC_DIR, which compiles it against a checkout of
// O'Reach's public repository.
//
//   oreach_harness [--pairs N] [--rounds R] [--seed S] GRAPH...
//
// O'Reach answers on a DAG. A DAG input is given to it as it is (the same vertex ids);
// any other graph is given as closure's condensation, and O'Reach then answers the pairs
// already mapped to components (the mapping is not timed for O'Reach, but is for closure,
// which answers on vertices). Semantics: closure's are strict (u reaches u only on a
// cycle); O'Reach says yes for s == t, so the check compares such pairs with the
// component's cyclic bit instead.
//
// Pairs (seed S, default 1): "random" are N pairs of vertices drawn uniformly (s == t
// allowed); "positive" are N pairs drawn the same way and kept only when s reaches t, as
// O'Reach's own generator makes its positive queries (positive_pairs below): a uniform
// sample of the reachable pairs, not a few sources with many targets each.
#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <memory>
#include <random>
#include <string>
#include <vector>

#include "closure/graph/read_graph.hpp"
#include "closure/reach/reach_index.hpp"
#include "lib/reachability/oreach.h"

namespace {

using Clock = std::chrono::steady_clock;
using closure::vertex_t;
using Pairs = std::vector<std::pair<vertex_t, vertex_t>>;

double seconds_since(Clock::time_point t0) {
  return std::chrono::duration<double>(Clock::now() - t0).count();
}

struct Settings {
  size_t pairs = 100000;
  int rounds = 7;
  uint64_t seed = 1;
  std::vector<std::string> graphs;
};

// Positive pairs as O'Reach's own query generator makes them (app/query_generator.h,
// generate_positive2, the one its app calls): pairs (s, t) drawn uniformly at random, kept
// only when s reaches t, in the order drawn. That is a uniform sample of the closure's
// pairs: a source weighs as much as it reaches, and its targets are uniform among what it
// reaches. Reachability is closure's strict one (s, s is kept only when s lies on a
// cycle); the candidates are answered by closure's index here, and every kept pair is
// answered again, by both, in the timed rounds and cross-checked against O'Reach. The same
// seed gives the same pairs. *drawn is the number of candidates it took.
Pairs positive_pairs(closure::reach::Querier& cq, vertex_t n, size_t count, std::mt19937_64& rng,
                     uint64_t* drawn) {
  std::uniform_int_distribution<vertex_t> any(0, n - 1);
  constexpr size_t kBlock = size_t{1} << 16;
  constexpr uint64_t kMaxDrawn = uint64_t{1} << 34;  // gives up on a nearly empty closure
  std::vector<vertex_t> us(kBlock), vs(kBlock);
  std::unique_ptr<bool[]> yes(new bool[kBlock]);
  Pairs out;
  *drawn = 0;
  while (out.size() < count && *drawn < kMaxDrawn) {
    for (size_t i = 0; i < kBlock; ++i) us[i] = any(rng), vs[i] = any(rng);
    cq.reaches_many(us.data(), vs.data(), kBlock, yes.get());
    for (size_t i = 0; i < kBlock && out.size() < count; ++i) {
      ++*drawn;
      if (yes[i]) out.emplace_back(us[i], vs[i]);
    }
  }
  return out;
}

// The graph O'Reach indexes: the input itself when it is a DAG, else the condensation.
struct OReachInput {
  graph_access graph;
  bool condensed = false;
};

void fill_graph(graph_access& G, size_t n, size_t m, const uint32_t* off, const uint32_t* tar) {
  G.start_construction(NodeID(n), EdgeID(m));
  for (size_t v = 0; v < n; ++v) {
    const NodeID node = G.new_node();
    G.setPartitionIndex(node, 0);
    G.setNodeWeight(node, 1);
    for (uint32_t i = off[v]; i < off[v + 1]; ++i) {
      const EdgeID e = G.new_edge(node, tar[i]);
      G.setEdgeWeight(e, 1);
    }
  }
  G.finish_construction();
}

void make_oreach_input(const closure::Graph& g, const closure::reach::IndexView& v,
                       OReachInput& in) {
  bool self_loop = false;
  for (vertex_t u = 0; u < g.vertex_count() && !self_loop; ++u)
    for (vertex_t w : g.successors(u)) self_loop |= (w == u);
  in.condensed = v.components != v.vertices || self_loop;
  if (in.condensed) {
    fill_graph(in.graph, v.components, v.edges, v.offsets, v.targets);
    return;
  }
  std::vector<uint32_t> off(g.vertex_count() + 1, 0), tar;
  for (vertex_t u = 0; u < g.vertex_count(); ++u) {
    for (vertex_t w : g.successors(u)) tar.push_back(w);
    off[u + 1] = uint32_t(tar.size());
  }
  fill_graph(in.graph, g.vertex_count(), tar.size(), off.data(), tar.data());
}

double median(std::vector<double> v) {
  std::sort(v.begin(), v.end());
  return v.empty() ? 0 : v[v.size() / 2];
}

struct Row {
  double closure_ns = 0, closure_batch_ns = 0, oreach_pbibfs_ns = 0, oreach_pdfs_ns = 0;
  size_t yes = 0, disagreements = 0;
};

template <FallbackMode fm>
double time_oreach(oreach& r, const std::vector<Query>& queries, size_t& yes) {
  std::vector<Query> q(queries);
  const auto t0 = Clock::now();
  r.query<fm>(q);
  const double s = seconds_since(t0);
  yes = 0;
  for (const auto& x : q) yes += x.reachable;
  return s;
}

// closure's lone queries, one call per pair, in a loop of their own (as O'Reach's query()
// is), not inlined into run_pairs, whose many live values would spill the loop's pointers.
[[gnu::noinline, gnu::aligned(64)]] void closure_lone(closure::reach::Querier& cq,
                                                      const vertex_t* us, const vertex_t* vs,
                                                      size_t n, bool* out) {
  for (size_t i = 0; i < n; ++i) out[i] = cq.reaches(us[i], vs[i]);
}

Row run_pairs(const Pairs& pairs, closure::reach::Querier& cq, closure::reach::Querier& cb,
              oreach& r, const closure::reach::IndexView& view, bool condensed, int rounds) {
  Row row;
  const size_t n = pairs.size();
  std::vector<Query> queries;
  std::vector<vertex_t> us(n), vs(n);
  for (size_t i = 0; i < n; ++i) {
    us[i] = pairs[i].first, vs[i] = pairs[i].second;
    const vertex_t s = condensed ? view.component_of[us[i]] : us[i];
    const vertex_t t = condensed ? view.component_of[vs[i]] : vs[i];
    queries.emplace_back(s, t);
  }
  std::unique_ptr<bool[]> lone(new bool[n + 1]), batch(new bool[n + 1]);
  std::vector<double> tc, tb, tp, td;
  size_t yes_p = 0, yes_d = 0;
  for (int k = 0; k < rounds; ++k) {
    auto t0 = Clock::now();
    closure_lone(cq, us.data(), vs.data(), n, lone.get());
    tc.push_back(seconds_since(t0));
    tp.push_back(time_oreach<FB_PIBFS>(r, queries, yes_p));
    t0 = Clock::now();
    cb.reaches_many(us.data(), vs.data(), n, batch.get());
    tb.push_back(seconds_since(t0));
    td.push_back(time_oreach<FB_PDFS>(r, queries, yes_d));
  }
  const double per = n ? 1e9 / double(n) : 0;
  row.closure_ns = median(tc) * per, row.closure_batch_ns = median(tb) * per;
  row.oreach_pbibfs_ns = median(tp) * per, row.oreach_pdfs_ns = median(td) * per;
  // The check, untimed: O'Reach's answer per pair, strict semantics for a component with
  // itself.
  std::vector<Query> q(queries);
  r.query<FB_PIBFS>(q);
  for (size_t i = 0; i < n; ++i) {
    const uint32_t cu = view.component_of[us[i]], cv = view.component_of[vs[i]];
    const bool expected =
        cu == cv ? (view.labels[cu].bloom_in & closure::reach::kCyclicBit) != 0 : q[i].reachable;
    row.yes += lone[i];
    row.disagreements += (lone[i] != expected) + (batch[i] != expected);
  }
  if (yes_p != yes_d) ++row.disagreements;
  closure::reach::QueryStats st;
  for (size_t i = 0; i < n; ++i) cq.tally(us[i], vs[i], st);
  std::fprintf(stderr,
               "  closure decided: same component %llu, no by order or interval %llu, yes by "
               "interval %llu, supportive %llu, Bloom %llu, searched %llu\n",
               (unsigned long long)st.same_component, (unsigned long long)st.negative_cut,
               (unsigned long long)st.positive_cut, (unsigned long long)st.supportive,
               (unsigned long long)st.bloom, (unsigned long long)st.searched);
  return row;
}

void print_row(const std::string& graph, const char* kind, const Row& row) {
  const double best = std::min(row.oreach_pbibfs_ns, row.oreach_pdfs_ns);
  std::printf("| %s | %s | %.1f | %.1f | %.1f | %.1f | %.2fx | %.2fx | %zu | %zu |\n",
              graph.c_str(), kind, row.closure_ns, row.closure_batch_ns, row.oreach_pbibfs_ns,
              row.oreach_pdfs_ns, row.closure_ns > 0 ? best / row.closure_ns : 0.0,
              row.closure_batch_ns > 0 ? best / row.closure_batch_ns : 0.0, row.yes,
              row.disagreements);
  std::fflush(stdout);
}

void run_graph(const std::string& path, const Settings& st) {
  const closure::Graph g = closure::read_graph(path).graph;
  const std::string name = path.substr(path.find_last_of('/') + 1);
  if (g.vertex_count() == 0) return;
  auto t0 = Clock::now();
  closure::reach::ReachIndex index(closure::reach::build_index(g));
  const double closure_build = seconds_since(t0);
  const auto& view = index.view();
  OReachInput in;
  make_oreach_input(g, view, in);
  ReachabilityConfig config;
  config.seed = st.seed;
  random_functions::setSeed(st.seed);
  oreach r(in.graph, config);
  t0 = Clock::now();
  r.initialize();
  const double oreach_build = seconds_since(t0);
  std::printf(
      "<!-- %s: n %zu, m %zu, components %llu; build: closure %.2f ms, O'Reach %.2f ms%s -->\n",
      name.c_str(), g.vertex_count(), g.edge_count(), (unsigned long long)view.components,
      closure_build * 1e3, oreach_build * 1e3,
      in.condensed ? " (O'Reach on the condensation, pairs mapped untimed)" : "");
  // Lone calls and batches each on their own querier, as a program would use one or the
  // other: lone calls learn from the calls before them (Querier::reaches_lone).
  closure::reach::Querier cq(index), cb(index);
  std::mt19937_64 rng(st.seed);
  std::uniform_int_distribution<vertex_t> any(0, vertex_t(g.vertex_count() - 1));
  Pairs random(st.pairs);
  for (auto& p : random) p = {any(rng), any(rng)};
  print_row(name, "random", run_pairs(random, cq, cb, r, view, in.condensed, st.rounds));
  uint64_t drawn = 0;
  const Pairs positive = positive_pairs(cq, vertex_t(g.vertex_count()), st.pairs, rng, &drawn);
  std::printf("<!-- %s: %zu positive pairs of %llu random ones drawn -->\n", name.c_str(),
              positive.size(), (unsigned long long)drawn);
  if (!positive.empty())
    print_row(name, "positive", run_pairs(positive, cq, cb, r, view, in.condensed, st.rounds));
}

}  // namespace

int main(int argc, char** argv) {
  Settings st;
  for (int i = 1; i < argc; ++i) {
    const std::string a = argv[i];
    if ((a == "--pairs" || a == "--rounds" || a == "--seed") && i + 1 < argc) {
      const unsigned long long x = std::strtoull(argv[++i], nullptr, 10);
      if (a == "--pairs") st.pairs = size_t(x);
      if (a == "--rounds") st.rounds = std::max(1, int(x));
      if (a == "--seed") st.seed = x;
    } else {
      st.graphs.push_back(a);
    }
  }
  std::printf(
      "| graph | pairs | closure ns | closure batch ns | O'Reach pBiBFS ns | O'Reach pDFS ns | "
      "best O'Reach / closure | best O'Reach / closure batch | yes | disagreements |\n"
      "| --- | --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: |\n");
  for (const auto& path : st.graphs) run_graph(path, st);
  return 0;
}
