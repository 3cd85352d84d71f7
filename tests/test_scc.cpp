// Tests of the iterative Tarjan SCC, the condensation DAG and topological order.
#include <gtest/gtest.h>

#include <algorithm>
#include <map>
#include <random>
#include <set>
#include <string>

#include "closure/algorithms/scc.hpp"
#include "closure/executor.hpp"

namespace closure {
namespace {

Graph path_graph(size_t n, bool close_cycle) {
  std::vector<Edge> edges;
  for (size_t v = 0; v + 1 < n; ++v) edges.emplace_back(vertex_t(v), vertex_t(v + 1));
  if (close_cycle && n > 0) edges.emplace_back(vertex_t(n - 1), 0);
  return Graph(n, std::move(edges));
}

// Checks the topological numbering contract: every edge between components goes up.
void expect_topological(const Graph& g, const SccResult& scc) {
  for (vertex_t u = 0; u < g.vertex_count(); ++u)
    for (vertex_t v : g.successors(u))
      ASSERT_LE(scc.component_of[u], scc.component_of[v]) << u << " -> " << v;
}

// Groups vertices by component id, as sets, to compare partitions regardless of ids.
std::set<std::set<vertex_t>> partition(const SccResult& scc) {
  std::map<vertex_t, std::set<vertex_t>> groups;
  for (vertex_t v = 0; v < scc.component_of.size(); ++v) groups[scc.component_of[v]].insert(v);
  std::set<std::set<vertex_t>> out;
  for (auto& [c, members] : groups) out.insert(members);
  return out;
}

TEST(Scc, MillionVertexPathDoesNotOverflowTheStack) {
  const Graph g = path_graph(1'000'000, false);
  const SccResult scc = strongly_connected_components(g);
  ASSERT_EQ(scc.component_count(), 1'000'000u);
  // A path's only topological order: vertex v is component v.
  for (vertex_t v = 0; v < 1'000'000; v += 99'999) EXPECT_EQ(scc.component_of[v], v);
  EXPECT_TRUE(std::none_of(scc.cyclic.begin(), scc.cyclic.end(), [](uint8_t c) { return c; }));
  EXPECT_TRUE(is_dag(g));
}

TEST(Scc, MillionVertexCycleIsOneComponent) {
  const Graph g = path_graph(1'000'000, true);
  const SccResult scc = strongly_connected_components(g);
  ASSERT_EQ(scc.component_count(), 1u);
  EXPECT_EQ(scc.cyclic[0], 1);
  EXPECT_FALSE(is_dag(g));
  EXPECT_EQ(condensation_dag(g, scc).edge_count(), 0u);
}

TEST(Scc, HandGraphComponents) {
  // 0 <-> 1 -> 2 -> 3 -> 4 -> 2 (cycle 2,3,4), 5 self-loop, 6 isolated, 1 -> 5, 7 -> 0.
  const Graph g(8, {{0, 1}, {1, 0}, {1, 2}, {2, 3}, {3, 4}, {4, 2}, {5, 5}, {1, 5}, {7, 0}});
  const SccResult scc = strongly_connected_components(g);
  EXPECT_EQ(partition(scc), (std::set<std::set<vertex_t>>{{0, 1}, {2, 3, 4}, {5}, {6}, {7}}));
  expect_topological(g, scc);
  EXPECT_TRUE(scc.cyclic[scc.component_of[0]]);
  EXPECT_TRUE(scc.cyclic[scc.component_of[2]]);
  EXPECT_TRUE(scc.cyclic[scc.component_of[5]]);  // the self-loop
  EXPECT_FALSE(scc.cyclic[scc.component_of[6]]);
  EXPECT_FALSE(scc.cyclic[scc.component_of[7]]);
  EXPECT_LT(scc.component_of[7], scc.component_of[0]);
  EXPECT_LT(scc.component_of[0], scc.component_of[2]);

  const Graph dag = condensation_dag(g, scc);
  EXPECT_EQ(dag.vertex_count(), 5u);
  const vertex_t c01 = scc.component_of[0], c234 = scc.component_of[2], c5 = scc.component_of[5],
                 c7 = scc.component_of[7];
  std::vector<Edge> expected{{c01, c234}, {c01, c5}, {c7, c01}};
  std::sort(expected.begin(), expected.end());
  EXPECT_EQ(dag.edges(), expected);  // no self-loop (5,5), no duplicates
  EXPECT_TRUE(is_dag(dag));
}

TEST(Scc, EmptyAndSingleVertex) {
  EXPECT_EQ(strongly_connected_components(Graph(0, {})).component_count(), 0u);
  const SccResult one = strongly_connected_components(Graph(1, {}));
  ASSERT_EQ(one.component_count(), 1u);
  EXPECT_EQ(one.cyclic[0], 0);
  const SccResult loop = strongly_connected_components(Graph(1, {{0, 0}}));
  EXPECT_EQ(loop.cyclic[0], 1);
  EXPECT_TRUE(is_dag(Graph(0, {})));
  EXPECT_FALSE(is_dag(Graph(1, {{0, 0}})));
}

TEST(Scc, TwoCyclesJoinedOneWay) {
  // {0,1,2} -> {3,4}; the later cycle must get the higher id.
  const Graph g(5, {{0, 1}, {1, 2}, {2, 0}, {2, 3}, {3, 4}, {4, 3}});
  const SccResult scc = strongly_connected_components(g);
  ASSERT_EQ(scc.component_count(), 2u);
  EXPECT_EQ(scc.component_of[0], 0u);
  EXPECT_EQ(scc.component_of[4], 1u);
  EXPECT_EQ(scc.cyclic, (std::vector<uint8_t>{1, 1}));
}

TEST(Scc, TopologicalOrderIsValidOrAbsent) {
  const Graph dag(6, {{5, 2}, {5, 0}, {4, 0}, {4, 1}, {2, 3}, {3, 1}});
  const auto order = topological_order(dag);
  ASSERT_TRUE(order.has_value());
  ASSERT_EQ(order->size(), 6u);
  std::vector<size_t> pos(6);
  for (size_t i = 0; i < 6; ++i) pos[(*order)[i]] = i;
  for (const auto& [u, v] : dag.edges()) EXPECT_LT(pos[u], pos[v]);
  EXPECT_FALSE(topological_order(Graph(3, {{0, 1}, {1, 2}, {2, 1}})).has_value());
  // A million-vertex path: Kahn's algorithm has no recursion either.
  EXPECT_TRUE(topological_order(path_graph(1'000'000, false)).has_value());
}

TEST(Scc, CondenseMatchesParts) {
  const Graph g(6, {{0, 1}, {1, 0}, {1, 2}, {3, 4}, {4, 5}, {5, 3}, {2, 3}});
  const Condensation c = condense(g);
  EXPECT_EQ(c.scc.component_count(), 3u);
  EXPECT_EQ(c.dag.offsets, (std::vector<uint64_t>{0, 1, 2, 2}));
  EXPECT_EQ(c.dag.targets, (std::vector<vertex_t>{1, 2}));
  EXPECT_EQ(condensation_dag(g, c.scc).edges(), (std::vector<Edge>{{0, 1}, {1, 2}}));
}

// The condensation's rows by definition: each component's distinct successors outside it,
// ascending.
CsrDag naive_condensation(const Graph& g, const SccResult& scc) {
  std::vector<std::set<vertex_t>> rows(scc.component_count());
  for (vertex_t u = 0; u < g.vertex_count(); ++u)
    for (vertex_t v : g.successors(u))
      if (scc.component_of[u] != scc.component_of[v])
        rows[scc.component_of[u]].insert(scc.component_of[v]);
  CsrDag out;
  out.offsets.push_back(0);
  for (const auto& row : rows) {
    out.targets.insert(out.targets.end(), row.begin(), row.end());
    out.offsets.push_back(out.targets.size());
  }
  return out;
}

TEST(Scc, CondensationOfEveryShapeMatchesItsDefinition) {
  // DAGs with scattered ids (the counting sorts below 2^19 edges; the parallel relabelling
  // at (1 << 19) + 3 vertices, a million edges, past one chunk), the same with a self-loop,
  // and graphs with cycles (the counting sorts).
  std::mt19937_64 rng(99);
  for (size_t n : {size_t{1}, size_t{2}, size_t{33}, size_t{1000}, (size_t{1} << 19) + 3}) {
    std::vector<vertex_t> hidden(n);
    for (vertex_t i = 0; i < n; ++i) hidden[i] = i;
    std::shuffle(hidden.begin(), hidden.end(), rng);
    std::uniform_int_distribution<size_t> pick(0, n - 1);
    std::vector<Edge> dag;
    for (size_t k = 0; k < 2 * n; ++k) {
      size_t a = pick(rng), b = pick(rng);
      if (a == b) continue;
      if (a > b) std::swap(a, b);
      dag.emplace_back(hidden[a], hidden[b]);
    }
    std::vector<Edge> looped = dag, cyclic = dag;
    looped.emplace_back(hidden[n / 2], hidden[n / 2]);
    for (size_t k = 0; k < 4 && n > 1; ++k)
      cyclic.emplace_back(hidden[pick(rng)], hidden[pick(rng)]);
    // The large size for the parallel path only: the reference's sets are slow under ASan.
    const std::vector<std::vector<Edge>> shapes =
        n > 100000 ? std::vector<std::vector<Edge>>{dag}
                   : std::vector<std::vector<Edge>>{dag, looped, cyclic};
    for (const auto& edges : shapes) {
      const Graph g(n, std::vector<Edge>(edges));
      const SccResult scc = strongly_connected_components(g);
      const CsrDag want = naive_condensation(g, scc);
      const CsrDag got = condensation_csr(g, scc);
      ASSERT_EQ(got.offsets, want.offsets) << "n=" << n << ", " << edges.size() << " edges";
      ASSERT_EQ(got.targets, want.targets) << "n=" << n << ", " << edges.size() << " edges";
    }
  }
}

constexpr vertex_t kUnseen = ~vertex_t{0};

// condense()'s result against the definitions: its components are Tarjan's partition (the
// same vertices together), numbered so that every edge between two goes forward, flagged
// cyclic exactly where several vertices or a self-loop, and its rows the naive condensation.
void expect_condensation_by_definition(const Graph& g, const std::string& what) {
  const Condensation c = condense(g);
  const SccResult tarjan = strongly_connected_components(g);
  const size_t n = g.vertex_count();
  ASSERT_EQ(c.component_count(), tarjan.component_count()) << what;
  ASSERT_EQ(c.scc.component_of.size(), n) << what;
  std::vector<vertex_t> as_tarjan(c.component_count(), kUnseen);
  for (vertex_t v = 0; v < n; ++v) {
    const vertex_t mine = c.scc.component_of[v];
    ASSERT_LT(mine, c.component_count()) << what;
    if (as_tarjan[mine] == kUnseen) as_tarjan[mine] = tarjan.component_of[v];
    ASSERT_EQ(as_tarjan[mine], tarjan.component_of[v]) << what << ": vertex " << v;
  }
  std::vector<size_t> sizes(c.component_count(), 0);
  for (vertex_t v = 0; v < n; ++v) ++sizes[c.scc.component_of[v]];
  std::vector<uint8_t> looped(c.component_count(), 0);
  for (vertex_t u = 0; u < n; ++u)
    for (vertex_t v : g.successors(u)) {
      const vertex_t cu = c.scc.component_of[u], cv = c.scc.component_of[v];
      if (u == v) looped[cu] = 1;
      if (cu != cv) {
        ASSERT_LT(cu, cv) << what << ": edge " << u << " -> " << v;
      }
    }
  for (size_t k = 0; k < c.component_count(); ++k)
    ASSERT_EQ(c.scc.cyclic[k], uint8_t(sizes[k] > 1 || looped[k])) << what << ": component " << k;
  const CsrDag want = naive_condensation(g, c.scc);
  ASSERT_EQ(c.dag.offsets, want.offsets) << what;
  ASSERT_EQ(c.dag.targets, want.targets) << what;
}

// Every way condense() takes: Kahn's depth-first order for DAGs whose ids are in
// topological order, reversed (a history written newest first) or scattered (counting sorts
// below 2^19 edges, the parallel relabelling above), and for graphs with cycles (upstream
// of a long acyclic part, downstream of one, a self-loop, everything one cycle) Kahn's
// placed vertices then Tarjan over the rest. Awkward sizes, fixed seeds.
TEST(Scc, CondenseOfEveryShapeAgreesWithTheDefinitions) {
  std::mt19937_64 rng(4242);
  for (size_t n : {size_t{1}, size_t{2}, size_t{17}, size_t{65}, size_t{1000}, size_t{4099},
                   (size_t{1} << 19) + 3}) {
    std::vector<vertex_t> hidden(n);
    for (vertex_t i = 0; i < n; ++i) hidden[i] = i;
    std::shuffle(hidden.begin(), hidden.end(), rng);
    std::uniform_int_distribution<size_t> pick(0, n - 1);
    std::vector<Edge> up, scattered;
    for (size_t k = 0; k < 3 * n; ++k) {
      size_t a = pick(rng), b = pick(rng);
      if (a == b) continue;
      if (a > b) std::swap(a, b);
      up.emplace_back(vertex_t(a), vertex_t(b));
      scattered.emplace_back(hidden[a], hidden[b]);
    }
    std::vector<Edge> down;
    for (const Edge& e : up) down.emplace_back(e.second, e.first);
    std::vector<std::pair<std::string, std::vector<Edge>>> shapes{
        {"ascending ids", up}, {"descending ids", down}, {"scattered ids", scattered}};
    if (n > 1) {
      std::vector<Edge> late = up, early = up, looped = scattered, ring = scattered;
      late.emplace_back(vertex_t(n - 1), vertex_t(n - 2));  // a cycle at the sinks' end
      early.emplace_back(vertex_t(1), vertex_t(0));         // at the sources' end
      looped.emplace_back(hidden[n / 2], hidden[n / 2]);
      for (vertex_t v = 0; v < n; ++v) ring.emplace_back(v, vertex_t((v + 1) % n));
      for (size_t k = 0; k < 4; ++k) scattered.emplace_back(hidden[pick(rng)], hidden[pick(rng)]);
      shapes.push_back({"a 2-cycle among the sinks", late});
      shapes.push_back({"a 2-cycle among the sources", early});
      shapes.push_back({"a self-loop", looped});
      shapes.push_back({"one ring through everything", ring});
      shapes.push_back({"random back edges", scattered});
    }
    // The large size for the two parallel paths only: the reference's sets are slow under ASan.
    if (n > 100000) shapes.resize(3);
    for (const auto& [what, edges] : shapes)
      expect_condensation_by_definition(Graph(n, std::vector<Edge>(edges)),
                                        what + ", n=" + std::to_string(n));
  }
  expect_condensation_by_definition(Graph(), "empty");
  expect_condensation_by_definition(path_graph(100'000, true), "a 100,000-vertex cycle");
}

// condense()'s order on a DAG, written plainly: Kahn's algorithm with a stack of ready
// vertices, the sources pushed from the highest id down, a vertex's targets from its last
// down (so the lowest is taken first). Returns each vertex's place.
std::vector<vertex_t> plain_kahn_ids(const Graph& g) {
  const size_t n = g.vertex_count();
  std::vector<vertex_t> in(n, 0), place(n, 0), ready;
  for (vertex_t u = 0; u < n; ++u)
    for (vertex_t v : g.successors(u)) ++in[v];
  for (size_t v = n; v-- > 0;)
    if (in[v] == 0) ready.push_back(vertex_t(v));
  vertex_t next = 0;
  while (!ready.empty()) {
    const vertex_t u = ready.back();
    ready.pop_back();
    place[u] = next++;
    const auto succ = g.successors(u);
    for (size_t i = succ.size(); i-- > 0;)
      if (--in[succ[i]] == 0) ready.push_back(succ[i]);
  }
  return place;
}

// Past 2^20 edges with 4 threads or more, the in-degrees are counted on threads and the
// sources found in chunks of 2^18 vertices: the condensation is the one a single thread
// makes, id for id (a DAG of scattered ids, and one with a cycle, past three chunks), and
// on the DAG the ids are plain Kahn's.
TEST(Scc, CondenseOnThreadsIsCondenseOnOne) {
  std::mt19937_64 rng(20261206);
  const size_t n = (size_t{1} << 19) + 3;
  std::vector<vertex_t> hidden(n);
  for (vertex_t i = 0; i < n; ++i) hidden[i] = i;
  std::shuffle(hidden.begin(), hidden.end(), rng);
  std::vector<Edge> dag;
  for (size_t k = 0; k < 3 * n; ++k) {
    size_t a = rng() % n, b = rng() % n;
    if (a == b) continue;
    if (a > b) std::swap(a, b);
    dag.emplace_back(hidden[a], hidden[b]);
  }
  // A 2-cycle: the first edge reversed (its ends then share a component; Kahn's pass stops
  // short of everything downstream, which Tarjan finishes).
  std::vector<Edge> cyclic = dag;
  cyclic.emplace_back(dag.front().second, dag.front().first);
  for (const std::vector<Edge>* list : {&dag, &cyclic}) {
    const std::vector<Edge>& edges = *list;
    const Graph g(n, std::vector<Edge>(edges));
    ASSERT_GT(g.edge_count(), size_t{1} << 20);
    Condensation one;
    with_thread_budget(1, [&] { one = condense(g); });
    if (list == &dag) {
      ASSERT_EQ(one.scc.component_of, plain_kahn_ids(g));
    } else {
      ASSERT_LT(one.component_count(), n);
    }
    for (unsigned threads : {4u, 8u}) {
      Condensation many;
      with_thread_budget(threads, [&] { many = condense(g); });
      EXPECT_EQ(many.scc.component_of, one.scc.component_of) << threads << " threads";
      EXPECT_EQ(many.scc.cyclic, one.scc.cyclic) << threads << " threads";
      EXPECT_EQ(many.dag.offsets, one.dag.offsets) << threads << " threads";
      EXPECT_EQ(many.dag.targets, one.dag.targets) << threads << " threads";
    }
  }
}

// Kahn's ready vertices are taken depth-first: on a tree with scattered ids, every subtree's
// vertices get consecutive ids right after its root's, as a DFS numbers them (sparse stores
// a row that is one run for nothing; breadth-first, a subtree's ids would be spread).
TEST(Scc, CondenseNumbersEverySubtreeOfATreeConsecutively) {
  std::mt19937_64 rng(77);
  for (size_t n : {size_t{2}, size_t{100}, size_t{5003}}) {
    std::vector<vertex_t> hidden(n);
    for (vertex_t i = 0; i < n; ++i) hidden[i] = i;
    std::shuffle(hidden.begin(), hidden.end(), rng);
    std::vector<vertex_t> parent(n, 0);
    std::vector<Edge> edges;
    for (vertex_t v = 1; v < n; ++v) {
      parent[v] = vertex_t(rng() % v);
      edges.emplace_back(hidden[parent[v]], hidden[v]);
    }
    const Condensation c = condense(Graph(n, std::move(edges)));
    // Subtree sizes (children have larger tree ids), then each subtree's id range.
    std::vector<size_t> size(n, 1);
    for (size_t v = n; v-- > 1;) size[parent[v]] += size[v];
    std::vector<vertex_t> lo(n), hi(n);
    for (vertex_t v = 0; v < n; ++v) lo[v] = hi[v] = c.scc.component_of[hidden[v]];
    for (size_t v = n; v-- > 1;) {
      lo[parent[v]] = std::min(lo[parent[v]], lo[v]);
      hi[parent[v]] = std::max(hi[parent[v]], hi[v]);
    }
    for (vertex_t v = 0; v < n; ++v) {
      ASSERT_EQ(lo[v], c.scc.component_of[hidden[v]]) << "n=" << n << ": root first, " << v;
      ASSERT_EQ(size_t(hi[v] - lo[v]) + 1, size[v]) << "n=" << n << ": subtree of " << v;
    }
  }
}

}  // namespace
}  // namespace closure
