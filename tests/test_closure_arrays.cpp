// closure_csr and reaches_many (closure/algorithms/closure_arrays.hpp) against the
// Closure's own successors and reaches, on random graphs with cycles and self-loops.
#include <gtest/gtest.h>

#include <random>

#include "closure/algorithms/closure_arrays.hpp"
#include "closure/algorithms/host_closure.hpp"

namespace closure {
namespace {

Graph random_cyclic_graph(size_t n, size_t m, std::mt19937_64& rng) {
  std::vector<Edge> edges;
  std::uniform_int_distribution<vertex_t> pick(0, vertex_t(n - 1));
  for (size_t i = 0; i < m; ++i) edges.emplace_back(pick(rng), pick(rng));
  return Graph(n, std::move(edges));
}

TEST(ClosureArrays, CsrRowsAreTheSuccessors) {
  std::mt19937_64 rng(12);
  for (size_t n : {1, 2, 31, 32, 33, 100, 257}) {
    for (size_t m : {size_t(0), n / 2, n, 3 * n}) {
      const Graph g = random_cyclic_graph(n, m, rng);
      const Closure c = closure_sparse(g);
      for (bool reflexive : {false, true}) {
        const ClosureCsr csr = closure_csr(c, reflexive);
        ASSERT_EQ(csr.indptr.size(), n + 1);
        ASSERT_EQ(uint64_t(csr.indptr[n]), c.pair_count(reflexive));
        std::vector<vertex_t> row;
        for (vertex_t u = 0; u < n; ++u) {
          c.successors(u, row, reflexive);
          const std::vector<vertex_t> got(csr.indices.begin() + csr.indptr[u],
                                          csr.indices.begin() + csr.indptr[u + 1]);
          ASSERT_EQ(got, row) << "n=" << n << " m=" << m << " u=" << u;
        }
      }
    }
  }
}

TEST(ClosureArrays, ReachesManyMatchesReaches) {
  std::mt19937_64 rng(5);
  const Graph g = random_cyclic_graph(70, 90, rng);
  const Closure c = closure_sparse(g);
  std::vector<vertex_t> us, vs;
  for (vertex_t u = 0; u < 70; ++u)
    for (vertex_t v = 0; v < 70; ++v) us.push_back(u), vs.push_back(v);
  std::vector<uint8_t> out(us.size());
  for (bool reflexive : {false, true}) {
    reaches_many(c, us, vs, out, reflexive);
    for (size_t i = 0; i < us.size(); ++i)
      ASSERT_EQ(out[i] != 0, (reflexive && us[i] == vs[i]) || c.reaches(us[i], vs[i]));
  }
  vs[3] = 70;
  EXPECT_THROW(reaches_many(c, us, vs, out), std::out_of_range);
  out.pop_back();
  EXPECT_THROW(reaches_many(c, us, vs, out), std::invalid_argument);
}

}  // namespace
}  // namespace closure
