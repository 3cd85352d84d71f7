// A closure that does not fit says how to answer without it (issue 27 item 4): the
// budget's message names `closure index` / `query` / `reach`, and run_graph (the CLI's
// pipeline) puts the user's file into those command lines so they can be copied as written.
#include <gtest/gtest.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <random>

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

TEST(MemoryHint, EarlyRefusalFromTheSampledReach) {
  // 80,000 components reaching 40,000 each: at least 400 MB of rows.
  EXPECT_DOUBLE_EQ(closure_rows_lower_bound(80000, 40000), 400e6);
  EXPECT_NO_THROW(refuse_early_if_closure_cannot_fit(80000, 40000, 1e9, 16e6, "sparse"));
  // Half the bound is room for the sample's error: 216 MB fits 250 MB, not 150 MB.
  EXPECT_NO_THROW(refuse_early_if_closure_cannot_fit(80000, 40000, 250e6, 16e6, "sparse"));
  try {
    refuse_early_if_closure_cannot_fit(80000, 40000, 150e6, 16e6, "sparse on 80000 vertices");
    FAIL() << "no refusal";
  } catch (const OutOfMemoryError& e) {
    const std::string m = e.what();
    EXPECT_NE(m.find("sparse on 80000 vertices would need at least about"), std::string::npos) << m;
    EXPECT_NE(m.find("reaching 40000 each"), std::string::npos) << m;
    EXPECT_NE(m.find("`closure index GRAPH -o GRAPH.idx`"), std::string::npos) << m;
  }
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
  try {
    run_graph(o);
    FAIL() << "no refusal";
  } catch (const OutOfMemoryError& e) {
    const std::string m = e.what(), g = path.string();
    EXPECT_NE(m.find("of closure rows so far"), std::string::npos) << m;  // the rows refused
    EXPECT_NE(m.find("`closure index " + g + " -o " + g + ".idx`"), std::string::npos) << m;
    EXPECT_NE(m.find("`closure query " + g + ".idx U V`"), std::string::npos) << m;
    EXPECT_EQ(m.find("GRAPH"), std::string::npos) << m;  // the generic hint was replaced
  }
  fs::remove(path);
}

// auto samples the mean reach to plan (80,000 vertices + edges), so sparse refuses a
// closure that cannot fit before making a row: the early message, not the rows' one.
TEST(MemoryHint, AutoRefusesAHopelessClosureBeforeAnyRow) {
  std::vector<Edge> edges;
  std::mt19937 rng(5);
  std::uniform_int_distribution<vertex_t> v(0, 19999);
  for (int i = 0; i < 60000; ++i) {
    const vertex_t a = v(rng), b = v(rng);
    if (a != b) edges.emplace_back(std::min(a, b), std::max(a, b));
  }
  const Graph g(20000, std::move(edges));
  ComputeOptions o;
  o.method = Method::kAuto;
  o.host_memory_limit = 4'000'000;
  try {
    (void)compute_closure(g, o);
    FAIL() << "no refusal";
  } catch (const OutOfMemoryError& e) {
    const std::string m = e.what();
    EXPECT_NE(m.find("would need at least about"), std::string::npos) << m;
    EXPECT_NE(m.find("sampled"), std::string::npos) << m;
    EXPECT_EQ(m.find("so far"), std::string::npos) << m;  // refused before any row
    EXPECT_NE(m.find("closure index"), std::string::npos) << m;
  }
  o.method = Method::kSparse;  // no sample: the rows' budget refuses, as before
  EXPECT_THROW((void)compute_closure(g, o), OutOfMemoryError);
}

}  // namespace
}  // namespace closure
