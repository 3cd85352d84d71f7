// A closure that does not fit says how to answer without it: the budget's refusal carries
// the advice, which each front end says in its terms (the CLI's `closure index` / `query` /
// `reach` with the user's file put in by run_graph, Python's build_index, the C++ API's
// reach::build_index); the same is said at once, before any row is made, from the rows'
// estimate.
#include <gtest/gtest.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <random>
#include <string>
#include <vector>

#include "app/tool/run_graph.hpp"
#include "closure/algorithms/memory_budget.hpp"
#include "closure/engine/compute.hpp"
#include "closure/errors.hpp"
#include "closure/util/available_memory.hpp"
#include "graph_test_files.hpp"

namespace closure {
namespace {
namespace fs = std::filesystem;

TEST(MemoryHint, NamesTheIndexForTheFileInEachFrontEndsTerms) {
  const Advice a = Advice::kWithoutClosure;
  EXPECT_NE(advice_text(a, Audience::kCli, "g.txt").find("`closure query g.txt.idx U V`"),
            std::string::npos);
  EXPECT_NE(advice_text(a, Audience::kCli, "g.txt").find("`closure reach g.txt U`"),
            std::string::npos);
  EXPECT_NE(advice_text(a, Audience::kCli, "-").find("save the input to a file"),
            std::string::npos);
  EXPECT_NE(advice_text(a, Audience::kCli, "").find("save the input to a file"), std::string::npos);
  EXPECT_NE(advice_text(a, Audience::kPython).find("closure.build_index(graph)"),
            std::string::npos);
  EXPECT_NE(advice_text(a, Audience::kCpp).find("reach::build_index"), std::string::npos);
  // No front end's spelling leaks into another's, and none keeps a blank to fill.
  for (Advice each :
       {Advice::kSparseMethod, Advice::kHostDevice, Advice::kAdjlistFormat, Advice::kDelimiter,
        Advice::kHeaderRow, Advice::kForceOutput, Advice::kNoRoomForOutput, Advice::kFewerSources,
        Advice::kQuotingFormat, Advice::kEscapingFormat, Advice::kWithoutClosure}) {
    const std::string py = advice_text(each, Audience::kPython, ";");
    const std::string cpp = advice_text(each, Audience::kCpp, ";");
    const std::string cli = advice_text(each, Audience::kCli, ";");
    EXPECT_FALSE(py.empty() || cpp.empty() || cli.empty()) << int(each);
    for (const std::string& t : {py, cpp}) {
      EXPECT_EQ(t.find("--"), std::string::npos) << t;
      EXPECT_EQ(t.find("closure index"), std::string::npos) << t;
      EXPECT_EQ(t.find("GRAPH"), std::string::npos) << t;
    }
    EXPECT_EQ(py.find("::"), std::string::npos) << py;
    EXPECT_EQ(cli.find('@'), std::string::npos) << cli;
  }
  EXPECT_EQ(advice_text(Advice::kNone, Audience::kCli), "");
}

TEST(MemoryHint, AnErrorSaysItsAdviceToEachAudience) {
  OutOfMemoryError e("it needs 2 GB", Advice::kSparseMethod);
  EXPECT_EQ(std::string(e.what()), "it needs 2 GB; try Method::kSparse");
  EXPECT_EQ(e.said_to(Audience::kCli), "it needs 2 GB; try --method sparse");
  EXPECT_EQ(e.said_to(Audience::kPython), "it needs 2 GB; try method='sparse'");
  e.add_advice(Advice::kWithoutClosure);
  e.name_subject(Advice::kWithoutClosure, "g.txt");
  EXPECT_NE(e.said_to(Audience::kCli).find("`closure index g.txt -o g.txt.idx`"),
            std::string::npos);
  EXPECT_NE(std::string(e.what()).find("reach::build_index"), std::string::npos);
  EXPECT_EQ(said_to(std::runtime_error("plain"), Audience::kCli), "plain");
}

TEST(MemoryHint, RunGraphRefusesWithTheCommandsForItsInput) {
  // A random DAG whose closure rows need several MB, under a 4 MB limit (as
  // MemoryBudget.SparseRefusesWithTheSizesNamed), read from a file.
  const testing::TempDir dir;  // the graph and the closure written, removed with it
  const fs::path path = dir.path("g.txt");
  {
    std::ofstream out(path);
    std::mt19937 rng(3);
    std::uniform_int_distribution<int> v(0, 19999);
    for (int i = 0; i < 60000; ++i) {
      const int a = v(rng), b = v(rng);
      if (a != b) out << std::min(a, b) << ' ' << std::max(a, b) << '\n';
    }
  }
  Request o;
  o.input = path.string();
  o.compute.method = Method::kSparse;
  // The closure written: its rows are needed (counting alone would go by columns, within
  // the limit, cost_model.hpp).
  o.output = path.string() + ".closure";
  o.compute.host_memory_limit = 4'000'000;
  std::vector<std::string> warnings;  // told at once, before any row (row_estimate.hpp)
  o.compute.warn = [&](const Warning& w) { warnings.push_back(w.said_to(Audience::kCli)); };
  const std::string g = path.string();
  try {
    run_graph(o);
    FAIL() << "no refusal";
  } catch (const OutOfMemoryError& e) {
    const std::string m = e.said_to(Audience::kCli);
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
}

// Counting alone needs no rows: where sparse's rows, as estimated, would crowd the memory
// left, the count goes by columns whatever the timed predictions say, and is the count
// without a limit (the same graph as above, which the limit refuses when rows are needed).
TEST(MemoryHint, CountingAloneGoesByColumnsWhereRowsWouldNotFit) {
  std::mt19937 rng(3);
  std::uniform_int_distribution<int> v(0, 19999);
  std::vector<Edge> edges;
  for (int i = 0; i < 60000; ++i) {
    const int a = v(rng), b = v(rng);
    if (a != b) edges.emplace_back(vertex_t(std::min(a, b)), vertex_t(std::max(a, b)));
  }
  const Graph g(20000, std::move(edges));
  ComputeOptions o;
  o.method = Method::kSparse;
  o.propagate.rows_needed = false;
  const uint64_t unlimited = compute_closure(g, o).pair_count();
  o.host_memory_limit = 4'000'000;
  ComputeReport report;
  EXPECT_EQ(compute_closure(g, o, &report).pair_count(), unlimited);
  EXPECT_NE(report.reason.find("counted by columns"), std::string::npos) << report.reason;
  EXPECT_NE(report.reason.find("would crowd"), std::string::npos) << report.reason;
  o.propagate.rows_needed = true;  // the rows wanted: refused with the sizes named
  EXPECT_THROW(compute_closure(g, o), OutOfMemoryError);
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
  o.warn = [&](const Warning& w) { warnings.push_back(w.message); };
  EXPECT_EQ(compute_closure(g, o).pair_count(), uint64_t{199999} * 200000 / 2);
  EXPECT_TRUE(warnings.empty()) << warnings.front();
  o.method = Method::kSparse;
  EXPECT_EQ(compute_closure(g, o).pair_count(), uint64_t{199999} * 200000 / 2);
  EXPECT_TRUE(warnings.empty()) << warnings.front();
}

// A run that could take at most a few megabytes asks the kernel nothing (the limit is then
// unbounded); a named limit holds whatever the need, and a large need is probed.
TEST(MemoryHint, SmallNeedsProbeNothingNamedLimitsStillHold) {
  ComputeOptions o;
  EXPECT_GT(host_limit(o, 1e6), 1e15);
  EXPECT_GT(host_limit(o, kUnprobedBytes - 1), 1e15);
  // Probed (what is free moves between two reads, so each is only bounded).
  EXPECT_LE(host_limit(o, kUnprobedBytes), 0.9 * double(host_physical_memory()));
  EXPECT_LE(host_limit(o), 0.9 * double(host_physical_memory()));
  o.host_memory_limit = 5000;
  EXPECT_EQ(host_limit(o, 1e6), 5000.0);
  EXPECT_EQ(host_limit(o), 5000.0);
}

// Counting alone on a condensation this small goes by columns without the planner's row
// estimate, to the pair count of the rows themselves (cyclic and acyclic, awkward sizes).
TEST(MemoryHint, SmallCountsGoByColumnsUnplannedToTheRowsCount) {
  std::mt19937 rng(20261205);
  for (int n : {2, 33, 97, 500, 3001})
    for (bool cyclic : {false, true}) {
      std::uniform_int_distribution<int> v(0, n - 1);
      std::vector<Edge> edges;
      for (int i = 0; i < 2 * n; ++i) {
        int a = v(rng), b = v(rng);
        if (a == b) continue;
        if (!cyclic && a > b) std::swap(a, b);
        edges.emplace_back(vertex_t(a), vertex_t(b));
      }
      const Graph g(size_t(n), std::move(edges));
      ComputeOptions o;
      o.method = Method::kSparse;
      const uint64_t rows = compute_closure(g, o).pair_count();
      o.propagate.rows_needed = false;
      ComputeReport report;
      EXPECT_EQ(compute_closure(g, o, &report).pair_count(), rows) << n << " " << cyclic;
      if (compute_closure(g, o).component_count() >= 2) {
        EXPECT_NE(report.reason.find("counted by columns"), std::string::npos) << report.reason;
      }
    }
}

}  // namespace
}  // namespace closure
