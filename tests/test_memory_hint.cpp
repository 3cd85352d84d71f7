// A closure that does not fit says how to answer without it (issue 27 item 4): the
// budget's message names `closure index` / `query` / `reach`, and run_graph (the CLI's
// pipeline) puts the user's file into those command lines so they can be copied as written;
// the same is said at once, before any row is made, from the rows' estimate.
#include <gtest/gtest.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <random>
#include <string>
#include <vector>

#include "closure/algorithms/memory_budget.hpp"
#include "closure/errors.hpp"
#include "closure/tool/run_graph.hpp"

namespace closure {
namespace {
namespace fs = std::filesystem;

TEST(MemoryHint, NamesTheIndexForTheFile) {
  EXPECT_NE(without_closure_hint().find("`closure index GRAPH -o GRAPH.idx`"), std::string::npos);
  EXPECT_NE(without_closure_hint("g.txt").find("`closure query g.txt.idx U V`"), std::string::npos);
  EXPECT_NE(without_closure_hint("g.txt").find("`closure reach g.txt U`"), std::string::npos);
  EXPECT_NE(without_closure_hint("-").find("save the input to a file"), std::string::npos);
}

TEST(MemoryHint, RunGraphRefusesWithTheCommandsForItsInput) {
  // A random DAG whose closure rows need several MB, under a 4 MB limit (as
  // MemoryBudget.SparseRefusesWithTheSizesNamed), read from a file.
  const fs::path path =
      fs::temp_directory_path() / ("closure-memory-hint-" + std::to_string(::getpid()) + ".txt");
  {
    std::ofstream out(path);
    std::mt19937 rng(3);
    std::uniform_int_distribution<int> v(0, 19999);
    for (int i = 0; i < 60000; ++i) {
      const int a = v(rng), b = v(rng);
      if (a != b) out << std::min(a, b) << ' ' << std::max(a, b) << '\n';
    }
  }
  RunOptions o;
  o.input = path.string();
  o.compute.method = Method::kSparse;
  o.compute.host_memory_limit = 4'000'000;
  std::vector<std::string> warnings;  // told at once, before any row (row_estimate.hpp)
  o.compute.warn = [&](const std::string& m) { warnings.push_back(m); };
  const std::string g = path.string();
  try {
    run_graph(o);
    FAIL() << "no refusal";
  } catch (const OutOfMemoryError& e) {
    const std::string m = e.what();
    EXPECT_NE(m.find("of closure rows so far"), std::string::npos) << m;  // the rows refused
    EXPECT_NE(m.find("`closure index " + g + " -o " + g + ".idx`"), std::string::npos) << m;
    EXPECT_NE(m.find("`closure query " + g + ".idx U V`"), std::string::npos) << m;
    EXPECT_EQ(m.find("GRAPH"), std::string::npos) << m;  // the generic hint was replaced
  }
  ASSERT_EQ(warnings.size(), 1u);
  EXPECT_NE(warnings[0].find("estimated at"), std::string::npos) << warnings[0];
  EXPECT_NE(warnings[0].find("will likely stop"), std::string::npos) << warnings[0];
  EXPECT_NE(warnings[0].find("`closure index " + g + " -o " + g + ".idx`"), std::string::npos)
      << warnings[0];
  // With room for the rows, nothing is said.
  warnings.clear();
  o.compute.host_memory_limit = 0;
  EXPECT_GT(run_graph(o).pairs, 0u);
  EXPECT_TRUE(warnings.empty());
  fs::remove(path);
}

// The closure's size cannot be bounded from the sampled reach: ragged rows keep a run as
// two numbers, so a chain of 200,000 (mean reach 100,000: 2.5 GB as bits) takes a few MB.
// A refusal before the rows, from such an estimate, would refuse this; the rows' budget
// does not.
TEST(MemoryHint, AChainWhoseRowsAreRunsIsNotRefused) {
  std::vector<Edge> edges;
  for (vertex_t v = 0; v + 1 < 200000; ++v) edges.emplace_back(v, v + 1);
  const Graph g(200000, std::move(edges));
  ComputeOptions o;
  o.method = Method::kAuto;
  o.host_memory_limit = size_t{64} << 20;
  std::vector<std::string> warnings;  // nor warned about: its sampled rows are runs
  o.warn = [&](const std::string& m) { warnings.push_back(m); };
  EXPECT_EQ(compute_closure(g, o).pair_count(), uint64_t{199999} * 200000 / 2);
  EXPECT_TRUE(warnings.empty()) << warnings.front();
  o.method = Method::kSparse;
  EXPECT_EQ(compute_closure(g, o).pair_count(), uint64_t{199999} * 200000 / 2);
  EXPECT_TRUE(warnings.empty()) << warnings.front();
}

}  // namespace
}  // namespace closure
