// Tests of the Boost.Graph reference: its strict semantics, the memory estimate, and
// verify_against_boost catching corrupted closures in full and sampled mode.
#include <gtest/gtest.h>
#include <sys/resource.h>

#include <filesystem>
#include <fstream>
#include <sstream>

#include "app/tool/isolated.hpp"
#include "closure/algorithms/host_closure.hpp"
#include "closure/errors.hpp"
#include "closure/graph/read_graph.hpp"
#include "closure/util/available_memory.hpp"
#include "closure/verify/boost_closure.hpp"

namespace closure {
namespace {

constexpr size_t kPlenty = size_t{1} << 30;

// GRAIL files through the project's reader (tests/test_graph_io.cpp checks it on all 17).
Graph read_gra(const std::filesystem::path& path) {
  return read_graph(path.string()).graph;
}

TEST(Verify, BoostTransitiveClosureIsStrict) {
  // 0 -> 1 -> 2 -> 1 (cycle {1,2}); 3 self-loop; 4 isolated; 5 -> 3.
  const Graph g(6, {{0, 1}, {1, 2}, {2, 1}, {3, 3}, {5, 3}});
  const std::vector<Edge> pairs = boost_closure_pairs(g);
  const std::vector<Edge> expected{{0, 1}, {0, 2}, {1, 1}, {1, 2}, {2, 1}, {2, 2}, {3, 3}, {5, 3}};
  EXPECT_EQ(pairs, expected);  // no (0,0), (4,4), (5,5): not on a cycle
  EXPECT_EQ(boost_closure(g).pairs(), expected);
}

// A graph with cycles and a DAG part, and its correct closure as a full matrix.
Graph sample_graph() {
  return Graph(9, {{0, 1}, {1, 2}, {2, 0}, {2, 3}, {3, 4}, {4, 5}, {6, 6}, {6, 7}, {7, 4}});
}

TEST(Verify, CorrectClosureMatchesInBothModes) {
  const Graph g = sample_graph();
  const Closure c = closure_sparse(g);
  const VerifyReport full = verify_against_boost(g, c, kPlenty, 4, 1);
  EXPECT_TRUE(full.match);
  EXPECT_EQ(full.mode, "full");
  EXPECT_EQ(full.expected_pairs, c.pair_count());
  EXPECT_EQ(full.actual_pairs, c.pair_count());
  EXPECT_TRUE(full.first_mismatches.empty());
  // 4 of the 7 vertices with out-edges compare fewer than kMinSampledPairs pairs: no
  // difference, but too little to say MATCH.
  const VerifyReport sampled = verify_against_boost(g, c, 0, 4, 1);
  EXPECT_FALSE(sampled.match);
  EXPECT_TRUE(sampled.inconclusive);
  EXPECT_EQ(sampled.verdict(), Verdict::kInconclusive);
  EXPECT_EQ(sampled.mode, "sampled 4 of 7 sources");
  EXPECT_EQ(sampled.expected_pairs, sampled.actual_pairs);
  EXPECT_GT(sampled.estimate_bytes, 0u);
  // Every vertex with an out-edge as a source: exhaustive, so a MATCH whatever the count.
  const VerifyReport all = verify_against_boost(g, c, 0, 7, 1);
  EXPECT_TRUE(all.match);
  EXPECT_EQ(all.verdict(), Verdict::kMatch);
  EXPECT_EQ(all.mode, "sampled all 7 sources");
  EXPECT_EQ(all.expected_pairs, c.pair_count());
}

TEST(Verify, CorruptedClosureIsReportedWithTheFirstMismatch) {
  const Graph g = sample_graph();
  BitMatrix m = BitMatrix::from_pairs(9, 9, closure_classic(g).pairs());
  ASSERT_TRUE(m.get(1, 4));
  m.set(1, 4, false);  // missing
  m.set(7, 8, true);   // extra
  m.set(8, 8, true);   // extra
  const Closure corrupted = from_full_matrix(m);
  for (const VerifyReport& r :
       {verify_against_boost(g, corrupted, kPlenty, 100, 3),  // full
        verify_against_boost(g, corrupted, 0, 100, 3)}) {     // sampled, every source
    SCOPED_TRACE(r.mode);
    EXPECT_FALSE(r.match);
    ASSERT_EQ(r.first_mismatches.size(), 3u);
    EXPECT_EQ(r.first_mismatches[0], "1 -> 4: missing");
    EXPECT_EQ(r.first_mismatches[1], "7 -> 8: extra");
    EXPECT_EQ(r.first_mismatches[2], "8 -> 8: extra");
    EXPECT_EQ(r.actual_pairs, r.expected_pairs + 1);
  }
  EXPECT_EQ(verify_against_boost(g, corrupted, 0, 100, 3).mode, "sampled all 7 sources");
}

TEST(Verify, SampledModeCatchesWidespreadCorruption) {
  // Every vertex of a 2000-vertex chain loses its farthest successor; any sample sees it.
  constexpr size_t n = 2000;
  std::vector<Edge> edges;
  for (size_t v = 0; v + 1 < n; ++v) edges.emplace_back(vertex_t(v), vertex_t(v + 1));
  const Graph g(n, std::move(edges));
  std::vector<uint64_t> offsets{0};
  std::vector<vertex_t> targets;
  for (size_t u = 0; u < n; ++u) {
    for (size_t v = u + 1; v + 1 < n; ++v) targets.push_back(vertex_t(v));
    offsets.push_back(targets.size());
  }
  std::vector<vertex_t> identity(n);
  for (size_t v = 0; v < n; ++v) identity[v] = vertex_t(v);
  const Closure bad = Closure::from_sparse(identity, std::vector<uint8_t>(n, 0), std::move(offsets),
                                           std::move(targets));
  const VerifyReport r = verify_against_boost(g, bad, 0, 25, 42);
  EXPECT_EQ(r.mode, "sampled 25 of 1999 sources");
  EXPECT_FALSE(r.match);
  EXPECT_EQ(r.verdict(), Verdict::kMismatch);
  ASSERT_FALSE(r.first_mismatches.empty());
  EXPECT_NE(r.first_mismatches[0].find(" -> 1999: missing"), std::string::npos);
  // Each sampled source but the last vertex misses exactly one pair.
  EXPECT_GE(r.expected_pairs - r.actual_pairs, 24u);
  EXPECT_LE(r.expected_pairs - r.actual_pairs, 25u);
  EXPECT_TRUE(verify_against_boost(g, closure_sparse(g), 0, 25, 42).match);
}

TEST(Verify, EstimateOnHumanIsBoostsElevenGigabytes) {
  const auto path = std::filesystem::path(CLOSURE_TEST_DATA_DIR) / "grail/human_dag_uniq.gra";
  if (!std::filesystem::exists(path)) GTEST_SKIP() << "no " << path;
  const Graph g = read_gra(path);
  const Closure c = closure_sparse(g);
  const BoostEstimate est = estimate_boost_closure(g, c.pair_count());
  // README: Boost took 11.4 GB on this graph.
  EXPECT_GT(est.bytes, uint64_t{9} << 30);
  EXPECT_LT(est.bytes, uint64_t{14} << 30);
  const VerifyReport r = verify_against_boost(g, c, size_t{2} << 30, 300, 7);
  EXPECT_EQ(r.mode.substr(0, 15), "sampled 300 of ");
  EXPECT_TRUE(r.match);
  EXPECT_GE(r.expected_pairs, kMinSampledPairs);  // 0 before sources had to reach something
}

TEST(Verify, SmallGrailGraphFullyAgainstBoost) {
  const auto path = std::filesystem::path(CLOSURE_TEST_DATA_DIR) / "grail/kegg_dag_uniq.gra";
  if (!std::filesystem::exists(path)) GTEST_SKIP() << "no " << path;
  const Graph g = read_gra(path);
  const VerifyReport r = verify_against_boost(g, closure_sparse(g), size_t{2} << 30, 10, 1);
  EXPECT_EQ(r.mode, "full");
  EXPECT_TRUE(r.match);
  EXPECT_EQ(r.expected_pairs, 2'637'217u);
}

// A sparse DAG is mostly sinks: 64 random vertices of it compared no pair at all and said
// MATCH. Sources are now drawn among vertices with out-edges, and sinks are all checked.
TEST(Verify, SampledSourcesReachSomethingAndSinksAreChecked) {
  std::vector<Edge> edges;
  for (vertex_t v = 1; v <= 3000; ++v) edges.emplace_back(v % 10, 10 + v);  // 10 hubs
  const Graph g(3011, std::move(edges));
  const Closure c = closure_sparse(g);
  const VerifyReport r = verify_sampled(g, c, 5, 1);
  EXPECT_EQ(r.mode, "sampled 5 of 10 sources");
  EXPECT_EQ(r.expected_pairs, 1500u);
  EXPECT_TRUE(r.match);
  // A sink given a successor is caught although no sink is ever a source.
  BitMatrix m = BitMatrix::from_pairs(3011, 3011, c.pairs());
  m.set(3000, 5, true);
  const VerifyReport bad = verify_sampled(g, from_full_matrix(m), 5, 1);
  EXPECT_FALSE(bad.match);
  EXPECT_FALSE(bad.inconclusive);
  ASSERT_FALSE(bad.first_mismatches.empty());
  EXPECT_EQ(bad.first_mismatches[0], "3000 -> 5: extra");
}

TEST(Verify, TooFewPairsIsInconclusiveNeverMatch) {
  std::vector<Edge> edges;
  for (vertex_t v = 0; v < 200; ++v) edges.emplace_back(v, 1000 + v);  // one pair each
  const Graph g(1200, std::move(edges));
  const Closure c = closure_sparse(g);
  for (size_t sources : {size_t{1}, size_t{2}, size_t{63}}) {
    const VerifyReport r = verify_against_boost(g, c, 0, sources, 1);
    EXPECT_EQ(r.verdict(), Verdict::kInconclusive) << sources;
    EXPECT_EQ(r.expected_pairs, sources);
    EXPECT_EQ(verdict_name(r.verdict()), "INCONCLUSIVE");
  }
  EXPECT_EQ(verify_against_boost(g, c, 0, 64, 1).verdict(), Verdict::kMatch);
  EXPECT_EQ(verify_against_boost(g, c, 0, 200, 1).mode, "sampled all 200 sources");
  // An edgeless graph: no source at all, every row checked empty: exhaustive, MATCH.
  EXPECT_EQ(verify_against_boost(Graph(50, {}), closure_sparse(Graph(50, {})), 0, 64, 1).verdict(),
            Verdict::kMatch);
}

// Under `ulimit -v` (here in a child process, so the test binary keeps its limits), the
// budget follows what may still be allocated: Boost's 800 MB closure of a 5000-chain is
// replaced by the sampled check instead of ending in std::bad_alloc.
TEST(Verify, MemoryLimitOfTheProcessBoundsTheBudget) {
  const IsolatedOutcome out = run_isolated([] {
    struct rlimit rl {};
    std::ifstream statm("/proc/self/statm");
    uint64_t pages = 0;
    statm >> pages;
    const uint64_t mapped = pages * uint64_t(::sysconf(_SC_PAGE_SIZE));
    rl.rlim_cur = rl.rlim_max = mapped + (uint64_t{300} << 20);
    if (::setrlimit(RLIMIT_AS, &rl) != 0) return std::string("setrlimit failed");
    const size_t available = available_host_memory();
    if (available > (uint64_t{300} << 20)) return "available " + std::to_string(available);
    std::vector<Edge> edges;
    for (vertex_t v = 0; v + 1 < 5000; ++v) edges.emplace_back(v, v + 1);
    const Graph g(5000, std::move(edges));
    const VerifyReport r = verify_against_boost(g, closure_sparse(g), size_t{8} << 30, 64, 1);
    return r.mode + "|" + std::string(verdict_name(r.verdict())) + "|" + r.note;
  });
  ASSERT_TRUE(out.completed) << out.failure;
  EXPECT_EQ(out.result.substr(0, 24), "sampled 64 of 4999 sourc") << out.result;
  EXPECT_NE(out.result.find("|MATCH|"), std::string::npos) << out.result;
  EXPECT_NE(out.result.find("can still be allocated"), std::string::npos) << out.result;
}

TEST(Verify, ZeroSourcesIsRefused) {
  const Graph g = sample_graph();
  EXPECT_THROW(verify_against_boost(g, closure_sparse(g), 0, 0, 1), UsageError);
  EXPECT_THROW(verify_sampled(g, closure_sparse(g), 0, 1), UsageError);
}

}  // namespace
}  // namespace closure
