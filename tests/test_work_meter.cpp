// WorkMeter: the share a progress line shows while reading and computing. The
// reader and the closure must count their whole work on the meter the caller installs.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <random>

#include "closure/algorithms/host_closure.hpp"
#include "closure/algorithms/scc.hpp"
#include "closure/graph/read_graph.hpp"
#include "closure/util/work_meter.hpp"

namespace closure {
namespace {

namespace fs = std::filesystem;

fs::path temp_file(const std::string& name) {
  return fs::temp_directory_path() / (name + "-" + std::to_string(::getpid()));
}

TEST(WorkMeter, ShareAndScopes) {
  WorkMeter m;
  EXPECT_EQ(m.share(), -1);  // no total yet
  m.start(200);
  m.add(50);
  EXPECT_DOUBLE_EQ(m.share(), 0.25);
  m.add(1000);
  EXPECT_DOUBLE_EQ(m.share(), 1.0);  // capped
  m.start(0);
  EXPECT_EQ(m.share(), -1);

  EXPECT_EQ(current_work_meter(), nullptr);
  {
    WorkMeterScope outer(&m);
    EXPECT_EQ(current_work_meter(), &m);
    {
      WorkMeterScope inner(nullptr);
      EXPECT_EQ(current_work_meter(), nullptr);
    }
    EXPECT_EQ(current_work_meter(), &m);
  }
  EXPECT_EQ(current_work_meter(), nullptr);
}

// Reading counts every byte after the header lines it peeks: the share ends at 1 on both
// the parallel edge-list path (chunks) and a line-by-line reader (.gra).
TEST(WorkMeter, ReadingCountsTheFilesBytes) {
  const fs::path edges = temp_file("meter-edges.txt"), gra = temp_file("meter.gra");
  constexpr int n = 150000;
  {
    std::ofstream e(edges), g(gra);
    g << "graph_for_greach\n" << n << "\n";
    for (int v = 0; v < n; ++v) {
      if (v + 1 < n) e << v << ' ' << v + 1 << '\n';
      g << v << ": " << (v + 1 < n ? std::to_string(v + 1) + " " : "") << "#\n";
    }
  }
  for (const fs::path& p : {edges, gra}) {
    WorkMeter m;
    {
      WorkMeterScope scope(&m);
      const ReadResult r = read_graph(p.string());
      EXPECT_EQ(r.graph.vertex_count(), size_t(n)) << p;
    }
    EXPECT_GT(m.share(), 0.99) << p;
    fs::remove(p);
  }
}

TEST(WorkMeter, SparseClosureCountsItsRows) {
  // A random DAG: every component is a row of the propagation.
  constexpr vertex_t n = 20000;
  std::mt19937_64 rng(7);
  std::vector<Edge> edges;
  for (int i = 0; i < 60000; ++i) {
    vertex_t u = vertex_t(rng() % n), v = vertex_t(rng() % n);
    if (u == v) continue;
    edges.emplace_back(std::min(u, v), std::max(u, v));
  }
  const Graph g(n, std::move(edges));
  for (unsigned threads : {1u, 2u}) {
    WorkMeter m;
    {
      WorkMeterScope scope(&m);
      SparseOptions o;
      o.threads = threads;
      const Closure c = closure_sparse(g, o);
      EXPECT_GT(c.pair_count(), 0u);
    }
    // Rows are added 64 at a time: at most 63 per worker are not yet counted.
    EXPECT_GE(m.share(), double(n - 64 * threads) / n) << threads << " threads";
  }
}

}  // namespace
}  // namespace closure
