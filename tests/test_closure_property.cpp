// Property tests: every host method and every Closure representation equals Boost.Graph's
// transitive_closure on over a thousand fixed-seed random graphs.
#include <gtest/gtest.h>

#include <algorithm>
#include <numeric>
#include <random>

#include "closure/algorithms/closure.hpp"
#include "closure/algorithms/host_closure.hpp"
#include "closure/algorithms/scc.hpp"
#include "closure/errors.hpp"
#include "closure/verify/boost_closure.hpp"

namespace closure {
namespace {

enum class Kind { kDag, kCyclic, kSelfLoops, kIsolated, kCyclesWithTails, kCount };

const char* kind_name(Kind k) {
  static const char* names[] = {"dag", "cyclic", "self-loops", "isolated", "cycles+tails"};
  return names[int(k)];
}

// A random graph of the given kind; ids are shuffled so that structure never lines up
// with vertex order by accident.
Graph random_graph(size_t n, Kind kind, std::mt19937_64& rng) {
  static const double kDegrees[] = {0.3, 0.7, 1.0, 1.5, 2.5, 4.0};
  double p = kDegrees[rng() % 6] / std::max<size_t>(n, 1);
  if (rng() % 8 == 0) p = 0.05 + 0.25 * double(rng() % 100) / 100;  // dense now and then
  std::bernoulli_distribution coin(std::min(1.0, p));
  std::vector<vertex_t> perm(n);
  std::iota(perm.begin(), perm.end(), vertex_t{0});
  std::shuffle(perm.begin(), perm.end(), rng);
  std::vector<Edge> edges;
  const size_t active = kind == Kind::kIsolated ? n / 2 : n;  // the rest stay isolated
  for (size_t i = 0; i < active; ++i)
    for (size_t j = 0; j < active; ++j) {
      const bool forward = i < j;
      if (kind == Kind::kDag && !forward) continue;
      if (i == j) continue;
      if (coin(rng)) edges.emplace_back(perm[i], perm[j]);
    }
  if (kind == Kind::kSelfLoops || kind == Kind::kIsolated)
    for (size_t i = 0; i < active; ++i)
      if (rng() % 6 == 0) edges.emplace_back(perm[i], perm[i]);
  if (kind == Kind::kCyclesWithTails && n > 1) {
    // A few cycles over consecutive perm ranges, on top of a sparse forward DAG.
    edges.erase(std::remove_if(edges.begin(), edges.end(),
                               [&](const Edge& e) {
                                 return std::find(perm.begin(), perm.end(), e.first) >
                                        std::find(perm.begin(), perm.end(), e.second);
                               }),
                edges.end());
    for (size_t start = 0; start + 1 < n;) {
      const size_t len = std::min<size_t>(n - start, 1 + rng() % 5);
      if (len > 1 && rng() % 2)
        for (size_t k = 0; k < len; ++k)
          edges.emplace_back(perm[start + k], perm[start + (k + 1) % len]);
      start += len + rng() % 4;
    }
  }
  return Graph(n, std::move(edges));
}

// The same closure in the dense representation, built from another Closure's component
// rows, so both representations are checked against each other and against Boost.
Closure as_dense(const Closure& c, WordOrder order, Padding padding) {
  BitMatrix m(c.component_count(), c.component_count(), padding, order);
  std::vector<vertex_t> row;
  for (vertex_t k = 0; k < c.component_count(); ++k) {
    c.component_successors(k, row);
    for (vertex_t d : row) m.set(k, d);
  }
  std::vector<uint8_t> cyclic(c.component_count());
  for (vertex_t k = 0; k < c.component_count(); ++k) cyclic[k] = c.component_cyclic(k);
  return Closure::from_dense(c.component_map(), std::move(cyclic), std::move(m));
}

TEST(ClosureProperty, HostMethodsEqualBoostOnRandomGraphs) {
  std::mt19937_64 rng(20240601);
  std::vector<size_t> sizes;
  for (size_t n = 1; n <= 70; ++n) sizes.push_back(n);
  for (size_t n : {31, 32, 33, 63, 64, 65, 95, 96, 97, 127, 128, 129}) sizes.push_back(n);
  size_t graphs = 0;
  std::vector<vertex_t> succ, succ2;
  for (int round = 0; round < 20; ++round) {
    for (size_t i = 0; i < sizes.size(); ++i) {
      size_t n = sizes[i];
      if (round >= 12 && i % 5 == 0) n = 130 + rng() % 131;  // a few ~130-260
      const Kind kind = Kind((round + i) % int(Kind::kCount));
      const Graph g = random_graph(n, kind, rng);
      SCOPED_TRACE(std::string(kind_name(kind)) + " n=" + std::to_string(n) +
                   " m=" + std::to_string(g.edge_count()) + " graph#" + std::to_string(graphs));
      const std::vector<Edge> expected = boost_closure_pairs(g);
      const Closure sparse = closure_sparse(g, {1});
      const Closure sparse2 = closure_sparse(g, {2});
      const Closure classic = closure_classic(g);
      ASSERT_EQ(sparse.pairs(), expected);
      ASSERT_EQ(sparse2.pairs(), expected);
      ASSERT_EQ(classic.pairs(), expected);
      ASSERT_EQ(sparse.pair_count(), expected.size());
      ASSERT_EQ(classic.pair_count(), expected.size());
      ASSERT_EQ(sparse.pair_count(true), sparse.pairs(true).size());
      ASSERT_TRUE(sparse == classic);
      // Representations: dense in both word orders and with kernel-like padding.
      const Closure dense_cm = as_dense(sparse, WordOrder::kColumnMajor, {64, 2});
      const Closure dense_rm = as_dense(sparse, WordOrder::kRowMajor, {1, 3});
      ASSERT_EQ(dense_cm.pairs(), expected);
      ASSERT_EQ(dense_rm.pair_count(), expected.size());
      // Point queries and successor lists agree with the pair list.
      const BitMatrix full = BitMatrix::from_pairs(n, n, expected);
      for (int q = 0; q < 40 && n > 0; ++q) {
        const vertex_t u = vertex_t(rng() % n), v = vertex_t(rng() % n);
        ASSERT_EQ(sparse.reaches(u, v), full.get(u, v)) << u << " -> " << v;
        ASSERT_EQ(dense_cm.reaches(u, v), full.get(u, v)) << u << " -> " << v;
      }
      if (n > 0) {
        const vertex_t u = vertex_t(rng() % n);
        sparse.successors(u, succ, true);
        classic.successors(u, succ2, true);
        ASSERT_EQ(succ, succ2);
        ASSERT_TRUE(std::is_sorted(succ.begin(), succ.end()));
        ASSERT_TRUE(std::binary_search(succ.begin(), succ.end(), u));  // reflexive
      }
      ++graphs;
    }
  }
  EXPECT_GE(graphs, 1000u);
}

TEST(ClosureProperty, FullMatrixEqualsBoost) {
  // from_full_matrix: one group per vertex, self-reach on the diagonal.
  std::mt19937_64 rng(77);
  for (int t = 0; t < 150; ++t) {
    const size_t n = 1 + rng() % 70;
    const Graph g = random_graph(n, Kind(t % int(Kind::kCount)), rng);
    const std::vector<Edge> expected = boost_closure_pairs(g);
    const BitMatrix m = BitMatrix::from_pairs(n, n, expected, {32, 2});
    const Closure c = from_full_matrix(m);
    ASSERT_EQ(c.pairs(), expected) << "n=" << n;
    ASSERT_TRUE(c == closure_sparse(g));
  }
}

TEST(ClosureProperty, UpperTriangularHostClosureEqualsBoost) {
  std::mt19937_64 rng(99);
  for (int t = 0; t < 150; ++t) {
    const size_t n = 1 + rng() % 100;
    const double density = double(rng() % 30) / 100.0;
    BitMatrix m = BitMatrix::random(n, n, density, rng(), {}, /*upper_strict=*/true)
                      .repadded({}, WordOrder::kRowMajor);
    const Graph g(n, m.to_pairs());
    BitMatrix col_major = m.repadded({32, 2}, WordOrder::kColumnMajor);
    close_upper_triangular(m);
    close_upper_triangular(col_major);
    const std::vector<Edge> expected = boost_closure_pairs(g);
    ASSERT_EQ(m.to_pairs(), expected) << "n=" << n;
    ASSERT_EQ(col_major.to_pairs(), expected) << "n=" << n;
    ASSERT_TRUE(col_major.padding_is_zero());
  }
  BitMatrix lower(4, 4);
  lower.set(2, 1);
  EXPECT_THROW(close_upper_triangular(lower), InternalError);
}

}  // namespace
}  // namespace closure
