// Tests of the Closure type and the host methods (sparse, classic) on hand graphs, deep
// chains, thread counts and the GRAIL benchmark graphs.
#include <gtest/gtest.h>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <numeric>
#include <random>
#include <sstream>

#include "bench/generators.hpp"
#include "closure/algorithms/closure.hpp"
#include "closure/algorithms/host_closure.hpp"
#include "closure/algorithms/memory_budget.hpp"
#include "closure/algorithms/scc.hpp"
#include "closure/errors.hpp"
#include "closure/graph/read_graph.hpp"

namespace closure {
namespace {

// GRAIL files through the project's reader (tests/test_graph_io.cpp checks it on all 17).
Graph read_gra(const std::filesystem::path& path) {
  return read_graph(path.string()).graph;
}

const std::filesystem::path kGrail = std::filesystem::path(CLOSURE_TEST_DATA_DIR) / "grail";

TEST(HostClosure, HandGraphStrictSemantics) {
  // 0 -> 1 <-> 2 -> 3, 4 self-loop -> 3, 5 isolated.
  const Graph g(6, {{0, 1}, {1, 2}, {2, 1}, {2, 3}, {4, 4}, {4, 3}});
  const std::vector<Edge> expected{{0, 1}, {0, 2}, {0, 3}, {1, 1}, {1, 2}, {1, 3},
                                   {2, 1}, {2, 2}, {2, 3}, {4, 3}, {4, 4}};
  for (const Closure& c : {closure_sparse(g), closure_sparse(g, {2}), closure_classic(g)}) {
    EXPECT_EQ(c.pairs(), expected);
    EXPECT_EQ(c.pair_count(), expected.size());
    EXPECT_EQ(c.pair_count(true), expected.size() + 3);  // adds (0,0), (3,3), (5,5)
    EXPECT_FALSE(c.reaches(0, 0));
    EXPECT_TRUE(c.reaches(1, 1));
    EXPECT_TRUE(c.reaches(4, 4));
    EXPECT_FALSE(c.reaches(3, 0));
    std::vector<vertex_t> succ;
    c.successors(5, succ);
    EXPECT_TRUE(succ.empty());
    c.successors(5, succ, true);
    EXPECT_EQ(succ, std::vector<vertex_t>{5});
    c.successors(0, succ, true);
    EXPECT_EQ(succ, (std::vector<vertex_t>{0, 1, 2, 3}));
  }
}

TEST(HostClosure, EmptyGraph) {
  const Graph g(0, {});
  EXPECT_EQ(closure_sparse(g).pair_count(), 0u);
  EXPECT_EQ(closure_classic(g).pair_count(), 0u);
  EXPECT_EQ(closure_sparse(g).vertex_count(), 0u);
}

TEST(HostClosure, MillionVertexChainStaysSmall) {
  // A dense closure here would need 125 GB; the sparse method's rows are all runs.
  constexpr size_t n = 1'000'000;
  std::vector<Edge> edges;
  for (size_t v = 0; v + 1 < n; ++v) edges.emplace_back(vertex_t(v), vertex_t(v + 1));
  const Graph g(n, std::move(edges));
  const Closure c = closure_sparse(g);
  EXPECT_EQ(c.pair_count(), uint64_t(n) * (n - 1) / 2);
  EXPECT_LT(c.memory_bytes(), size_t{200} << 20);
  EXPECT_TRUE(c.reaches(0, n - 1));
  EXPECT_TRUE(c.reaches(123456, 123457));
  EXPECT_FALSE(c.reaches(123457, 123456));
  EXPECT_FALSE(c.reaches(5, 5));
  std::vector<vertex_t> succ;
  c.successors(n - 3, succ);
  EXPECT_EQ(succ, (std::vector<vertex_t>{n - 2, n - 1}));
  EXPECT_EQ(classic_memory_bytes(n), uint64_t(n) * 31250 * 4);
}

TEST(HostClosure, ThreadCountsGiveTheSameClosure) {
  std::mt19937_64 rng(5);
  for (size_t n : {500u, 3000u}) {
    std::vector<Edge> edges;
    for (size_t k = 0; k < 3 * n; ++k) edges.emplace_back(vertex_t(rng() % n), vertex_t(rng() % n));
    // Mostly forward edges plus these random ones: a mix of SCCs and DAG structure.
    for (size_t k = 0; k < 2 * n; ++k) {
      const vertex_t a = vertex_t(rng() % n), b = vertex_t(rng() % n);
      edges.emplace_back(std::min(a, b), std::max(a, b));
    }
    const Graph g(n, std::move(edges));
    const Closure one = closure_sparse(g, {1});
    const Closure classic = closure_classic(g);
    for (unsigned t : {2u, 3u, 8u}) {
      const Closure c = closure_sparse(g, {t});
      EXPECT_TRUE(c == one) << "threads " << t;
    }
    EXPECT_TRUE(one == classic);
    EXPECT_EQ(one.pair_count(), classic.pair_count());
  }
}

// `draws` random pairs of [0, n), each as an edge from its lower id to its higher (a pair of
// one id a self-loop): the sparse row pool's tests size their rows by it.
Graph forward_pairs_graph(size_t n, size_t draws, uint64_t seed) {
  std::mt19937_64 rng(seed);
  std::vector<Edge> edges;
  for (size_t k = 0; k < draws; ++k) {
    const vertex_t a = vertex_t(rng() % n), b = vertex_t(rng() % n);
    edges.emplace_back(std::min(a, b), std::max(a, b));
  }
  return Graph(n, std::move(edges));
}

// auto's row estimate sizes the rows' first block (SparseOptions::expected_row_words): none,
// too small, about right, past the largest block, with one thread or several, the same
// closure; the budget is charged the blocks as allocated (a first block of the estimate, of
// 16 MiB at most, or of 64 KiB; whole 2 MiB pages from 2 MiB), and never refuses for an
// estimate: the first blocks take at most an eighth of its room.
TEST(HostClosure, TheExpectedRowsSizeTheFirstBlockNotTheClosure) {
  const size_t n = 4000;
  const Graph g = forward_pairs_graph(n, 6 * n, 20261207);
  const Closure classic = closure_classic(g);
  for (uint64_t words : {uint64_t{0}, uint64_t{100}, uint64_t{200'000}, uint64_t{1} << 30})
    for (unsigned threads : {1u, 3u}) {
      SparseOptions o;
      o.threads = threads;
      o.expected_row_words = words;
      MemoryBudget budget(size_t{1} << 40, 0, "test");
      o.budget = &budget;
      EXPECT_TRUE(closure_sparse(g, o) == classic) << words << " words, " << threads;
      if (threads == 1) {
        const size_t first = std::clamp<size_t>(words, size_t{1} << 14, size_t{1} << 22) * 4;
        EXPECT_GE(budget.used(), first) << words;
        // 200,000 words: the rows fit the first block, sized by the estimate and, past 512
        // KiB, made a whole 2 MiB page (without it, blocks doubling from 64 KiB).
        if (words == 200'000) {
          EXPECT_EQ(budget.used(), size_t{2} << 20);
        }
        // Past the blocks of 64, 128 and 256 KiB (no estimate over the first block's 64
        // KiB), whole 2 MiB pages are charged: this graph's rows reach into one.
        const size_t small = words <= (size_t{1} << 14) ? size_t{448} << 10 : 0;
        if (words == 0) {
          EXPECT_GT(budget.used(), small);
        }
        if (budget.used() > small) {
          EXPECT_EQ((budget.used() - small) % (size_t{2} << 20), 0u) << words;
        }
      }
    }
  // A room under eight huge pages: the blocks keep doubling past 448 KiB (this graph's rows
  // fill a fourth, of 512 KiB) instead of taking a 2 MiB page.
  {
    MemoryBudget budget(size_t{15} << 20, 0, "test");
    SparseOptions o;
    o.threads = 1;
    o.budget = &budget;
    EXPECT_TRUE(closure_sparse(g, o) == classic);
    EXPECT_EQ(budget.used(), size_t{960} << 10);  // 64 + 128 + 256 + 512 KiB
  }
  // Room of 1 MiB (9 MiB less 8 fixed) and of 8 MiB: a 16 MiB first block, were there room.
  for (const size_t fixed : {size_t{8} << 20, size_t{0}}) {
    SparseOptions tight;
    tight.expected_row_words = uint64_t{1} << 22;
    const size_t limit = fixed + (fixed ? size_t{1} << 20 : size_t{8} << 20);
    MemoryBudget budget(limit, fixed, "test");
    tight.budget = &budget;
    EXPECT_TRUE(closure_sparse(g, tight) == classic) << fixed;
    EXPECT_LE(fixed + budget.used(), limit);
  }
}

// A block's rounding to huge pages and its doubling are retried smaller where the budget
// refuses them. This graph's rows need between 18,880 and 32,704 KiB: blocks doubling from
// 64 KiB unrounded fit 32,704 KiB (64 KiB to 16 MiB), those rounded up from 512 KiB take
// 35,264 KiB; under a limit of 32,704 KiB the closure is still made.
TEST(HostClosure, ABlockTheBudgetRefusesIsRetriedSmaller) {
  const size_t n = 30000;
  const Graph g = forward_pairs_graph(n, 4 * n, 20261208);
  SparseOptions o;
  o.threads = 1;
  MemoryBudget roomy(size_t{1} << 40, 0, "test");
  o.budget = &roomy;
  const Closure reference = closure_sparse(g, o);
  const size_t limit = size_t{32704} << 10;
  ASSERT_EQ(roomy.used(), size_t{35264} << 10);  // the blocks as first tried pass the limit
  MemoryBudget tight(limit, 0, "test");
  o.budget = &tight;
  const Closure under_limit = closure_sparse(g, o);
  EXPECT_EQ(under_limit.pair_count(), reference.pair_count());
  EXPECT_LE(tight.used(), limit);
  std::vector<vertex_t> a, b;
  for (vertex_t v = 0; v < n; v += 997) {
    under_limit.successors(v, a);
    reference.successors(v, b);
    EXPECT_EQ(a, b) << v;
  }
  // Under a limit the rows cannot fit, the budget refuses with its message.
  MemoryBudget too_small(size_t{8} << 20, 0, "test");
  o.budget = &too_small;
  EXPECT_THROW(closure_sparse(g, o), OutOfMemoryError);
}

TEST(HostClosure, ThreadedPathOnLargerGraphs) {
  // Big enough for the worker hand-offs to interleave: chains (continuations), a giant
  // SCC with a tail, and a random DAG, each against the single-threaded result.
  for (const std::string& name : issue4_graph_names()) {
    // Sizes kept small enough for == (which expands every component row) to stay fast.
    const double scale = name == "chain_1M" ? 0.005 : name == "dense_dag_20k_10pct" ? 0.02 : 0.05;
    const NamedGraph g = issue4_graph(name, scale);
    const Closure one = closure_sparse(g.graph, {1});
    for (unsigned t : {2u, 4u})
      EXPECT_TRUE(closure_sparse(g.graph, {t}) == one) << name << " " << t;
    EXPECT_TRUE(closure_sparse(g.graph) == one) << name;
  }
}

// auto hands its SCCs and condensation CSR to sparse instead of having them redone: the
// same closure as from the graph, and a CSR that is not topological or not the SCCs'
// size is refused.
TEST(HostClosure, SparseFromAGivenCondensationEqualsFromTheGraph) {
  std::mt19937_64 rng(11);
  for (size_t n : {1u, 37u, 1000u}) {
    std::vector<Edge> edges;
    for (size_t k = 0; k < 2 * n; ++k) edges.emplace_back(vertex_t(rng() % n), vertex_t(rng() % n));
    const Graph g(n, std::move(edges));
    SccResult scc = strongly_connected_components(g);
    const CsrDag dag = condensation_csr(g, scc);
    const Closure given = closure_sparse(std::move(scc), dag, {});
    const Closure own = closure_sparse(g);
    EXPECT_TRUE(given == own) << n;
    EXPECT_TRUE(given == closure_classic(g)) << n;
  }
  const Graph chain(3, std::vector<Edge>{{0, 1}, {1, 2}});
  SccResult scc = strongly_connected_components(chain);
  CsrDag backwards = condensation_csr(chain, scc);
  ASSERT_EQ(backwards.targets.size(), 2u);
  backwards.targets[1] = 0;  // 1 -> 0: not topological
  EXPECT_THROW(closure_sparse(scc, backwards, {}), InternalError);
  CsrDag short_csr = condensation_csr(chain, scc);
  short_csr.offsets.pop_back();
  EXPECT_THROW(closure_sparse(scc, short_csr, {}), InternalError);
}

// Rows held elsewhere over single-vertex components in a permuted order (a DAG's Kahn ids),
// some with a self-loop: the members are the permutation's inverse and the pairs are the
// rows' count plus one a self-loop, as from the same rows on the host.
TEST(HostClosure, ResidentRowsOverSingleVertexComponentsCountAndWalk) {
  struct Rows : ResidentReach {
    BitMatrix m;
    uint64_t cross;
    size_t component_count() const override { return m.rows(); }
    uint64_t cross_pairs() const override { return cross; }
    bool reaches(vertex_t c, vertex_t d) const override { return m.get(c, d); }
    void reaches_many(std::span<const std::pair<vertex_t, vertex_t>> pairs,
                      std::span<uint8_t> out) const override {
      for (size_t i = 0; i < pairs.size(); ++i) out[i] = m.get(pairs[i].first, pairs[i].second);
    }
    const BitMatrix& host_rows() const override { return m; }
    BitMatrix host_columns(uint32_t, uint32_t) const override { return m; }
    size_t host_bytes() const override { return 0; }
    std::string describe() const override { return "test rows"; }
  };
  std::mt19937 rng(11);
  for (size_t n : {1u, 7u, 33u, 100u}) {
    std::vector<vertex_t> component_of(n);
    std::iota(component_of.begin(), component_of.end(), vertex_t{0});
    std::shuffle(component_of.begin(), component_of.end(), rng);
    std::vector<uint8_t> cyclic(n);
    for (auto& f : cyclic) f = uint8_t(rng() % 3 == 0);
    auto rows = std::make_shared<Rows>();
    rows->m = BitMatrix(n, n);
    std::vector<uint64_t> offsets{0};
    std::vector<vertex_t> targets;
    uint64_t cross = 0;
    for (size_t c = 0; c < n; ++c) {
      for (size_t d = c + 1; d < n; ++d)
        if (rng() % 4 == 0) rows->m.set(c, d), targets.push_back(vertex_t(d)), ++cross;
      offsets.push_back(targets.size());
    }
    rows->cross = cross;
    const Closure resident = Closure::from_resident(component_of, cyclic, rows);
    const Closure host = Closure::from_sparse(component_of, cyclic, offsets, targets);
    const uint64_t loops = uint64_t(std::count(cyclic.begin(), cyclic.end(), 1));
    EXPECT_EQ(resident.pair_count(), cross + loops) << n;
    EXPECT_EQ(resident.pair_count(true), cross + n) << n;
    EXPECT_EQ(resident.pair_count(), host.pair_count()) << n;
    for (size_t v = 0; v < n; ++v) {
      const auto m = resident.members(component_of[v]);
      ASSERT_EQ(m.size(), 1u);
      EXPECT_EQ(m[0], vertex_t(v));
    }
    EXPECT_EQ(resident.pairs(), host.pairs()) << n;
  }
}

TEST(HostClosure, ClosureRejectsInconsistentInput) {
  // An acyclic group may hold only one vertex.
  EXPECT_THROW(Closure::from_sparse({0, 0}, {0}, {0, 0}, {}), UsageError);
  EXPECT_THROW(Closure::from_sparse({0, 1}, {0}, {0, 0}, {}), UsageError);
  EXPECT_THROW(Closure::from_dense({0}, {0}, BitMatrix(2, 2)), UsageError);
  EXPECT_THROW(from_full_matrix(BitMatrix(2, 3)), UsageError);
  EXPECT_THROW(Closure::from_sparse({0, 1, 2}, {0, 0, 0}, {0, 2, 2, 2}, {2, 1}),
               UsageError);  // row not ascending
  // A cyclic pair of vertices reaching a third: 4 + 2 pairs.
  const Closure c = Closure::from_sparse({0, 0, 1}, {1, 0}, {0, 1, 1}, {1});
  EXPECT_EQ(c.pair_count(), 6u);
  EXPECT_EQ(c.pair_count(true), 7u);
  EXPECT_EQ(c.pairs(), (std::vector<Edge>{{0, 0}, {0, 1}, {0, 2}, {1, 0}, {1, 1}, {1, 2}}));
}

// Ragged rows may list their scattered components as ids: answered like bits, and
// refused when inconsistent (Closure::from_ragged is the gate for every producer).
TEST(HostClosure, RaggedIdRowsAnswerAndAreChecked) {
  // Components 0..99, all acyclic: row 0 = run [1, 3) + ids {40, 77}; row 5 = ids {99}.
  const std::vector<vertex_t> ids0{40, 77}, ids5{99};
  const word_t word = 1u << 2;  // component 66 in the word [64, 96)
  auto reach = [&] {
    RaggedReach r;
    r.rows.resize(100);
    r.rows[0].run_begin = 1;
    r.rows[0].run_end = 3;
    r.rows[0].ids = ids0.data();
    r.rows[0].id_count = 2;
    r.rows[5].ids = ids5.data();
    r.rows[5].id_count = 1;
    r.rows[6].words = &word;
    r.rows[6].word_lo = 2;
    r.rows[6].word_count = 1;
    return r;
  };
  std::vector<vertex_t> identity(100);
  for (vertex_t v = 0; v < 100; ++v) identity[v] = v;
  const Closure c = Closure::from_ragged(identity, std::vector<uint8_t>(100, 0), reach());
  EXPECT_EQ(c.pair_count(), 6u);
  EXPECT_TRUE(c.reaches(0, 77));
  EXPECT_TRUE(c.reaches(0, 2));
  EXPECT_FALSE(c.reaches(0, 41));
  EXPECT_TRUE(c.reaches(6, 66));
  std::vector<vertex_t> succ;
  c.successors(0, succ);
  EXPECT_EQ(succ, (std::vector<vertex_t>{1, 2, 40, 77}));
  EXPECT_EQ(c, Closure::from_sparse(identity, std::vector<uint8_t>(100, 0),
                                    [] {
                                      std::vector<uint64_t> o(101, 0);
                                      for (size_t i = 0; i < 100; ++i)
                                        o[i + 1] = o[i] + (i == 0 ? 4 : i == 5 || i == 6);
                                      return o;
                                    }(),
                                    {1, 2, 40, 77, 99, 66}));

  const std::vector<vertex_t> descending{77, 40}, beyond{100}, in_run{2};
  for (const auto* bad : {&descending, &beyond, &in_run}) {
    RaggedReach r = reach();
    r.rows[0].ids = bad->data();
    r.rows[0].id_count = uint32_t(bad->size());
    EXPECT_THROW(Closure::from_ragged(identity, std::vector<uint8_t>(100, 0), std::move(r)),
                 UsageError);
  }
  RaggedReach both = reach();
  both.rows[5].words = &word;
  both.rows[5].word_lo = 2;
  both.rows[5].word_count = 1;
  EXPECT_THROW(Closure::from_ragged(identity, std::vector<uint8_t>(100, 0), std::move(both)),
               UsageError);
}

// Hundreds of cycles of one to three vertices joined at random: rows dense enough to be
// bit windows, with many multi-vertex components among their bits (the weighted count
// walks only those); sparse's pair count against the classic bitsets, seed by seed.
TEST(HostClosure, WindowRowsWeighManyMultiVertexComponentsRight) {
  for (uint64_t seed : {1, 2, 3}) {
    std::mt19937_64 rng(seed);
    std::vector<Edge> edges;
    std::vector<vertex_t> first;  // each cycle's first vertex
    vertex_t n = 0;
    for (int c = 0; c < 400; ++c) {
      const vertex_t size = vertex_t(1 + rng() % 3);
      first.push_back(n);
      for (vertex_t i = 0; i + 1 < size; ++i) edges.emplace_back(n + i, n + i + 1);
      if (size > 1) edges.emplace_back(n + size - 1, n);
      n += size;
    }
    for (int e = 0; e < 1200; ++e) {
      size_t a = rng() % first.size(), b = rng() % first.size();
      if (a == b) continue;
      if (a > b) std::swap(a, b);
      edges.emplace_back(first[a], first[b]);
    }
    const Graph g(n, std::move(edges));
    EXPECT_EQ(closure_sparse(g).pair_count(), closure_classic(g).pair_count()) << seed;
  }
}

TEST(HostClosure, ManyMultiVertexComponentsCountPairsRight) {
  // 150 two-vertex cycles in a chain (plus side edges): more multi-vertex components
  // than the pair counter's bit-test shortcut takes, in every representation.
  constexpr size_t k = 150;
  std::vector<Edge> edges;
  for (size_t i = 0; i < k; ++i) {
    edges.emplace_back(vertex_t(2 * i), vertex_t(2 * i + 1));
    edges.emplace_back(vertex_t(2 * i + 1), vertex_t(2 * i));
    if (i + 1 < k) edges.emplace_back(vertex_t(2 * i + 1), vertex_t(2 * i + 2));
    if (i + 7 < k && i % 3 == 0) edges.emplace_back(vertex_t(2 * i), vertex_t(2 * i + 14));
  }
  const Graph g(2 * k, std::move(edges));
  // Vertex 2i reaches every vertex of cycles i..k-1: 2 * (k - i) each, two per cycle.
  uint64_t expected = 0;
  for (size_t i = 0; i < k; ++i) expected += 2 * 2 * (k - i);
  const Closure sparse = closure_sparse(g);
  EXPECT_EQ(sparse.pair_count(), expected);
  EXPECT_EQ(closure_classic(g).pair_count(), expected);
  const Condensation cond = condense(g);
  for (const WordOrder order : {WordOrder::kColumnMajor, WordOrder::kRowMajor}) {
    BitMatrix m(k, k, {32, 2}, order);
    std::vector<vertex_t> row;
    for (vertex_t c = 0; c < k; ++c) {
      sparse.component_successors(c, row);
      for (vertex_t d : row) m.set(c, d);
    }
    const Closure dense = Closure::from_dense(cond.scc.component_of, cond.scc.cyclic, std::move(m));
    EXPECT_EQ(dense.pair_count(), expected);
    EXPECT_TRUE(dense == sparse);
  }
}

TEST(HostClosure, GpuStyleComponentMatrixIsAccepted) {
  // The condensed DAG's closure with a zero diagonal in the device layout, padded.
  const Graph g(5, {{0, 1}, {1, 0}, {1, 2}, {2, 3}, {3, 3}});
  const Condensation cond = condense(g);
  const size_t k = cond.scc.component_count();
  BitMatrix m(k, k, {64, 4}, WordOrder::kColumnMajor);
  const Closure ref = closure_sparse(g);
  std::vector<vertex_t> row;
  for (vertex_t c = 0; c < k; ++c) {
    ref.component_successors(c, row);
    for (vertex_t d : row)
      if (d != c) m.set(c, d);
  }
  const Closure c = Closure::from_dense(cond.scc.component_of, cond.scc.cyclic, std::move(m));
  EXPECT_EQ(c.representation(), Closure::Representation::kDense);
  EXPECT_TRUE(c == ref);
  EXPECT_EQ(c.pairs(), closure_classic(g).pairs());
}

TEST(HostClosure, GrailPairCountsMatchTheReadme) {
  if (!std::filesystem::exists(kGrail)) GTEST_SKIP() << "no " << kGrail;
  const std::pair<const char*, uint64_t> known[] = {
      {"human_dag_uniq.gra", 348'111},     {"agrocyc_dag_uniq.gra", 170'590},
      {"arXiv_sub_6000-1.gra", 5'566'205}, {"citeseer_sub_10720.gra", 421'995},
      {"kegg_dag_uniq.gra", 2'637'217},    {"ba10k5d.gra", 4'159'295}};
  for (const auto& [name, pairs] : known) {
    const Graph g = read_gra(kGrail / name);
    EXPECT_EQ(closure_sparse(g).pair_count(), pairs) << name;
    EXPECT_EQ(closure_classic(g).pair_count(), pairs) << name;
  }
}

TEST(HostClosure, GrailSparseEqualsClassicOnAll) {
  if (!std::filesystem::exists(kGrail)) GTEST_SKIP() << "no " << kGrail;
  size_t files = 0;
  for (const auto& entry : std::filesystem::directory_iterator(kGrail)) {
    if (entry.path().extension() != ".gra") continue;
    const Graph g = read_gra(entry.path());
    const Closure sparse = closure_sparse(g), sparse2 = closure_sparse(g, {2});
    const Closure classic = closure_classic(g);
    EXPECT_TRUE(sparse == classic) << entry.path();
    EXPECT_TRUE(sparse2 == classic) << entry.path();
    ++files;
  }
  EXPECT_EQ(files, 17u);
}

}  // namespace
}  // namespace closure
