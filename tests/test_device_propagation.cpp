// Method `propagate` (the condensation closed on the OpenCL device, kernels/propagate.cl)
// against the host's sparse propagation: identical closures (every pair, and a hash of
// the sorted pairs) on 1,000+ random graphs with cycles, long chains, forced tiny column
// slices, closures larger than the device budget (streamed), data/ and the GRAIL graphs.
#include <gtest/gtest.h>

#include <cstdlib>
#include <filesystem>
#include <numeric>
#include <random>

#include "bench/index_generators.hpp"
#include "closure/algorithms/host_closure.hpp"
#include "closure/engine/compute.hpp"
#include "closure/engine/device_propagation.hpp"
#include "closure/errors.hpp"
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

// The sweep of every test that names none: the default, or the one ctest's
// DevicePropagation.PlainKernel names (tests/CMakeLists.txt), so those tests reach the
// other kernels too.
std::string kernel_under_test() {
  const char* k = std::getenv("CLOSURE_TEST_PROPAGATE_KERNEL");
  return k ? k : "";
}

Closure on_device(const Graph& g, DevicePropagationOptions o,
                  DevicePropagationStats* stats = nullptr) {
  if (o.kernel.empty()) o.kernel = kernel_under_test();
  return closure_propagate_device(g, *testing::test_runtime(), o, stats);
}

void expect_same(const Closure& got, const Closure& expect, const std::string& what) {
  ASSERT_EQ(got.pair_count(), expect.pair_count()) << what;
  ASSERT_EQ(got.pair_count(true), expect.pair_count(true)) << what;
  ASSERT_TRUE(got == expect) << what;
}

