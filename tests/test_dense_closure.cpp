// Dense closures (repeated squaring, blocked recursive) on the host engine and the
// OpenCL device, bit-exact against a breadth-first-search reference.
#include <gtest/gtest.h>

#include <deque>

#include "closure/algorithms/engine_algorithms.hpp"
#include "closure/engine/device_engine.hpp"
#include "closure/engine/host_engine.hpp"
#include "closure/engine/square.hpp"
#include "closure/errors.hpp"
#include "closure/kernels/tuning.hpp"
#include "test_support.hpp"

namespace closure {
namespace {

// Strict closure by BFS from every vertex: the simplest thing that is obviously right.
BitMatrix bfs_closure(const BitMatrix& adj) {
  const size_t n = adj.rows();
  BitMatrix out(n, n);
  for (size_t s = 0; s < n; ++s) {
    std::deque<size_t> queue;
    for (size_t v = 0; v < n; ++v)
      if (adj.get(s, v)) queue.push_back(v), out.set(s, v);
    while (!queue.empty()) {
      const size_t u = queue.front();
      queue.pop_front();
      for (size_t v = 0; v < n; ++v)
        if (adj.get(u, v) && !out.get(s, v)) out.set(s, v), queue.push_back(v);
    }
  }
  return out;
}

// A sparse random graph whose closure is far from trivial: about `degree` edges a vertex.
BitMatrix random_graph(size_t n, double degree, uint64_t seed, bool dag) {
  const double density = n > 1 ? std::min(1.0, degree / double(n)) : 0.5;
  return BitMatrix::random(n, n, dag ? 2 * density : density, seed, {}, dag);
}

std::vector<ocl::Runtime*> runtimes() {
  std::vector<ocl::Runtime*> out{nullptr};  // the host engine
  if (testing::test_runtime()) out.push_back(testing::test_runtime());
  return out;
}

BooleanParams params_for(ocl::Runtime* rt) {
  return rt ? tuned_boolean_params(rt->device()) : BooleanParams{};
}

TEST(DenseClosure, SquaringMatchesBfsOnCyclicGraphs) {
  for (ocl::Runtime* rt : runtimes())
    for (size_t n : {1, 2, 31, 32, 33, 63, 65, 100, 257}) {
      for (double degree : {0.0, 0.7, 1.5, 4.0}) {
        const BitMatrix adj = random_graph(n, degree, n * 7 + size_t(degree * 10), false);
        DenseStats stats;
        const BitMatrix got =
            dense_closure(adj, DenseAlgorithm::kSquare, false, rt, params_for(rt), &stats);
        ASSERT_TRUE(got == bfs_closure(adj))
            << (rt ? "device" : "host") << " n=" << n << " d=" << degree;
        ASSERT_LE(stats.rounds, max_squaring_rounds(n));
      }
    }
}

TEST(DenseClosure, TriangularSquaringAndRecursiveMatchBfsOnDags) {
  for (ocl::Runtime* rt : runtimes())
    for (size_t n : {1, 7, 33, 65, 257, 1000, 1500}) {
      for (double degree : {0.0, 1.0, 3.0}) {
        const BitMatrix adj = random_graph(n, degree, n * 11 + size_t(degree * 10), true);
        const BitMatrix expect = bfs_closure(adj);
        if (degree > 0 && n > 100) {
          ASSERT_GT(expect.popcount(), adj.popcount());  // paths longer than one edge exist
        }
        for (auto algorithm : {DenseAlgorithm::kSquare, DenseAlgorithm::kRecursive}) {
          // The default base, and one small enough that every size above a tile splits.
          for (size_t base : {kRecursiveBaseBits, size_t(1)}) {
            const BitMatrix got =
                dense_closure(adj, algorithm, true, rt, params_for(rt), nullptr, base);
            ASSERT_TRUE(got == expect)
                << (rt ? "device" : "host") << " n=" << n << " d=" << degree
                << (algorithm == DenseAlgorithm::kSquare ? " square" : " recursive")
                << " base=" << base;
            ASSERT_TRUE(got.padding_is_zero());
          }
        }
      }
    }
}

TEST(DenseClosure, RecursiveSplitsDownToSmallBlocks) {
  // A small base forces several levels of splitting on both engines.
  for (ocl::Runtime* rt : runtimes()) {
    const BitMatrix adj = random_graph(700, 2.0, 99, true);
    const BitMatrix expect = bfs_closure(adj);
    auto check = [&](auto& engine, const BitMatrix& input) {
      const size_t s = round_up(700, engine.tile_bits());
      auto m = engine.from_host(input);
      auto full = engine.block(m, 0, 0, s, s);
      RecursiveStats stats;
      recursive_in_place(engine, full, s, engine.tile_bits(), stats);
      engine.put_block(m, 0, 0, full);
      EXPECT_GE(stats.products, 2);
      EXPECT_GE(stats.base_blocks, 2);
      EXPECT_TRUE(engine.to_host(m) == expect) << engine.name();
    };
    if (rt) {
      DeviceEngine e(*rt, BooleanParams{1, 1});
      check(e, adj);
    } else {
      HostEngine e;
      check(e, adj.repadded({kWordBits, 1}));
    }
  }
}

TEST(DenseClosure, RecursiveRefusesCyclicInput) {
  const BitMatrix adj = random_graph(10, 2, 1, false);
  EXPECT_THROW(dense_closure(adj, DenseAlgorithm::kRecursive, false, nullptr, {}), InternalError);
}

}  // namespace
}  // namespace closure
