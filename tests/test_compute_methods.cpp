// Every closure method, on the host engine and on the OpenCL device, equals Boost.Graph's
// transitive_closure on 1,000+ random graphs: DAGs, cyclic graphs, self-loops, isolated
// vertices, sizes around 31-33, 63-65 and tile multiples.
#include <gtest/gtest.h>

#include <numeric>
#include <random>

#include "closure/engine/compute.hpp"
#include "closure/verify/boost_closure.hpp"
#include "test_support.hpp"

namespace closure {
namespace {

// Graph kinds the property test draws from.
Graph random_graph(std::mt19937_64& rng, size_t n, int kind) {
  std::vector<Edge> edges;
  std::uniform_int_distribution<vertex_t> pick(0, vertex_t(n - 1));
  const double degree = std::uniform_real_distribution<double>(0.2, 3.0)(rng);
  const size_t m = size_t(degree * double(n));
  for (size_t i = 0; i < m; ++i) {
    vertex_t u = pick(rng), v = pick(rng);
    if (kind == 0) {  // DAG over a shuffled order: an edge goes from lower to higher rank
      if (u == v) continue;
      if (u > v) std::swap(u, v);
    }
    if (kind == 1 && u == v) continue;  // cyclic, no self-loops
    edges.emplace_back(u, v);           // kind 2: anything, self-loops included
  }
  if (kind == 0) {  // hide the order so the methods must find it
    std::vector<vertex_t> perm(n);
    std::iota(perm.begin(), perm.end(), 0);
    std::shuffle(perm.begin(), perm.end(), rng);
    for (auto& [u, v] : edges) u = perm[u], v = perm[v];
  }
  return Graph(n, std::move(edges));  // vertices without edges stay isolated
}

constexpr size_t kSizes[] = {1, 2, 5, 31, 32, 33, 63, 64, 65, 100, 127, 128, 129, 257};

TEST(ComputeMethods, EveryMethodEqualsBoostOnRandomGraphs) {
  std::vector<ocl::Runtime*> engines{nullptr};
  if (testing::test_runtime()) engines.push_back(testing::test_runtime());
  std::mt19937_64 rng(20261129);
  int graphs = 0;
  for (int round = 0; round < 25; ++round)
    for (size_t n : kSizes)
      for (int kind = 0; kind < 3; ++kind) {
        const Graph g = random_graph(rng, n, kind);
        const Closure expect = boost_closure(g);
        ++graphs;
        for (ocl::Runtime* rt : engines)
          for (Method m : {Method::kAuto, Method::kSquare, Method::kCondense, Method::kRecursive,
                           Method::kSparse, Method::kPropagate}) {
            ComputeOptions o;
            o.method = m;
            o.runtime = rt;
            ComputeReport report;
            const Closure got = compute_closure(g, o, &report);
            ASSERT_EQ(got.pair_count(), expect.pair_count())
                << method_name(m) << " on " << report.device << ", n=" << n << " kind=" << kind;
            ASSERT_TRUE(got == expect) << method_name(m) << " on " << report.device << ", n=" << n;
            ASSERT_NE(report.method, Method::kAuto);
          }
      }
  EXPECT_GE(graphs, 1000);
}

TEST(ComputeMethods, ReportDescribesTheRun) {
  // 0 -> 1 -> 2 -> 0 (one cyclic component), 2 -> 3, 4 isolated
  const Graph g(5, {{0, 1}, {1, 2}, {2, 0}, {2, 3}});
  ComputeOptions o;
  o.method = Method::kCondense;
  ComputeReport report;
  const Closure c = compute_closure(g, o, &report);
  EXPECT_EQ(report.components, 3u);
  EXPECT_FALSE(report.dag);
  EXPECT_EQ(report.device, "host");
  EXPECT_EQ(c.pair_count(), 9u + 3u);  // the cycle's 9 pairs, and each of 0,1,2 -> 3
  o.method = Method::kAuto;
  compute_closure(g, o, &report);
  EXPECT_EQ(report.method, Method::kSparse);
  EXPECT_NE(report.reason.find("sparse"), std::string::npos);
}

TEST(ComputeMethods, DenseMethodsRefuseWhatDoesNotFitAndNameTheSize) {
  std::vector<Edge> chain;
  for (vertex_t v = 0; v + 1 < 200000; ++v) chain.emplace_back(v, v + 1);
  const Graph g(200000, chain);
  ComputeOptions o;
  o.method = Method::kCondense;
  o.host_memory_limit = size_t(1) << 30;
  try {
    compute_closure(g, o);
    FAIL() << "expected a refusal";
  } catch (const OutOfMemoryError& e) {
    EXPECT_NE(std::string(e.what()).find("GB of host memory"), std::string::npos) << e.what();
  }
  o.method = Method::kSparse;  // the sparse method fits: a chain's rows are runs
  EXPECT_EQ(compute_closure(g, o).pair_count(), uint64_t(200000) * 199999 / 2);
}

TEST(ComputeMethods, DenseMethodsOnTheHostCountTheirWorkingCopies) {
  // On the host engine a dense method's working copies are host memory: squaring peaks near
  // 8 matrices, recursive near 6. A limit of 5 matrices is refused before any work (2.5
  // had been counted, and the run had failed partway where memory was really that short).
  std::vector<Edge> chain;
  for (vertex_t v = 0; v + 1 < 2048; ++v) chain.emplace_back(v, v + 1);
  const Graph g(2048, chain);
  const size_t matrix = size_t(2048) * 2048 / 8;
  for (Method m : {Method::kSquare, Method::kCondense, Method::kRecursive}) {
    ComputeOptions o;
    o.method = m;
    o.host_memory_limit = (m == Method::kRecursive ? 5 : 7) * matrix;
    EXPECT_THROW(compute_closure(g, o), OutOfMemoryError) << method_name(m);
    o.host_memory_limit = 9 * matrix;
    EXPECT_EQ(compute_closure(g, o).pair_count(), uint64_t(2048) * 2047 / 2) << method_name(m);
  }
}

TEST(ComputeMethods, MethodNamesRoundTrip) {
  for (Method m :
       {Method::kAuto, Method::kSquare, Method::kCondense, Method::kRecursive, Method::kSparse})
    EXPECT_EQ(parse_method(method_name(m)), m);
  EXPECT_THROW(parse_method("fast"), UsageError);  // a user-given name: a usage error
}

}  // namespace
}  // namespace closure