TEST(DevicePropagation, EqualsSparseOnRandomCyclicGraphs) {
  CLOSURE_REQUIRE_DEVICE();
  std::mt19937_64 rng(20261130);
  const size_t sizes[] = {1, 2, 3, 31, 32, 33, 63, 64, 65, 97, 128, 129, 200};
  int graphs = 0;
  for (int round = 0; round < 80; ++round)
    for (size_t n : sizes) {
      const Graph g = random_cyclic_graph(rng, n);
      const Closure expect = closure_sparse(g);
      DevicePropagationOptions o;
      // Every third graph in tiny slices (1 or 2 words: 32 or 64 target columns); the
      // kernels, unit widths and group orders in turn (8 is coprime with 3, so every
      // pairing occurs).
      if (graphs % 3 == 1) o.max_slice_words = 1 + size_t(round % 2);
      static const char* const kKernels[] = {"chained",  "blocked",  "plain",   "chained16",
                                             "chained8", "blocked8", "plain16", "chained-inorder"};
      o.kernel = kKernels[graphs % 8];
      DevicePropagationStats stats;
      const Closure got = on_device(g, o, &stats);
      const std::string what =
          "n=" + std::to_string(n) + " graph " + std::to_string(graphs) + " kernel " + o.kernel;
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

TEST(DevicePropagation, KernelNamesResolve) {
  EXPECT_EQ(resolve_propagate_kernel("blocked", 1024).sweep, PropagateParams::kBlocked);
  EXPECT_EQ(resolve_propagate_kernel("chained", 1024).unit_bits, 32u);
  EXPECT_EQ(resolve_propagate_kernel("blocked8", 1024).unit_bits, 8u);
  EXPECT_EQ(resolve_propagate_kernel("plain16", 1024).describe(), "plain16");
  EXPECT_EQ(resolve_propagate_kernel("chained16", 16).sweep, PropagateParams::kPlain);
  EXPECT_EQ(resolve_propagate_kernel("chained", 1024).longest_first, 1u);
  const PropagateParams in_order = resolve_propagate_kernel("chained8-inorder", 1024);
  EXPECT_EQ(in_order.longest_first, 0u);
  EXPECT_EQ(in_order.unit_bits, 8u);
  EXPECT_EQ(in_order.describe(), "chained8-inorder");
  for (const char* bad : {"blocked4", "fast", "plain 8", "8", "blocked32x", "-inorder",
                          "chained-inorder8", "chainedinorder", "chained-inorder-inorder"})
    EXPECT_THROW(resolve_propagate_kernel(bad, 1024), UsageError) << bad;
}

// The default variant's program is the one it always was: the same options, so the same
// compiled kernel (and program cache entry).
TEST(DevicePropagation, VariantsRenderTheirBuildOptions) {
  PropagateParams p = parse_propagate_kernel("");
  EXPECT_EQ(p.describe(), "chained");
  EXPECT_EQ(p.build_options(),
            "-DUNIT_BITS=32 -DWEIGHTED=0 -DCHAIN_PREFETCH=8 -DLIVE_ROWS=0 "
            "-DLONGEST_FIRST=1");
  EXPECT_STREQ(p.entry_point(), "propagate_columns_chained");
  p = parse_propagate_kernel("blocked8");
  p.weighted = 1;
  EXPECT_EQ(p.build_options(),
            "-DUNIT_BITS=8 -DWEIGHTED=1 -DCHAIN_PREFETCH=8 -DLIVE_ROWS=0 "
            "-DLONGEST_FIRST=1");
  EXPECT_STREQ(p.entry_point(), "propagate_columns_blocked");
  EXPECT_EQ(p.to_string(),
            "sweep=1,unit_bits=8,weighted=1,chain_prefetch=8,live_rows=0,"
            "longest_first=1");
  EXPECT_STREQ(parse_propagate_kernel("plain").entry_point(), "propagate_columns");
  p.chain_prefetch = 0;
  EXPECT_THROW(p.validate(), UsageError);
}

// The CSR of edges over ids 0..n-1 taken as they are.
CsrDag csr_of(size_t n, std::vector<Edge> edges) {
  CsrDag dag;
  dag.offsets.assign(n + 1, 0);
  std::sort(edges.begin(), edges.end());
  for (const Edge& e : edges) ++dag.offsets[e.first + 1];
  for (size_t c = 0; c < n; ++c) dag.offsets[c + 1] += dag.offsets[c];
  for (const Edge& e : edges) dag.targets.push_back(e.second);
  return dag;
}

TEST(DevicePropagation, ChainedBlocksSplitTheCsr) {
  // 70 rows: blocks [0, 32), [32, 64), [64, 70).
  std::vector<Edge> edges{{0, 1},   {0, 30},  {0, 31},  {0, 32}, {31, 32},
                          {33, 40}, {33, 69}, {64, 65}, {5, 64}};
  CsrDag dag = csr_of(70, edges);  // ids as given: already topological
  const ChainedBlocks b = chained_blocks(dag);
  ASSERT_EQ(b.masks.size(), 70u);
  // 0 -> 30 and 0 -> 31: two in-block successors besides 1, so block 0 is flagged.
  EXPECT_EQ(b.masks[0], (1u << 1) | (1u << 30) | (1u << 31) | 1u);
  EXPECT_EQ(b.masks[32], 0u);  // 33 -> 40 is block 1's only other successor: no flag
  EXPECT_EQ(b.masks[33], 1u << 8);
  EXPECT_EQ(b.masks[64], 1u << 1);  // block 2 is one chain step: no flag
  EXPECT_EQ(b.masks[31], 0u);
  // Every block has at most kFirst (8) items beyond it here: all in `first`, padded.
  ASSERT_EQ(b.ext_offsets, (std::vector<uint64_t>{0, 0, 0, 0}));
  ASSERT_EQ(b.first.size(), 3 * ChainedBlocks::kFirst);
  using Item = std::array<uint32_t, 2>;
  EXPECT_EQ(b.first[0], (Item{0, 32}));
  EXPECT_EQ(b.first[1], (Item{5, 64}));
  EXPECT_EQ(b.first[2], (Item{31, 32}));
  EXPECT_EQ(b.first[3], (Item{32, ChainedBlocks::kNone}));
  EXPECT_EQ(b.first[8], (Item{1, 69}));
  EXPECT_EQ(b.first[9], (Item{32, ChainedBlocks::kNone}));
  EXPECT_EQ(b.first[16], (Item{32, ChainedBlocks::kNone}));
  // Row 40 -> 64..69 and row 41 -> 64..66: block 1 has 10 items, 2 in ext_items.
  for (vertex_t d = 64; d < 70; ++d) edges.emplace_back(40, d);
  for (vertex_t d = 64; d < 67; ++d) edges.emplace_back(41, d);
  dag = csr_of(70, edges);
  const ChainedBlocks more = chained_blocks(dag);
  ASSERT_EQ(more.ext_offsets, (std::vector<uint64_t>{0, 0, 2, 2}));
  EXPECT_EQ(more.first[8 + 7], (Item{9, 64}));
  EXPECT_EQ(more.ext_items[0], (Item{9, 65}));
  EXPECT_EQ(more.ext_items[1], (Item{9, 66}));
  // An edge that goes back up (ids not topological) is refused.
  dag.targets[0] = 0;
  EXPECT_THROW(chained_blocks(dag), InternalError);
}

TEST(DevicePropagation, LongChainsFold) {
  CLOSURE_REQUIRE_DEVICE();
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
  for (const char* kernel : {"chained", "chained8", "blocked", "plain16"})
    for (size_t slice : {0, 1, 5}) {
      DevicePropagationOptions o;
      o.max_slice_words = slice;
      o.kernel = kernel;
      expect_same(on_device(g, o), expect,
                  std::string(kernel) + ", slice words " + std::to_string(slice));
    }
}

TEST(DevicePropagation, CommitHistoriesTakeTheChainedFastPath) {
  CLOSURE_REQUIRE_DEVICE();
  // Histories are long first-parent chains with merges: most blocks of 32 rows are
  // chain steps only (the kernel's branch-free path), the rest take the general one.
  for (uint64_t seed : {1, 2, 3}) {
    const Graph g = commit_history_dag(2000 + 333 * seed, seed);
    const SccResult scc = strongly_connected_components(g);
    const CsrDag dag = condensation_csr(g, scc);
    const ChainedBlocks b = chained_blocks(dag);
    size_t fast = 0, blocks = b.ext_offsets.size() - 1;
    for (size_t k = 0; k + 1 < blocks; ++k) fast += (b.masks[k * 32] & 1u) == 0;
    EXPECT_GT(fast, blocks / 2) << "seed " << seed;
    const Closure expect = closure_sparse(g);
    for (const char* kernel : {"chained", "chained8", "chained16"})
      for (size_t slice : {0, 3}) {
        DevicePropagationOptions o;
        o.kernel = kernel;
        o.max_slice_words = slice;
        expect_same(on_device(g, o), expect,
                    std::string(kernel) + " seed " + std::to_string(seed) + " slice " +
                        std::to_string(slice));
      }
  }
}

TEST(DevicePropagation, StreamedSlicesWhenLargerThanTheBudget) {
  CLOSURE_REQUIRE_DEVICE();
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
  EXPECT_THROW(counted.resident_reach()->host_rows(), UsageError);
}

TEST(DevicePropagation, QueriesAnsweredOnTheDevice) {
  CLOSURE_REQUIRE_DEVICE();
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
  CLOSURE_REQUIRE_DEVICE();
  const Graph g(5, {{0, 1}, {1, 2}, {2, 0}, {2, 3}});
  ComputeOptions o;
  o.method = Method::kPropagate;
  o.runtime = testing::test_runtime();
  o.propagate.kernel = kernel_under_test();
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
  CLOSURE_REQUIRE_DEVICE();
  std::vector<fs::path> files;
  for (const auto& e : fs::directory_iterator(fs::path(CLOSURE_SOURCE_DIR) / "data"))
    if (e.path().string().find(".closure.") == std::string::npos) files.push_back(e.path());
  const fs::path grail = fs::path(CLOSURE_TEST_DATA_DIR) / "grail";
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
