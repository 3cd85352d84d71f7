// closure_csr and reaches_many (closure/algorithms/closure_arrays.hpp) against the
// Closure's own successors and reaches, on random graphs with cycles and self-loops.
#include <gtest/gtest.h>

#include <algorithm>
#include <random>

#include "closure/algorithms/closure_arrays.hpp"
#include "closure/algorithms/host_closure.hpp"
#include "closure/errors.hpp"

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

// closure_csr walks rows through for_each_component_successor, which has a branch per
// representation: a ragged (sparse method), dense (classic) and sorted-list closure of
// the same graph give the same arrays, and those are the successors.
TEST(ClosureArrays, CsrIsTheSameFromEveryRepresentation) {
  std::mt19937_64 rng(41);
  for (size_t n : {1, 33, 300}) {
    for (size_t m : {n / 2, 2 * n}) {
      const Graph g = random_cyclic_graph(n, m, rng);
      const Closure ragged = closure_sparse(g);
      const Closure dense = closure_classic(g);
      std::vector<uint64_t> offsets{0};
      std::vector<vertex_t> targets, row;
      for (vertex_t c = 0; c < ragged.component_count(); ++c) {
        ragged.component_successors(c, row);
        targets.insert(targets.end(), row.begin(), row.end());
        offsets.push_back(targets.size());
      }
      const Closure lists = Closure::from_sparse(
          ragged.component_map(),
          [&] {
            std::vector<uint8_t> cyclic;
            for (vertex_t c = 0; c < ragged.component_count(); ++c)
              cyclic.push_back(ragged.component_cyclic(c));
            return cyclic;
          }(),
          offsets, targets);
      for (bool reflexive : {false, true}) {
        const ClosureCsr want = closure_csr(ragged, reflexive);
        for (const Closure* other : {&dense, &lists}) {
          const ClosureCsr got = closure_csr(*other, reflexive);
          EXPECT_EQ(got.indptr, want.indptr) << "n=" << n << " m=" << m;
          EXPECT_EQ(got.indices, want.indices) << "n=" << n << " m=" << m;
        }
      }
    }
  }
}

// A DAG whose ids are shuffled: reach sets scattered over many words, so the sparse method
// stores rows as id lists, and every component is one vertex (closure_csr's fast path).
TEST(ClosureArrays, ScatteredDagRowsEqualTheClassicClosure) {
  std::mt19937_64 rng(77);
  const size_t n = 3000;
  std::vector<vertex_t> name(n);
  for (size_t i = 0; i < n; ++i) name[i] = vertex_t(i);
  std::shuffle(name.begin(), name.end(), rng);
  std::vector<Edge> edges;
  std::uniform_int_distribution<size_t> pick(0, n - 1);
  for (size_t i = 0; i < 2 * n; ++i) {
    size_t a = pick(rng), b = pick(rng);
    if (a == b) continue;
    if (a > b) std::swap(a, b);
    edges.emplace_back(name[a], name[b]);
  }
  const Graph g(n, std::move(edges));
  const Closure sparse = closure_sparse(g);
  const Closure classic = closure_classic(g);
  ASSERT_EQ(sparse, classic);
  for (bool reflexive : {false, true}) {
    const ClosureCsr a = closure_csr(sparse, reflexive), b = closure_csr(classic, reflexive);
    EXPECT_EQ(a.indptr, b.indptr);
    EXPECT_EQ(a.indices, b.indices);
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
  EXPECT_THROW(reaches_many(c, us, vs, out), UsageError);
  out.pop_back();
  EXPECT_THROW(reaches_many(c, us, vs, out), UsageError);
}

}  // namespace
}  // namespace closure
