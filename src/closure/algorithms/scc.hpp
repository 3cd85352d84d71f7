// Strongly connected components (iterative Tarjan), the condensation DAG, topological order.
#pragma once

#include <cstdint>
#include <optional>
#include <vector>

#include "closure/graph/csr_dag.hpp"
#include "closure/graph/graph.hpp"

namespace closure {

// Components numbered in TOPOLOGICAL order of the condensation: every edge between two
// different components goes from a lower id to a higher one (c -> d implies c < d), so
// component 0 has no incoming edges from other components and the last component has
// no outgoing ones. The condensation's adjacency matrix in these ids is strictly upper
// triangular -- what the triangular kernel and the propagation methods want.
struct SccResult {
  std::vector<vertex_t> component_of;  // vertex -> component id
  std::vector<uint8_t> cyclic;         // per component: size > 1 or a self-loop (1), else 0
  size_t component_count() const { return cyclic.size(); }
};

// Iterative Tarjan: O(n + m) time, no recursion (a 1,000,000-vertex path is fine).
SccResult strongly_connected_components(const Graph& g);

// The condensation DAG over component ids (edges c -> d, c < d, no duplicates, no
// self-loops); labels are empty.
Graph condensation_dag(const Graph& g, const SccResult& scc);

// The same condensation as bare CSR arrays (graph/csr_dag.hpp).
CsrDag condensation_csr(const Graph& g, const SccResult& scc);

// Vertices per component. Pair counts weigh each component by its size only where some
// component holds several (weighted_sizes: those sizes, or none when every size is 1).
std::vector<uint32_t> component_sizes(const SccResult& scc);
std::vector<uint32_t> weighted_sizes(const SccResult& scc);

// The condensation: the components (topological ids) and the DAG over them as CSR. The one
// condensation type every pipeline uses, and condense() the one way to it: Kahn's algorithm,
// taking the ready vertices depth-first (ids as a DFS gives them, a subtree's consecutive),
// which on a DAG is the whole condensation with no DFS of Tarjan's (half its time on a
// 10M-commit history); on a graph with cycles, Kahn's placed vertices (those with no cycle
// upstream) first, then Tarjan over the rest.
struct Condensation {
  SccResult scc;
  CsrDag dag;
  size_t component_count() const { return scc.component_count(); }
};
Condensation condense(const Graph& g);

// A topological order (order[i] = the i-th vertex; every edge goes forward), or nullopt
// if the graph has a cycle (a self-loop counts). condense()'s Kahn pass (ready vertices
// depth-first); only validity is promised.
std::optional<std::vector<vertex_t>> topological_order(const Graph& g);
bool is_dag(const Graph& g);

}  // namespace closure
