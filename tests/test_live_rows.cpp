// Counting without keeping the closure (PropagateParams::live_rows, what `closure G` runs
// on a device without an output): the slots live_row_slots gives rows are checked by
// replaying the chained sweep's loads and stores on the host, and the device's counts
// against the host's sparse closure on random graphs, commit histories and forced slices.
#include <gtest/gtest.h>

#include <random>

#include "bench/index_generators.hpp"
#include "closure/algorithms/cost_model.hpp"
#include "closure/algorithms/host_closure.hpp"
#include "closure/engine/device_propagation.hpp"
#include "test_support.hpp"

namespace closure {
namespace {

using testing::random_cyclic_graph;

CsrDag condensed(const Graph& g) {
  const SccResult scc = strongly_connected_components(g);
  return condensation_csr(g, scc);
}

// Replays the sweep's memory traffic block by block from the top: block k first loads
// the rows it reads from global memory (kernels/propagate.cl: prefetched items beyond the
// block closed before, other items but the row just closed), then stores its rows with
// slots. Every load must find the row it wants in that row's slot.
void expect_slots_hold_every_read(const CsrDag& dag, size_t prefetch, const std::string& what) {
  const ChainedBlocks b = chained_blocks(dag, prefetch);
  const LiveRowSlots live = live_row_slots(b);
  const size_t C = b.masks.size(), B = ChainedBlocks::kRows, blocks = b.ext_offsets.size() - 1;
  std::vector<uint32_t> held(live.slots, ChainedBlocks::kNone);  // the row a slot holds
  size_t stored = 0;
  auto load = [&](size_t d) {
    ASSERT_LT(d, C) << what;
    ASSERT_NE(live.slot[d], ChainedBlocks::kNone) << what << ": row " << d << " has no slot";
    ASSERT_EQ(held[live.slot[d]], d) << what << ": row " << d << "'s slot was reused";
  };
  for (size_t k = blocks; k-- > 0;) {
    const size_t end = std::min(k * B + B, C);
    for (size_t i = 0; i < prefetch; ++i) {
      const auto& [at, d] = b.first[k * prefetch + i];
      if (at < B && d >= end + B) load(d);
    }
    for (uint64_t e = b.ext_offsets[k]; e < b.ext_offsets[k + 1]; ++e)
      if (b.ext_items[e][1] != end) load(b.ext_items[e][1]);
    for (size_t c = k * B; c < end; ++c)
      if (live.slot[c] != ChainedBlocks::kNone) {
        held[live.slot[c]] = uint32_t(c);
        ++stored;
      }
  }
  EXPECT_LE(live.slots, stored) << what;
}

TEST(LiveRows, SlotsHoldEveryRowUntilItsLastReader) {
  std::mt19937_64 rng(20261202);
  for (size_t n : {1, 31, 32, 33, 64, 65, 200, 1000})
    for (int round = 0; round < 6; ++round)
      for (size_t prefetch : {1, 8})
        expect_slots_hold_every_read(condensed(random_cyclic_graph(rng, n)), prefetch,
                                     "random n=" + std::to_string(n));
  for (uint64_t seed : {1, 2, 3}) {
    const CsrDag dag = condensed(commit_history_dag(20000, seed));
    expect_slots_hold_every_read(dag, 8, "history seed " + std::to_string(seed));
    // A history's live rows are its width: far fewer than its commits.
    const LiveRowSlots live = live_row_slots(chained_blocks(dag));
    EXPECT_LT(live.slots, 20000u / 10) << "seed " << seed;
  }
}

// The cost model counts the sweep's block items (the loads past each block's prefetched 8)
// without making the blocks: its count must be the ext items chained_blocks() makes, on
// awkward sizes around the block of 32, random graphs, commit histories and a dense DAG.
TEST(LiveRows, TheCostModelCountsTheSweepsBlockItems) {
  std::mt19937_64 rng(20261206);
  auto expect_same = [](const CsrDag& dag, const std::string& what) {
    EXPECT_EQ(count_block_items(dag), chained_blocks(dag).ext_items.size()) << what;
  };
  for (size_t n : {1, 31, 32, 33, 64, 65, 200, 1000, 5000})
    for (int round = 0; round < 4; ++round)
      expect_same(condensed(random_cyclic_graph(rng, n)), "random n=" + std::to_string(n));
  expect_same(condensed(commit_history_dag(20000, 1)), "history");
  std::vector<Edge> dense;
  for (vertex_t c = 0; c < 300; ++c)
    for (vertex_t d = c + 1; d < 300; ++d)
      if ((c * 7 + d * 13) % 3 == 0) dense.emplace_back(c, d);
  const CsrDag dense_dag = condensed(Graph(300, std::move(dense)));
  ASSERT_GT(count_block_items(dense_dag), 0u);
  expect_same(dense_dag, "dense");
}

TEST(LiveRows, RejectedOutsideTheChainedSweep) {
  PropagateParams p = parse_propagate_kernel("blocked");
  p.live_rows = 1;
  EXPECT_THROW(p.validate(), UsageError);
  p = parse_propagate_kernel("chained8");
  p.live_rows = 1;
  EXPECT_NO_THROW(p.validate());
}

void expect_same_count(const Graph& g, DevicePropagationOptions o, const std::string& what) {
  const Closure expect = closure_sparse(g);
  o.rows_needed = false;
  DevicePropagationStats stats;
  const Closure got = closure_propagate_device(g, *testing::test_runtime(), o, &stats);
  ASSERT_EQ(got.pair_count(), expect.pair_count()) << what << ": " << stats.describe();
  ASSERT_EQ(got.pair_count(true), expect.pair_count(true)) << what;
  if (o.kernel.rfind("chained", 0) == 0 && g.vertex_count() > 0) {
    EXPECT_GT(stats.live_rows, 0u) << what;
    EXPECT_FALSE(stats.resident) << what;
  }
}

TEST(LiveRows, CountsEqualSparseOnRandomCyclicGraphs) {
  CLOSURE_REQUIRE_DEVICE();
  std::mt19937_64 rng(77);
  const size_t sizes[] = {1, 2, 31, 32, 33, 64, 65, 129, 300};
  int graphs = 0;
  for (int round = 0; round < 20; ++round)
    for (size_t n : sizes) {
      DevicePropagationOptions o;
      static const char* const kKernels[] = {"chained", "chained8", "chained16", "blocked",
                                             "chained-inorder"};
      o.kernel = kKernels[graphs % 5];
      if (graphs % 3 == 1) o.max_slice_words = 1 + size_t(round % 3);
      expect_same_count(random_cyclic_graph(rng, n), o,
                        "n=" + std::to_string(n) + " kernel " + o.kernel);
      ++graphs;
    }
}

TEST(LiveRows, CountsEqualSparseOnCommitHistoriesInSlices) {
  CLOSURE_REQUIRE_DEVICE();
  for (uint64_t seed : {4, 5}) {
    const Graph g = commit_history_dag(3000 + 77 * seed, seed);
    for (const char* kernel : {"chained", "chained-inorder"}) {
      const std::string what = "seed " + std::to_string(seed) + " " + kernel;
      for (size_t slice : {0, 1, 7}) {
        DevicePropagationOptions o;
        o.kernel = kernel;
        o.max_slice_words = slice;
        expect_same_count(g, o, what + " slice " + std::to_string(slice));
      }
      // A budget of a few slices: several launches, each as many slices as fit.
      DevicePropagationOptions o;
      o.kernel = kernel;
      o.device_budget_bytes = 4096;
      expect_same_count(g, o, what + " small budget");
    }
  }
}

}  // namespace
}  // namespace closure
