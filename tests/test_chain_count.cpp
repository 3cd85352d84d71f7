// Counting by chains (chain_count.hpp): the cover is checked by definition (each component
// reaches the one before it on its chain, the weights are running sums of sizes), and the
// count against the sparse closure's on random graphs with cycles (weighted by component
// sizes), commit histories, and an antichain of paths wider than the 64 tracked chains, for
// one and two threads.
#include <gtest/gtest.h>

#include <algorithm>
#include <optional>
#include <random>
#include <span>
#include <utility>

#include "bench/index_generators.hpp"
#include "closure/algorithms/chain_count.hpp"
#include "closure/algorithms/cost_model.hpp"
#include "closure/algorithms/host_closure.hpp"
#include "closure/engine/compute.hpp"
#include "closure/errors.hpp"
#include "closure/executor.hpp"
#include "condensed_counts.hpp"
#include "test_support.hpp"

namespace closure {
namespace {

using testing::Condensed;
using testing::condensed_of;
using testing::cross_pairs;
using testing::random_cyclic_graph;

bool reaches(const CsrDag& dag, uint32_t from, uint32_t to) {
  std::vector<uint8_t> seen(dag.offsets.size() - 1, 0);
  std::vector<uint32_t> stack{from};
  while (!stack.empty()) {
    const uint32_t u = stack.back();
    stack.pop_back();
    for (uint64_t e = dag.offsets[u]; e < dag.offsets[u + 1]; ++e) {
      const uint32_t d = dag.targets[e];
      if (d == to) return true;
      if (!seen[d]) seen[d] = 1, stack.push_back(d);
    }
  }
  return false;
}

// By definition: chains in the order of their first components (descending), each
// component after the first reaching the one before it, its weight the running sum.
void expect_valid_cover(const Condensed& c, const ChainCover& cover) {
  const size_t C = c.sizes.size();
  ASSERT_EQ(cover.chain.size(), C);
  std::vector<uint32_t> last(cover.chains(), SweepSlots::kNone);
  for (size_t k = 1; k < cover.chains(); ++k) EXPECT_GT(cover.first[k - 1], cover.first[k]);
  for (size_t v = C; v-- > 0;) {
    const uint32_t k = cover.chain[v];
    ASSERT_LT(k, cover.chains());
    if (last[k] == SweepSlots::kNone) {
      EXPECT_EQ(cover.first[k], v);
      EXPECT_EQ(cover.through[v], c.sizes[v]);
    } else {
      EXPECT_TRUE(reaches(c.dag, uint32_t(v), last[k])) << v << " does not reach " << last[k];
      EXPECT_EQ(cover.through[v], cover.through[last[k]] + c.sizes[v]);
    }
    last[k] = uint32_t(v);
  }
}

// The cover with the live rows' slots taken as it goes: once it is made, they are
// sweep_slots()'s (which ColumnCount's tests replay).
struct Covered {
  std::optional<ChainCover> cover;
  SweepSlots slots;
};
Covered cover_of(const CsrDag& dag, std::span<const uint32_t> sizes, size_t most_chains) {
  SlotSweep sweep(dag);
  Covered out{cover_by_chains(dag, sizes, sweep, most_chains), {}};
  out.slots = std::move(sweep).finish();
  if (out.cover) {
    const SweepSlots want = sweep_slots(dag);
    EXPECT_EQ(out.slots.slot, want.slot);
    EXPECT_EQ(out.slots.slots, want.slots);
  }
  return out;
}

TEST(ChainCount, CoverIsValidAndCountEqualsSparseOnRandomCyclicGraphs) {
  std::mt19937_64 rng(20261205);
  int graphs = 0;
  for (size_t n : {1, 2, 3, 31, 32, 33, 64, 65, 97, 200, 700})
    for (int round = 0; round < 6; ++round, ++graphs) {
      const Graph g = random_cyclic_graph(rng, n);
      const Condensed c = condensed_of(g);
      const auto [cover, slots] = cover_of(c.dag, c.sizes, n + 1);
      ASSERT_TRUE(cover) << "n=" << n;
      if (n <= 200) expect_valid_cover(c, *cover);
      const uint64_t expect = cross_pairs(g, c);
      for (unsigned threads : {1u, 2u})
        EXPECT_EQ(count_closure_by_chains(c.dag, c.sizes, *cover, slots, threads), expect)
            << "n=" << n << " round " << round << " threads " << threads;
    }
}

TEST(ChainCount, EqualsSparseOnCommitHistoriesWithFewChains) {
  for (uint64_t seed : {1, 2}) {
    const Graph g = commit_history_dag(20000 + 101 * seed, seed);
    const Condensed c = condensed_of(g);
    const auto [cover, slots] = cover_of(c.dag, {}, 1000);
    ASSERT_TRUE(cover);
    EXPECT_LT(cover->chains(), 200u) << "a history's chains are about its width";
    expect_valid_cover(c, *cover);
    const uint64_t expect = closure_sparse(g).pair_count();
    for (unsigned threads : {1u, 2u, 3u})
      EXPECT_EQ(count_closure_by_chains(c.dag, {}, *cover, slots, threads), expect)
          << "seed " << seed << " threads " << threads;
  }
}

// 150 paths of 40 vertices side by side, each vertex also reaching a random vertex of
// another path further on: 150 chains open at once, more than the 64 tracked, so columns
// are taken back and zeroed while rows still hold them.
TEST(ChainCount, MoreChainsThanTrackedStayExact) {
  std::mt19937_64 rng(7);
  constexpr vertex_t kPaths = 150, kLength = 40;
  std::vector<Edge> edges;
  auto id = [](vertex_t path, vertex_t step) { return step * kPaths + path; };
  for (vertex_t p = 0; p < kPaths; ++p)
    for (vertex_t s = 0; s + 1 < kLength; ++s) {
      edges.emplace_back(id(p, s), id(p, s + 1));
      if (rng() % 3 == 0) edges.emplace_back(id(p, s), id(vertex_t(rng() % kPaths), s + 1));
    }
  const Graph g(kPaths * kLength, edges);
  const Condensed c = condensed_of(g);
  const auto [cover, slots] = cover_of(c.dag, {}, kPaths * kLength);
  ASSERT_TRUE(cover);
  EXPECT_GE(cover->chains(), kPaths);
  expect_valid_cover(c, *cover);
  const uint64_t expect = closure_sparse(g).pair_count();
  for (unsigned threads : {1u, 2u})
    EXPECT_EQ(count_closure_by_chains(c.dag, {}, *cover, slots, threads), expect);
  // A bound under the chains needed stops the cover.
  EXPECT_FALSE(cover_of(c.dag, {}, kPaths - 1).cover);
}

// A wide graph: layers of 1,000 components with no edges within a layer (so every layer
// is an antichain: 1,000 chains at least), each reaching the next layer twice, so about
// 1,000 rows are live. Its cover stops, however many chains the caller allows, at 64 +
// 64 (components + edges) / live rows (about 512 here): past that, zeroing the taken back
// columns in every live row would cost more than the pass. Narrower, it is made.
TEST(ChainCount, AWideCoverStopsWithinItsPassesWork) {
  std::mt19937_64 rng(11);
  for (const vertex_t width : {vertex_t{100}, vertex_t{1000}}) {
    constexpr vertex_t kLayers = 3;
    std::vector<Edge> edges;
    for (vertex_t l = 0; l + 1 < kLayers; ++l)
      for (vertex_t i = 0; i < width; ++i) {
        edges.emplace_back(l * width + i, (l + 1) * width + i);
        edges.emplace_back(l * width + i, (l + 1) * width + vertex_t(rng() % width));
      }
    const Graph g(kLayers * width, edges);
    const Condensed c = condensed_of(g);
    const auto [cover, slots] = cover_of(c.dag, {}, kLayers * width);
    const size_t bound = kTrackedChains + kTrackedChains *
                                              (c.dag.offsets.size() - 1 + c.dag.targets.size()) /
                                              std::max<size_t>(1, slots.slots);
    if (width == 1000) {
      EXPECT_LT(bound, 1000u);
      EXPECT_FALSE(cover) << "bound " << bound;
      continue;
    }
    ASSERT_TRUE(cover) << "bound " << bound;
    EXPECT_GE(cover->chains(), width);
    expect_valid_cover(c, *cover);
    EXPECT_EQ(count_closure_by_chains(c.dag, {}, *cover, slots, 2), closure_sparse(g).pair_count());
  }
}

// Through the front door: `closure G` with no output on a history of 150k commits counts by
// chains (the cost model predicts the cover paying; the report says how many), to the count
// by columns; on a random DAG, whose cover would pass most_chains_worth_counting() or not
// pay, by columns or sparse.
TEST(ChainCount, CountingAloneGoesByChainsOnAHistoryNotOnARandomGraph) {
  const Graph history = commit_history_dag(150000, 5);
  std::mt19937 rng(9);
  std::uniform_int_distribution<int> v(0, 19999);
  std::vector<Edge> edges;
  for (int i = 0; i < 80000; ++i) {
    const int a = v(rng), b = v(rng);
    if (a != b) edges.emplace_back(vertex_t(std::min(a, b)), vertex_t(std::max(a, b)));
  }
  const Graph random(20000, std::move(edges));
  for (const Graph* g : {&history, &random}) {
    const Condensed c = condensed_of(*g);
    const uint64_t expect = count_closure_by_columns(c.dag, {});
    ComputeOptions o;
    o.method = Method::kSparse;
    o.propagate.rows_needed = false;
    ComputeReport report;
    EXPECT_EQ(compute_closure(*g, o, &report).pair_count(), expect);
    const bool by_chains = report.reason.find(" chains over live rows") != std::string::npos;
    EXPECT_EQ(by_chains, g == &history) << report.reason;
  }
}

// A count whose condensation is large (kFinerInputsBesideFrom components and edges) and
// reaches far leaves the row estimate and the longest path to be gathered beside the chain
// cover: auto's inputs come back deferred, not completed; the count (auto, by chains) is
// exact, as columns count it. Bench's inputs (uncapped) and a graph that reaches little
// (600,000 disjoint edges) are completed at once.
TEST(ChainCount, FarReachingCountsGatherTheirFinerInputsBesideTheCover) {
  const Graph history = commit_history_dag(500000, 7);
  const Condensed c = condensed_of(history);
  const Condensation condensed = condense(history);
  ASSERT_GE(condensed.component_count() + condensed.dag.targets.size(), kFinerInputsBesideFrom);
  CostInputs in = gather_cost_inputs(history, condensed, true, 2);
  ASSERT_GE(in.mean_reach, kFinerInputsBesideReach);
  EXPECT_TRUE(in.deferred);
  EXPECT_FALSE(in.completed);
  EXPECT_LT(in.row_words, 0);
  complete_cost_inputs(in, condensed);
  EXPECT_TRUE(in.completed);
  EXPECT_GE(in.row_words, 0);
  EXPECT_GT(in.levels, 0u);
  const CostInputs bench = gather_cost_inputs(history, condensed, true, 2, false);
  EXPECT_FALSE(bench.deferred);
  EXPECT_TRUE(bench.completed);

  ComputeOptions o;
  o.propagate.rows_needed = false;
  ComputeReport report;
  EXPECT_EQ(compute_closure(history, o, &report).pair_count(), count_closure_by_columns(c.dag, {}));
  EXPECT_NE(report.reason.find(" chains over live rows"), std::string::npos) << report.reason;

  std::vector<Edge> pairs;
  for (vertex_t i = 0; i < 600000; ++i) pairs.emplace_back(2 * i, 2 * i + 1);
  const Graph disjoint(1200000, std::move(pairs));
  const Condensation d = condense(disjoint);
  const CostInputs little = gather_cost_inputs(disjoint, d, true, 2);
  EXPECT_FALSE(little.deferred);
  EXPECT_TRUE(little.completed);
}

// The chains' stored rows are held to half the memory left after sparse's fixed part
// (88 bytes a vertex and 12 an edge, propagation_runs.cpp): with room for only a
// quarter of them the same history is counted by columns, to the same count.
TEST(ChainCount, ChainRowsPastHalfTheRoomLeftGoByColumns) {
  const Graph history = commit_history_dag(150000, 5);
  const Condensation c = condense(history);
  const std::optional<ChainCounting> chains =
      prepare_chain_count(c.dag, {}, most_chains_worth_counting(c.component_count()));
  ASSERT_TRUE(chains);
  const size_t rows = chains->slots.slots * chains->cover.chains() * sizeof(uint32_t);
  const size_t fixed = 88 * history.vertex_count() + 12 * history.edge_count();
  ComputeOptions o;
  o.method = Method::kSparse;
  o.propagate.rows_needed = false;
  const uint64_t expect = compute_closure(history, o).pair_count();
  for (const size_t room : {rows / 4, 4 * rows}) {
    o.host_memory_limit = fixed + room;
    ComputeReport report;
    EXPECT_EQ(compute_closure(history, o, &report).pair_count(), expect) << room;
    const bool by_chains = report.reason.find(" chains over live rows") != std::string::npos;
    EXPECT_EQ(by_chains, room > rows) << report.reason;
  }
}

TEST(ChainCount, GenerationIdsAreTopologicalAndCarryTheSizes) {
  std::mt19937_64 rng(31);
  for (size_t n : {1, 33, 300}) {
    const Condensed c = condensed_of(random_cyclic_graph(rng, n));
    const RelabelledDag r = generation_ids(c.dag, c.sizes);
    ASSERT_EQ(r.dag.offsets.size(), c.dag.offsets.size());
    ASSERT_EQ(r.dag.targets.size(), c.dag.targets.size());
    uint64_t size_sum = 0, before = 0;
    for (uint32_t s : r.sizes) size_sum += s;
    for (uint32_t s : c.sizes) before += s;
    EXPECT_EQ(size_sum, before);
    for (size_t x = 0; x + 1 < r.dag.offsets.size(); ++x)
      for (uint64_t e = r.dag.offsets[x]; e < r.dag.offsets[x + 1]; ++e)
        EXPECT_LT(x, r.dag.targets[e]);
    EXPECT_EQ(count_closure_by_chains(r.dag, r.sizes, n + 1),
              count_closure_by_chains(c.dag, c.sizes, n + 1));
  }
}

// Past 2^18 components a stretch, the sort by generation runs on threads, each placing its
// own stretch of ids. Ties must keep their id order, so the relabelling is the one a single
// thread makes, bit for bit: a 600,000-commit history (2 stretches), and a path of
// 2,000,000 levels, every tenth of two components (2.2M components, 2M generations), which
// 3 and 8 threads sort in buckets of 4 and 8 generations first (more stretches times
// generations than components), each bucket then by 2 and 3 low bits.
TEST(ChainCount, GenerationIdsOnThreadsAreThoseOfOneThread) {
  const Graph history = commit_history_dag(600000, 3);
  const Condensed c = condensed_of(history);
  RelabelledDag one;
  with_thread_budget(1, [&] { one = generation_ids(c.dag, c.sizes); });
  // Its offsets are summed in chunks of 2^18 rows: each row's length is kept across them,
  // every edge still goes forward, and the count is the condensation's.
  ASSERT_EQ(one.dag.offsets.back(), c.dag.targets.size());
  std::vector<uint64_t> lengths_before, lengths_after;
  for (size_t x = 0; x + 1 < one.dag.offsets.size(); ++x) {
    ASSERT_LE(one.dag.offsets[x], one.dag.offsets[x + 1]) << x;
    lengths_before.push_back(c.dag.offsets[x + 1] - c.dag.offsets[x]);
    lengths_after.push_back(one.dag.offsets[x + 1] - one.dag.offsets[x]);
    for (uint64_t e = one.dag.offsets[x]; e < one.dag.offsets[x + 1]; ++e)
      ASSERT_LT(x, one.dag.targets[e]);
  }
  std::sort(lengths_before.begin(), lengths_before.end());
  std::sort(lengths_after.begin(), lengths_after.end());
  EXPECT_EQ(lengths_after, lengths_before);
  const std::optional<uint64_t> counted = count_closure_by_chains(one.dag, one.sizes, 4096);
  ASSERT_TRUE(counted.has_value());
  EXPECT_EQ(counted, count_closure_by_chains(c.dag, c.sizes, 4096));
  {
    RelabelledDag many;
    with_thread_budget(2, [&] { many = generation_ids(c.dag, c.sizes); });
    EXPECT_EQ(many.dag.offsets, one.dag.offsets);
    EXPECT_EQ(many.dag.targets, one.dag.targets);
    EXPECT_EQ(many.sizes, one.sizes);
  }
  // The path with ties: level i's components (one, or two where i % 10 == 3) each reach
  // every component of level i + 1; ids scattered by condense().
  const size_t levels = 2000000;
  std::vector<Edge> edges;
  vertex_t next = 0, level_begin = 0;
  for (size_t i = 0; i < levels; ++i) {
    const vertex_t width = i % 10 == 3 ? 2 : 1, begin = next;
    next += width;
    if (i > 0)
      for (vertex_t a = level_begin; a < begin; ++a)
        for (vertex_t b = begin; b < next; ++b) edges.emplace_back(a, b);
    level_begin = begin;
  }
  const Condensed ties = condensed_of(Graph(next, std::move(edges)));
  with_thread_budget(1, [&] { one = generation_ids(ties.dag, ties.sizes); });
  for (unsigned threads : {3u, 8u}) {
    RelabelledDag many;
    with_thread_budget(threads, [&] { many = generation_ids(ties.dag, ties.sizes); });
    EXPECT_EQ(many.dag.offsets, one.dag.offsets) << threads << " threads, path with ties";
    EXPECT_EQ(many.dag.targets, one.dag.targets) << threads << " threads, path with ties";
  }
}

// Covered in stretches on threads and joined, the cover is still a cover (each component
// reaching the one before it on its chain, the weights running sums), and counts the same
// with sweep_slots()'s rows: histories, random graphs with cycles (weighted), and more
// stretches than components. One stretch is the one pass, chain for chain.
TEST(ChainCount, ACoverInStretchesIsACoverAndCountsTheSame) {
  std::vector<std::pair<Graph, uint64_t>> graphs;
  for (uint64_t seed : {1, 2}) {
    Graph g = commit_history_dag(20000 + 101 * seed, seed);
    const uint64_t expect = closure_sparse(g).pair_count();
    graphs.emplace_back(std::move(g), expect);
  }
  std::mt19937_64 rng(20261206);
  for (size_t n : {1, 2, 5, 33, 97, 700}) {
    Graph g = random_cyclic_graph(rng, n);
    const Condensed c = condensed_of(g);
    const uint64_t expect = cross_pairs(g, c);
    graphs.emplace_back(std::move(g), expect);
  }
  for (const auto& [g, expect] : graphs) {
    const Condensed c = condensed_of(g);
    const size_t C = c.sizes.size(), most = C + 1;
    const SweepSlots slots = sweep_slots(c.dag);
    const std::optional<ChainCover> one = cover_of(c.dag, c.sizes, most).cover;
    ASSERT_TRUE(one);
    for (size_t stretches : {size_t{1}, size_t{2}, size_t{3}, size_t{7}, C + 5}) {
      const std::optional<ChainCover> cover =
          cover_by_chains_in_stretches(c.dag, c.sizes, most, stretches);
      ASSERT_TRUE(cover) << C << " components, " << stretches << " stretches";
      if (C <= 1000) expect_valid_cover(c, *cover);
      if (stretches == 1) {
        EXPECT_EQ(cover->chain, one->chain);
        EXPECT_EQ(cover->through, one->through);
        EXPECT_EQ(cover->first, one->first);
      }
      for (unsigned threads : {1u, 3u})
        EXPECT_EQ(count_closure_by_chains(c.dag, c.sizes, *cover, slots, threads), expect)
            << C << " components, " << stretches << " stretches, " << threads << " threads";
    }
  }
}

// A history's stretches join their chains: some run through two stretches or more (each
// stretch alone would start its own), and here no fewer than the one pass's; a bound under
// the joined chains stops the cover, one at them does not.
TEST(ChainCount, StretchesOfAHistoryJoinTheirChains) {
  const Condensed c = condensed_of(commit_history_dag(20000, 4));
  const size_t C = c.sizes.size();
  const std::optional<ChainCover> one = cover_of(c.dag, {}, C).cover;
  const std::optional<ChainCover> joined = cover_by_chains_in_stretches(c.dag, {}, C, 7);
  ASSERT_TRUE(one && joined);
  std::vector<std::vector<bool>> in_stretch(joined->chains(), std::vector<bool>(7, false));
  for (size_t p = 0; p < 7; ++p)  // stretch p: [C p / 7, C (p + 1) / 7)
    for (size_t v = C * p / 7; v < C * (p + 1) / 7; ++v) in_stretch[joined->chain[v]][p] = true;
  size_t across = 0, widest = 0;
  for (const auto& stretches : in_stretch) {
    const size_t n = size_t(std::count(stretches.begin(), stretches.end(), true));
    across += n > 1;
    widest = std::max(widest, n);
  }
  EXPECT_GE(across, 5u);  // 9 at this seed; none without the join
  EXPECT_GE(widest, 2u);
  EXPECT_GE(joined->chains(), one->chains());
  EXPECT_FALSE(cover_by_chains_in_stretches(c.dag, {}, joined->chains() - 1, 7));
  EXPECT_TRUE(cover_by_chains_in_stretches(c.dag, {}, joined->chains(), 7));
}

// The join takes the longest chain whose top is a successor: 0 -> 6 and 0 -> 11, where
// the lower stretch [6, 12) holds the path 6 -> ... -> 10 (5 vertices up to its top 6) and
// 11 alone; 0 continues the path (6 vertices through it), not 11's chain (2).
TEST(ChainCount, AStretchJoinsTheLongestChainWhoseTopIsASuccessor) {
  const CsrDag dag{{0, 2, 2, 2, 2, 2, 2, 3, 4, 5, 6, 6, 6}, {6, 11, 7, 8, 9, 10}};
  const std::optional<ChainCover> cover = cover_by_chains_in_stretches(dag, {}, 12, 2);
  ASSERT_TRUE(cover);
  EXPECT_EQ(cover->chain[0], cover->chain[6]);
  EXPECT_EQ(cover->through[0], 6u);
  EXPECT_NE(cover->chain[0], cover->chain[11]);
  EXPECT_EQ(cover->chains(), 7u);  // the path and 0; 11; 1..5 alone
}

// A stretch whose own cover gives up ends the whole: a path of 2,000 then 2,000 components
// without edges, in 2 stretches under a bound of 100 chains (the path's stretch needs 1,
// the other 2,000), by either entry; an order that is not topological is refused.
TEST(ChainCount, AStretchThatGivesUpStopsTheCover) {
  constexpr size_t kPath = 2000, C = 2 * kPath;
  CsrDag dag;
  dag.offsets.assign(C + 1, 0);
  for (size_t c = 0; c < C; ++c) {
    if (c + 1 < kPath) dag.targets.push_back(vertex_t(c + 1));
    dag.offsets[c + 1] = dag.targets.size();
  }
  EXPECT_FALSE(cover_by_chains_in_stretches(dag, {}, 100, 2));
  with_thread_budget(3, [&] { EXPECT_FALSE(prepare_chain_count(dag, {}, 100, 2)); });
  ASSERT_TRUE(cover_by_chains_in_stretches(dag, {}, C, 2));
  EXPECT_EQ(cover_by_chains_in_stretches(dag, {}, C, 2)->chains(), kPath + 1);
  const CsrDag backwards{{0, 0, 1}, {0}};  // 1 -> 0
  const CsrDag beyond{{0, 1, 1}, {7}};     // 0 -> 7, of 2 components
  for (const CsrDag* bad : {&backwards, &beyond})
    for (size_t stretches : {1, 2})
      EXPECT_THROW(cover_by_chains_in_stretches(*bad, {}, 10, stretches), InternalError);
}

// prepare_chain_count() in stretches takes the live rows' slots on a thread beside them:
// sweep_slots()'s, and the count is the one pass's.
TEST(ChainCount, PreparedInStretchesCountsAsOnePass) {
  const Condensed c = condensed_of(commit_history_dag(30000, 6));
  const size_t most = most_chains_worth_counting(c.sizes.size());
  const std::optional<ChainCounting> one = prepare_chain_count(c.dag, {}, most, 1);
  ASSERT_TRUE(one);
  for (size_t stretches : {2, 5}) {
    std::optional<ChainCounting> many;
    with_thread_budget(3, [&] { many = prepare_chain_count(c.dag, {}, most, stretches); });
    ASSERT_TRUE(many) << stretches;
    const SweepSlots want = sweep_slots(many->ids.dag);
    EXPECT_EQ(many->slots.slot, want.slot);
    EXPECT_EQ(many->slots.slots, want.slots);
    EXPECT_EQ(count_closure_by_chains(*many), count_closure_by_chains(*one)) << stretches;
  }
  // Past the bound, the stretches stop and so does the pass beside them.
  EXPECT_FALSE(prepare_chain_count(c.dag, {}, one->cover.chains() / 2, 5));
}

// The cost model weighs the chains once the cover has counted them: on a 10M-commit
// history's inputs (1,880 chains, as measured) the count by chains is the host's best and
// is named; with the chains unknown it is never predicted.
TEST(ChainCount, TheCostModelCountsByChainsOnlyOnceTheyAreKnown) {
  CostInputs in;
  in.vertices = in.components = 10'000'000;
  in.edges = in.condensed_edges = 11'864'278;
  in.mean_reach = 5'000'000;
  in.count_only = true;
  in.host_threads = 16;
  in.live_rows = 1816;
  EXPECT_GT(predict_host_chain_count_s(in), 1e29);
  in.chains = 1880;
  const double chains_s = predict_host_chain_count_s(in);
  EXPECT_LT(chains_s, predict_host_column_count_s(in) / 10);
  EXPECT_EQ(predict_host_s(in), chains_s);
  EXPECT_NE(describe_costs(in, chains_s, 2.0).find("count by 1880 chains"), std::string::npos);
  in.count_only = false;  // rows wanted: no count at all
  EXPECT_GT(predict_host_chain_count_s(in), 1e29);
}

TEST(ChainCount, RefusesAnOrderThatIsNotTopological) {
  const CsrDag bad{{0, 1, 1}, {0}};  // 0 -> 0
  EXPECT_THROW(cover_of(bad, {}, 10), InternalError);
}

}  // namespace
}  // namespace closure
