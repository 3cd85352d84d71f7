// Host (CPU) closure methods: `sparse` propagation (the product method) and `classic`
// (the benchmark peer), both over the SCC condensation.
#pragma once

#include <cstdint>

#include "closure/algorithms/closure.hpp"
#include "closure/algorithms/memory_budget.hpp"
#include "closure/algorithms/scc.hpp"
#include "closure/bitmatrix.hpp"
#include "closure/graph/graph.hpp"

namespace closure {

// A row's scattered components are stored as a sorted id list, not as the words they
// span, when they number at most span / kIdsPerWordSpan: then reading, copying and
// storing the row costs its components, not its span. On a random DAG every value from 1
// to 8 closed several times faster and smaller than words only, 1 and 2 the best; on a
// commit history, where rows are long, 2 came close to words only and 1 did not: 2 it is.
// Rows denser than that stay words (eight OR to an AVX2 instruction, where ids go one by one).
// (algorithms/row_estimate.cpp sizes sampled rows by the same rule.)
inline constexpr size_t kIdsPerWordSpan = 2;

struct SparseOptions {
  // Worker threads; 0 picks automatically: the whole thread budget (closure/executor.hpp)
  // when the condensation is large (components + edges >= 200,000), not too deep
  // (components per level of its longest path >= 64) and not too dense (<= 32 edges per
  // component, where nearly all edges are skipped and per-edge bookkeeping would
  // dominate); one thread otherwise.
  // Every thread count gives the same closure.
  unsigned threads = 0;
  // Row words are charged to it before each block is allocated (OutOfMemoryError when
  // the budget would be exceeded); null: unlimited.
  MemoryBudget* budget = nullptr;
  // The rows' words as estimated (auto's row estimate; 0: unknown). The first row block
  // takes them (at most 16 MiB, shared among the threads), on huge pages from 2 MiB: the
  // blocks that double up to that size had been faulted in 4 KiB at a time.
  uint64_t expected_row_words = 0;
};

// Sparse propagation on the condensation, components in reverse topological order:
// reach(c) = OR over c -> d of ({d} | reach(d)), skipping every d already reached
// (its reach is then already included: a transitive-reduction effect), with each row
// held as a run of consecutive components right after c (which covers c's DFS subtree
// in Tarjan's numbering) plus a bitset over only the words it touches. Returns a
// kRagged Closure. Memory ~ the closure's words outside the runs, never C*C/8 up front.
Closure closure_sparse(const Graph& g, const SparseOptions& options = {});
// The same on a condensation the caller already has (the CLI times phases apart); its
// ids must be topological as condense() makes them (c -> d implies c < d; checked,
// std::invalid_argument otherwise).
Closure closure_sparse(const Condensation& condensation, const SparseOptions& options = {});
// The same on the SCCs and condensation CSR (condensation_csr) the caller already has:
// auto made them to choose a method and hands them over instead of having them redone.
Closure closure_sparse(SccResult scc, const CsrDag& dag, const SparseOptions& options = {});

// The classic method, the benchmark peer, deliberately plain: one thread, SCC
// condensation, then for each component in reverse topological order OR each
// successor's full-width row (and its bit) into its own row of a C x C row-major bitset.
// Returns a kDense Closure. Memory: classic_memory_bytes(C).
Closure closure_classic(const Graph& g);
uint64_t classic_memory_bytes(size_t component_count);

// In place: the strict closure of a strictly upper-triangular adjacency matrix (a DAG in
// topological order), by the same propagation on its rows. A host fallback and test
// reference for the triangular/recursive device methods; either word order.
void close_upper_triangular(BitMatrix& m);

}  // namespace closure
