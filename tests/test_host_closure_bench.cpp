// Tests of the issue-4 graph generators and the host closure benchmark (forked children,
// memory cap refusals and failures, agreement of pair counts).
#include <gtest/gtest.h>

#include <numeric>

#include "bench/closure_bench.hpp"
#include "bench/generators.hpp"
#include "closure/algorithms/host_closure.hpp"
#include "closure/algorithms/scc.hpp"
#include "closure/errors.hpp"

namespace closure {
namespace {

TEST(HostClosureBench, GeneratorsHaveTheStatedShape) {
  const Graph dag = random_dag(1000, 5000, 1);
  EXPECT_EQ(dag.vertex_count(), 1000u);
  EXPECT_EQ(dag.edge_count(), 5000u);
  EXPECT_TRUE(is_dag(dag));
  EXPECT_EQ(random_dag(1000, 5000, 1).edges(), dag.edges());  // fixed seed, fixed graph

  const Graph chain = deep_chain(5000, 2);
  EXPECT_EQ(chain.edge_count(), 4999u);
  EXPECT_EQ(closure_sparse(chain).pair_count(), 5000u * 4999 / 2);

  const Graph giant = giant_scc_with_tail(4000, 3);
  const SccResult scc = strongly_connected_components(giant);
  EXPECT_EQ(scc.component_count(), 2001u);  // the core plus 2000 tail vertices
  EXPECT_TRUE(scc.cyclic[0]);               // the core is a source component
  EXPECT_TRUE(is_dag(condensation_dag(giant, scc)));

  const Graph dense = dense_dag(400, 0.1, 4);
  EXPECT_TRUE(is_dag(dense));
  const double expected = 0.1 * 400 * 399 / 2;
  EXPECT_NEAR(double(dense.edge_count()), expected, expected * 0.1);

  for (const std::string& name : issue4_graph_names()) {
    const NamedGraph g = issue4_graph(name, 0.01);
    EXPECT_EQ(g.name, name);
    EXPECT_GT(g.graph.vertex_count(), 1u);
  }
  EXPECT_THROW(issue4_graph("nope"), UsageError);
}

TEST(HostClosureBench, RowsForEveryMethodAgree) {
  const Graph g = giant_scc_with_tail(600, 9);
  HostClosureBenchOptions options;
  options.repeats = 2;
  const auto rows = bench_host_closure("giant", g, options);
  ASSERT_EQ(rows.size(), 3u);
  EXPECT_EQ(rows[0].method, "sparse");
  EXPECT_EQ(rows[1].method, "classic");
  EXPECT_EQ(rows[2].method, "boost");
  const uint64_t pairs = closure_sparse(g).pair_count();
  for (const auto& r : rows) {
    SCOPED_TRACE(r.method);
    EXPECT_TRUE(r.ok()) << r.status;
    EXPECT_TRUE(r.agrees);
    EXPECT_EQ(r.pairs, pairs);
    // Two runs, and more only while the runs so far took under a millisecond, up to 16.
    const double spent = std::accumulate(r.runs.begin(), r.runs.end(), 0.0);
    ASSERT_GE(r.runs.size(), 2u);
    EXPECT_LE(r.runs.size(), 16u);
    if (r.runs.size() > 2) {
      EXPECT_LT(spent - r.runs.back(), 1e-3);
    }
    if (spent < 1e-3) {
      EXPECT_EQ(r.runs.size(), 16u);
    }
    EXPECT_GT(r.seconds, 0);
    EXPECT_EQ(r.components, 301u);
  }
  const std::string table = format_host_closure_bench(rows);
  EXPECT_NE(table.find("giant"), std::string::npos);
  EXPECT_NE(table.find("boost"), std::string::npos);
}

TEST(HostClosureBench, ProductMethodsRunBesideTheHostOnesAndAgree) {
  const Graph g = giant_scc_with_tail(600, 9);
  HostClosureBenchOptions options;
  options.repeats = 1;
  options.run_boost = false;
  options.product_methods = {"auto", "condense", "recursive"};
  const auto rows = bench_host_closure("giant", g, options);
  ASSERT_EQ(rows.size(), 5u);
  EXPECT_EQ(rows[1].method, "auto");
  EXPECT_EQ(rows[3].method, "recursive");
  const uint64_t pairs = closure_sparse(g).pair_count();
  for (const auto& r : rows) {
    SCOPED_TRACE(r.method);
    EXPECT_TRUE(r.ok()) << r.status;
    EXPECT_TRUE(r.agrees);
    EXPECT_EQ(r.pairs, pairs);
  }
}

TEST(HostClosureBench, CapRefusesAndFailuresAreReported) {
  const Graph g = random_dag(3000, 30000, 5);
  HostClosureBenchOptions options;
  options.repeats = 1;
  // A cap far below classic's 3000 x 3000 bits and Boost's table: both refused.
  options.memory_cap_bytes = 100'000;
  options.run_sparse = false;
  auto rows = bench_host_closure("tiny-cap", g, options);
  ASSERT_EQ(rows.size(), 2u);
  for (const auto& r : rows) {
    EXPECT_FALSE(r.ok());
    EXPECT_EQ(r.status.rfind("refused: needs ~", 0), 0u) << r.status;
  }
  // A timeout is a failure, not a hang (this closure takes ~0.1 s, the limit is 1 ms).
  options.memory_cap_bytes = uint64_t{4} << 30;
  options.run_sparse = true;
  options.run_classic = options.run_boost = false;
  options.timeout_s = 0.001;
  rows = bench_host_closure("timeout", giant_scc_with_tail(100'000, 6), options);
  ASSERT_EQ(rows.size(), 1u);
  EXPECT_EQ(rows[0].status.rfind("failed: timeout", 0), 0u) << rows[0].status;
}

}  // namespace
}  // namespace closure
