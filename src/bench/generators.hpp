// Generators for the synthetic benchmark graphs of issue 4 (fixed seeds, shuffled ids).
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

#include "closure/graph/graph.hpp"

namespace closure {

// Every generator relabels vertices by a seeded random permutation, so vertex ids carry
// no hint of the topological order (a method must not depend on ids lining up).

// A uniform random DAG: exactly m distinct edges u -> v with u before v in a hidden
// random order (issue 4: n = 100,000, m = 1,000,000).
Graph random_dag(size_t n, size_t m, uint64_t seed);

// One giant strongly connected component plus a DAG tail (issue 4: n = 200,000). The
// first core_fraction of the vertices form the core (a Hamiltonian cycle plus random
// internal edges, avg out-degree `degree`); the tail is a random DAG downstream of the
// core (core -> tail and forward tail -> tail edges, avg out-degree `degree`).
Graph giant_scc_with_tail(size_t n, uint64_t seed, double core_fraction = 0.5, double degree = 4.0);

// A path v0 -> v1 -> ... -> v(n-1) (issue 4: n = 1,000,000), ids shuffled.
Graph deep_chain(size_t n, uint64_t seed);

// A dense random DAG: each forward pair (in a hidden random order) is an edge with
// probability `density` (issue 4: n = 20,000 at 10%, ~20 million edges).
Graph dense_dag(size_t n, double density, uint64_t seed);

// The four graphs of issue 4 at their stated sizes, with names for tables.
struct NamedGraph {
  std::string name;
  Graph graph;
};
// scale < 1 shrinks every size proportionally (n and m), for quick runs and tests.
std::vector<std::string> issue4_graph_names();
NamedGraph issue4_graph(const std::string& name, double scale = 1.0);

}  // namespace closure
