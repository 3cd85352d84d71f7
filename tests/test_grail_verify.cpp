// The GRAIL benchmark graphs (tests/data/grail) closed by the tool's methods and
// verified against Boost.Graph: in full where Boost's closure fits in 2 GB, else by
// Boost BFS from sampled sources.
#include <gtest/gtest.h>

#include <filesystem>

#include "closure/engine/compute.hpp"
#include "closure/graph/read_graph.hpp"
#include "closure/verify/boost_closure.hpp"
#include "test_support.hpp"

namespace closure {
namespace {

namespace fs = std::filesystem;

std::vector<fs::path> grail_files() {
  const fs::path dir = fs::path(CLOSURE_TEST_DATA_DIR) / "grail";
  std::vector<fs::path> out;
  if (fs::is_directory(dir))
    for (const auto& e : fs::directory_iterator(dir))
      if (e.path().extension() == ".gra") out.push_back(e.path());
  std::sort(out.begin(), out.end());
  return out;
}

TEST(GrailVerify, EveryGraphMatchesBoost) {
  const auto files = grail_files();
  if (files.empty()) GTEST_SKIP() << "no " << CLOSURE_TEST_DATA_DIR << "/grail";
  ASSERT_EQ(files.size(), 17u);
  int full = 0;
  for (const auto& path : files) {
    SCOPED_TRACE(path.filename().string());
    const Graph g = read_graph(path.string()).graph;
    std::vector<ComputeOptions> runs(1);  // auto, on the host
    // The dense methods on the test device too, where PoCL does them in about a second.
    if (testing::test_runtime() && g.vertex_count() <= 7000) {
      runs.emplace_back().method = Method::kRecursive;
      runs.back().runtime = testing::test_runtime();
    }
    for (const ComputeOptions& o : runs) {
      const Closure c = compute_closure(g, o);
      const VerifyReport r = verify_against_boost(g, c, size_t{2} << 30, 200, 7);
      EXPECT_TRUE(r.match) << method_name(o.method) << ": " << r.mode << ", first mismatch "
                           << (r.first_mismatches.empty() ? "-" : r.first_mismatches[0]);
      EXPECT_GT(r.expected_pairs, 0u);
      full += r.mode == "full";
    }
  }
  EXPECT_GE(full, 16);  // all but human_dag (11 GB for Boost) are checked in full
}

}  // namespace
}  // namespace closure
