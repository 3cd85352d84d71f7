// Method `propagate` (the condensation closed on the OpenCL device, kernels/propagate.cl)
// against the host's sparse propagation: identical closures (every pair, and a hash of
// the sorted pairs) on 1,000+ random graphs with cycles, long chains, forced tiny column
// slices, closures larger than the device budget (streamed), data/ and the GRAIL graphs.
#include <gtest/gtest.h>

#include <filesystem>
#include <numeric>
#include <random>

#include "closure/algorithms/compute.hpp"
#include "closure/algorithms/device_propagation.hpp"
#include "closure/algorithms/host_closure.hpp"
#include "closure/graph/read_graph.hpp"
#include "test_support.hpp"

namespace closure {
namespace {

namespace fs = std::filesystem;

// FNV-1a over the sorted pairs: what the issue compares across machines.
uint64_t pairs_hash(const Closure& c) {
  uint64_t h = 1469598103934665603ull;
  for (const Edge& e : c.pairs())
    for (vertex_t x : {e.first, e.second}) {
      h ^= x;
      h *= 1099511628211ull;
    }
  return h;
}

using testing::random_cyclic_graph;

Closure on_device(const Graph& g, const DevicePropagationOptions& o,
                  DevicePropagationStats* stats = nullptr) {
  return closure_propagate_device(g, *testing::test_runtime(), o, stats);
}

void expect_same(const Closure& got, const Closure& expect, const std::string& what) {
  ASSERT_EQ(got.pair_count(), expect.pair_count()) << what;
  ASSERT_EQ(got.pair_count(true), expect.pair_count(true)) << what;
  ASSERT_TRUE(got == expect) << what;
}

#define REQUIRE_DEVICE() \
  if (!testing::test_runtime()) GTEST_SKIP() << "no OpenCL device"

TEST(DevicePropagation, EqualsSparseOnRandomCyclicGraphs) {
  REQUIRE_DEVICE();
  std::mt19937_64 rng(20261130);
  const size_t sizes[] = {1, 2, 3, 31, 32, 33, 63, 64, 65, 97, 128, 129, 200};
  int graphs = 0;
  for (int round = 0; round < 80; ++round)
    for (size_t n : sizes) {
      const Graph g = random_cyclic_graph(rng, n);
      const Closure expect = closure_sparse(g);
      DevicePropagationOptions o;
      // Every third graph in tiny slices (1 or 2 words: 32 or 64 target columns).
      if (graphs % 3 == 1) o.max_slice_words = 1 + size_t(round % 2);
      DevicePropagationStats stats;
      const Closure got = on_device(g, o, &stats);
      const std::string what = "n=" + std::to_string(n) + " graph " + std::to_string(graphs);
      ASSERT_EQ(got.representation(), Closure::Representation::kDevice);
      // Pair counts come from the device's reduction; walking the rows downloads them.
      expect_same(got, expect, what);
      if (graphs % 50 == 0) {
        EXPECT_EQ(pairs_hash(got), pairs_hash(expect)) << what;
      }
      ++graphs;
    }
  EXPECT_GE(graphs, 1000);
}

TEST(DevicePropagation, LongChainsFold) {
  REQUIRE_DEVICE();
  // A 3000-vertex path with its labels shuffled, a cycle in its middle, and a side branch
  // that merges back (a topic branch): the rows are long runs.
  const size_t n = 3000;
  std::vector<vertex_t> perm(n);
  std::iota(perm.begin(), perm.end(), 0);
  std::mt19937_64 rng(7);
  std::shuffle(perm.begin(), perm.end(), rng);
  std::vector<Edge> edges;
  for (size_t i = 0; i + 1 < n; ++i) edges.emplace_back(perm[i], perm[i + 1]);
  edges.emplace_back(perm[1600], perm[1500]);  // a cycle of 101 vertices
  edges.emplace_back(perm[10], perm[2900]);    // a merge far down
  const Graph g(n, edges);
  const Closure expect = closure_sparse(g);
  for (size_t slice : {0, 1, 5}) {
    DevicePropagationOptions o;
    o.max_slice_words = slice;
    expect_same(on_device(g, o), expect, "slice words " + std::to_string(slice));
  }
}

TEST(DevicePropagation, StreamedSlicesWhenLargerThanTheBudget) {
  REQUIRE_DEVICE();
  std::mt19937_64 rng(11);
  const Graph g = random_cyclic_graph(rng, 700);
  const Closure expect = closure_sparse(g);
  DevicePropagationOptions o;
  o.device_budget_bytes = 700 * 4 * 3;  // three word-columns of rows at a time
  DevicePropagationStats stats;
  const Closure kept = on_device(g, o, &stats);
  EXPECT_FALSE(stats.resident);
  EXPECT_EQ(stats.slices, ceil_div(ceil_div(700, 32), 3));
  EXPECT_NE(stats.describe().find("streamed"), std::string::npos);
  expect_same(kept, expect, "streamed, rows kept");

  o.rows_needed = false;  // only counted: the pairs are right, rows are refused
  const Closure counted = on_device(g, o);
  EXPECT_EQ(counted.pair_count(), expect.pair_count());
  EXPECT_EQ(counted.pair_count(true), expect.pair_count(true));
  EXPECT_THROW(counted.resident_reach()->host_rows(), std::runtime_error);
}

TEST(DevicePropagation, QueriesAnsweredOnTheDevice) {
  REQUIRE_DEVICE();
  std::mt19937_64 rng(5);
  const Graph g = random_cyclic_graph(rng, 300);
  const Closure expect = closure_sparse(g);
  DevicePropagationOptions o;
  o.max_slice_words = 2;
  const Closure got = on_device(g, o);
  std::vector<std::pair<vertex_t, vertex_t>> pairs;
  std::uniform_int_distribution<vertex_t> pick(0, 299);
  for (int i = 0; i < 5000; ++i) pairs.emplace_back(pick(rng), pick(rng));
  std::vector<uint8_t> answers(pairs.size());
  got.reaches_many(pairs, answers);  // before any download: one launch per slice
  ASSERT_EQ(got.memory_bytes() - got.resident_reach()->host_bytes(), got.memory_bytes());
  for (size_t i = 0; i < pairs.size(); ++i) {
    const bool want = expect.reaches(pairs[i].first, pairs[i].second);
    ASSERT_EQ(answers[i] != 0, want) << pairs[i].first << " " << pairs[i].second;
    if (i % 97 == 0) {
      ASSERT_EQ(got.reaches(pairs[i].first, pairs[i].second), want);
    }
  }
}

TEST(DevicePropagation, ComputeClosureMethodAndReport) {
  REQUIRE_DEVICE();
  const Graph g(5, {{0, 1}, {1, 2}, {2, 0}, {2, 3}});
  ComputeOptions o;
  o.method = Method::kPropagate;
  o.runtime = testing::test_runtime();
  ComputeReport report;
  const Closure c = compute_closure(g, o, &report);
  EXPECT_EQ(report.method, Method::kPropagate);
  EXPECT_EQ(report.components, 3u);
  EXPECT_NE(report.reason.find("column slice"), std::string::npos) << report.reason;
  EXPECT_EQ(c.pair_count(), 9u + 3u);
  EXPECT_EQ(parse_method("propagate"), Method::kPropagate);
}

TEST(DevicePropagation, FallsBackToSparseWithoutADevice) {
  const Graph g(3, {{0, 1}, {1, 2}});
  ComputeOptions o;
  o.method = Method::kPropagate;
  ComputeReport report;
  const Closure c = compute_closure(g, o, &report);
  EXPECT_EQ(report.method, Method::kSparse);
  EXPECT_NE(report.reason.find("no OpenCL device"), std::string::npos);
  EXPECT_EQ(c.pair_count(), 3u);
}

TEST(DevicePropagation, DataAndGrailGraphs) {
  REQUIRE_DEVICE();
  std::vector<fs::path> files;
  for (const auto& e : fs::directory_iterator(fs::path(CLOSURE_SOURCE_DIR) / "data"))
    if (e.path().string().find(".closure.") == std::string::npos) files.push_back(e.path());
  const fs::path grail = fs::path(CLOSURE_SHARED_DATA_DIR) / "grail";
  if (fs::is_directory(grail))
    for (const auto& e : fs::directory_iterator(grail)) files.push_back(e.path());
  std::sort(files.begin(), files.end());
  ASSERT_GE(files.size(), 7u);
  for (const auto& path : files) {
    SCOPED_TRACE(path.filename().string());
    const Graph g = read_graph(path.string()).graph;
    const Closure expect = closure_sparse(g);
    DevicePropagationOptions o;
    // The larger graphs also in slices of 64 words, so several slices run.
    if (g.vertex_count() > 4096) o.max_slice_words = 64;
    const Closure got = on_device(g, o);
    EXPECT_EQ(got.pair_count(), expect.pair_count());
    // Row by row only where the download is small (human_dag's closure is 188 MB dense).
    if (g.vertex_count() <= 20000) {
      EXPECT_EQ(pairs_hash(got), pairs_hash(expect));
    }
  }
}

}  // namespace
}  // namespace closure
