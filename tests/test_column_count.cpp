// Counting on the host by columns over live rows (column_count.hpp, what `closure G` with
// no output runs on deep graphs without a GPU): the slots are checked by replaying the
// sweep's reads and stores, and the counts against the sparse closure's (plain and
// weighted by component sizes) on random graphs with cycles and commit histories, for
// several slice widths and thread counts.
#include <gtest/gtest.h>

#include <algorithm>
#include <atomic>
#include <random>
#include <vector>

#include "bench/index_generators.hpp"
#include "closure/algorithms/column_count.hpp"
#include "closure/algorithms/cost_model.hpp"
#include "closure/algorithms/host_closure.hpp"
#include "closure/errors.hpp"
#include "closure/executor.hpp"
#include "closure/util/reuse_slots.hpp"
#include "condensed_counts.hpp"
#include "test_support.hpp"

namespace closure {
namespace {

using testing::Condensed;
using testing::condensed_of;
using testing::cross_pairs;
using testing::random_cyclic_graph;

TEST(ColumnCount, SlotsHoldEveryRowUntilItsLastReader) {
  std::mt19937_64 rng(12);
  for (size_t n : {1, 2, 33, 200, 1000})
    for (int round = 0; round < 5; ++round) {
      const Condensed c = condensed_of(random_cyclic_graph(rng, n));
      const SweepSlots s = sweep_slots(c.dag);
      const size_t C = s.slot.size();
      std::vector<uint32_t> held(s.slots, SweepSlots::kNone);
      for (size_t r = C; r-- > 0;) {
        for (uint64_t e = c.dag.offsets[r]; e < c.dag.offsets[r + 1]; ++e) {
          const size_t d = c.dag.targets[e];
          if (d == r + 1) continue;  // the row just closed
          ASSERT_NE(s.slot[d], SweepSlots::kNone) << "n=" << n << " row " << d;
          ASSERT_EQ(held[s.slot[d]], d) << "n=" << n << " row " << d << "'s slot was reused";
        }
        if (s.slot[r] != SweepSlots::kNone) held[s.slot[r]] = uint32_t(r);
      }
      // The same slots as the bucketed assignment (reuse_slots) gives by last readers.
      std::vector<uint32_t> last_reader(C, SweepSlots::kNone);
      for (size_t r = 0; r < C; ++r)
        for (uint64_t e = c.dag.offsets[r]; e < c.dag.offsets[r + 1]; ++e)
          if (c.dag.targets[e] != r + 1)
            last_reader[c.dag.targets[e]] = std::min(last_reader[c.dag.targets[e]], uint32_t(r));
      const ReusedSlots reused = reuse_slots(last_reader, 1);
      EXPECT_EQ(s.slot, reused.slot) << "n=" << n;
      EXPECT_EQ(s.slots, reused.slots) << "n=" << n;
    }
}

// last_readers() takes a row's lowest reader on threads, chunks meeting at a row by an
// atomic minimum: rows read from many chunks (hubs near the bottom), from one, from none,
// and by the row just above only, as one thread finds them in order.
// The pass stops where another thread has given it up (prepare_chain_count()'s covers in
// stretches stopping): 200,000 rows each read by the row two above it, every one stored
// when the pass runs through, the lowest left without a slot when it was given up first.
TEST(ColumnCount, ASweepGivenUpStopsEarly) {
  constexpr size_t C = 200000;
  CsrDag dag;
  dag.offsets.assign(C + 1, 0);
  for (size_t c = 0; c < C; ++c) {
    if (c + 2 < C) dag.targets.push_back(vertex_t(c + 2));
    dag.offsets[c + 1] = dag.targets.size();
  }
  std::atomic<bool> given_up{false};
  const SweepSlots all = sweep_slots(dag, &given_up);
  EXPECT_EQ(all.slot, sweep_slots(dag).slot);
  EXPECT_NE(all.slot[2], SweepSlots::kNone);
  given_up = true;
  const SweepSlots part = sweep_slots(dag, &given_up);
  EXPECT_EQ(part.slot[2], SweepSlots::kNone);
  EXPECT_NE(part.slot[C - 1], SweepSlots::kNone);
}

TEST(ColumnCount, LastReadersOnThreadsAreTheLowestReaders) {
  std::mt19937_64 rng(5);
  constexpr size_t kRows = 400000;
  std::vector<uint64_t> offsets{0};
  std::vector<vertex_t> targets;
  for (size_t c = 0; c < kRows; ++c) {
    std::vector<vertex_t> row;
    if (c + 1 < kRows && rng() % 2) row.push_back(vertex_t(c + 1));
    if (c + 7 < kRows && rng() % 3 == 0) row.push_back(vertex_t(c + 2 + rng() % 5));
    if (c + 1 < kRows - 16 && rng() % 5 == 0) row.push_back(vertex_t(kRows - 1 - rng() % 16));
    std::sort(row.begin(), row.end());
    row.erase(std::unique(row.begin(), row.end()), row.end());
    targets.insert(targets.end(), row.begin(), row.end());
    offsets.push_back(targets.size());
  }
  const CsrDag dag{offsets, targets};
  std::vector<uint32_t> want(kRows, SweepSlots::kNone);
  for (size_t c = 0; c < kRows; ++c)
    for (uint64_t e = offsets[c]; e < offsets[c + 1]; ++e)
      if (targets[e] != c + 1) want[targets[e]] = std::min(want[targets[e]], uint32_t(c));
  for (unsigned threads : {1u, 2u, 3u, 8u})
    with_thread_budget(threads, [&] {
      const LastReaders got = last_readers(dag);
      EXPECT_TRUE(std::equal(got.begin(), got.end(), want.begin(), want.end()))
          << threads << " threads";
    });
}

TEST(ColumnCount, EqualsSparseOnRandomCyclicGraphs) {
  std::mt19937_64 rng(20261202);
  int graphs = 0;
  for (size_t n : {1, 2, 3, 31, 32, 33, 64, 65, 97, 200, 700})
    for (int round = 0; round < 8; ++round, ++graphs) {
      const Graph g = random_cyclic_graph(rng, n);
      const Condensed c = condensed_of(g);
      const uint64_t expect = cross_pairs(g, c);
      const size_t slice = graphs % 3 == 0 ? 1 : graphs % 3 == 1 ? 3 : 0;
      const unsigned threads = 1 + graphs % 2;
      EXPECT_EQ(count_closure_by_columns(c.dag, c.sizes, threads, slice), expect)
          << "n=" << n << " round " << round << " slice " << slice;
    }
}

TEST(ColumnCount, EqualsSparseOnCommitHistories) {
  for (uint64_t seed : {1, 2}) {
    const Graph g = commit_history_dag(5000 + 101 * seed, seed);
    const Condensed c = condensed_of(g);
    const uint64_t expect = closure_sparse(g).pair_count();
    for (size_t slice : {0, 1, 5, 64})
      for (unsigned threads : {1u, 2u})
        EXPECT_EQ(count_closure_by_columns(c.dag, {}, threads, slice), expect)
            << "seed " << seed << " slice " << slice << " threads " << threads;
    const SweepSlots s = sweep_slots(c.dag);
    EXPECT_LT(s.slots, c.sizes.size() / 10) << "a history's live rows are its width";
  }
}

// Rows that reach near ids only (disjoint pairs, short hops; a road network's rows reach a
// few words past their own), now and then a low row that reaches far: each slice's sweep
// stops at the lowest row reaching its columns, the far row pulling that bound down for
// every slice up to its reach, and the count is sparse's.
TEST(ColumnCount, SweepsStopAtTheLowestRowReachingEachSlice) {
  std::mt19937_64 rng(20261205);
  for (size_t n : {2, 65, 200, 1000, 3000})
    for (int round = 0; round < 6; ++round) {
      std::vector<Edge> edges;
      std::uniform_int_distribution<size_t> hop(1, round < 2 ? 1 : 40);
      for (size_t u = 0; u + 1 < n; u += round == 0 ? 2 : 1)
        if (round == 0 || rng() % 3 == 0)
          edges.emplace_back(vertex_t(u), vertex_t(std::min(n - 1, u + hop(rng))));
      if (round % 2 && n > 2) edges.emplace_back(vertex_t(rng() % (n / 2)), vertex_t(n - 1));
      const Graph g(n, std::move(edges));  // ids topological: the CSR as the condensation's
      CsrDag dag;
      dag.offsets.assign(g.offsets().begin(), g.offsets().end());
      for (vertex_t u = 0; u < n; ++u)
        for (const vertex_t v : g.successors(u)) dag.targets.push_back(v);
      const uint64_t expect = closure_sparse(g).pair_count();
      for (size_t slice : {1, 2, 0})
        for (unsigned threads : {1u, 2u})
          EXPECT_EQ(count_closure_by_columns(dag, {}, threads, slice), expect)
              << "n=" << n << " round " << round << " slice " << slice << " threads " << threads;
    }
}

// The cost model (cost_model.hpp) says when the count pays: on the 200k-commit history
// (180 live rows, 3,700 words a row), not on a sparse random graph reaching 5 each.
TEST(ColumnCount, PaysOnDeepHistoriesNotOnShallowGraphs) {
  auto inputs = [](size_t C, size_t E, size_t live, double row) {
    CostInputs in;
    in.vertices = in.components = C;
    in.edges = in.condensed_edges = E;
    in.mean_reach = 32 * row;
    in.row_words = in.span_words = row;
    in.levels = C / 2;
    in.live_rows = live;
    in.count_only = true;
    in.host_threads = 2;
    return in;
  };
  const CostInputs history = inputs(200000, 237000, 180, 3700);
  EXPECT_LT(predict_host_column_count_s(history), predict_host_sparse_s(history));
  const CostInputs sparse_graph = inputs(243000, 250000, 50000, 5);
  EXPECT_GT(predict_host_column_count_s(sparse_graph), predict_host_sparse_s(sparse_graph));
  const CsrDag bad{{0, 1, 1}, {0}};  // 0 -> 0: not topological
  EXPECT_THROW(sweep_slots(bad), InternalError);
}

// auto's sampled reach (cost_model.cpp) runs its 16 searches on this thread while they are
// small and on the thread budget past that: the mean must not depend on where each ran, nor
// on the budget. A chain's searches are long (on threads); a star's tiny (here); a history's
// in between. Each mean is checked against searches done here, one by one, by definition.
TEST(ColumnCount, SampledReachIsTheSameOnOneThreadOrMany) {
  std::vector<Edge> chain, star;
  for (vertex_t v = 0; v + 1 < 300000; ++v) chain.emplace_back(v, v + 1);
  for (vertex_t v = 1; v < 5000; ++v) star.emplace_back(0, v);
  for (const Graph& g : {Graph(300000, chain), Graph(5000, star), commit_history_dag(60000, 3)}) {
    const Condensed c = condensed_of(g);
    const size_t n = c.dag.offsets.size() - 1;
    for (size_t cap : {size_t{0}, size_t{100}}) {
      // By definition: each sample's reach, searched alone, capped.
      double expect = 0;
      const size_t samples = std::min<size_t>(16, n);
      for (size_t k = 0; k < samples; ++k) {
        const vertex_t s = vertex_t((2 * k + 1) * n / (2 * samples));
        std::vector<uint8_t> seen(n, 0);
        std::vector<vertex_t> stack{s};
        seen[s] = 1;
        size_t count = 0;
        while (!stack.empty() && (cap == 0 || count < cap)) {
          const vertex_t u = stack.back();
          stack.pop_back();
          for (uint64_t e = c.dag.offsets[u]; e < c.dag.offsets[u + 1]; ++e)
            if (!seen[c.dag.targets[e]]) {
              seen[c.dag.targets[e]] = 1;
              ++count;
              stack.push_back(c.dag.targets[e]);
            }
        }
        expect += double(cap ? std::min(count, cap) : count);
      }
      expect /= double(samples);
      for (unsigned threads : {1u, 2u, 4u}) {
        double got = -1;
        with_thread_budget(threads, [&] { got = sample_mean_reach(c.dag, 16, cap); });
        EXPECT_EQ(got, expect) << "n " << n << " cap " << cap << " threads " << threads;
      }
    }
  }
}

}  // namespace
}  // namespace closure
