// Generators for the synthetic benchmark graphs (fixed seeds, shuffled ids).
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
// random order (benchmark size: n = 100,000, m = 1,000,000).
Graph random_dag(size_t n, size_t m, uint64_t seed);

// One giant strongly connected component plus a DAG tail (benchmark size: n = 200,000). The
// first core_fraction of the vertices form the core (a Hamiltonian cycle plus random
// internal edges, avg out-degree `degree`); the tail is a random DAG downstream of the
// core (core -> tail and forward tail -> tail edges, avg out-degree `degree`).
Graph giant_scc_with_tail(size_t n, uint64_t seed, double core_fraction = 0.5, double degree = 4.0);

// A path v0 -> v1 -> ... -> v(n-1) (benchmark size: n = 1,000,000), ids shuffled.
Graph deep_chain(size_t n, uint64_t seed);

// A dense random DAG: each forward pair (in a hidden random order) is an edge with
// probability `density` (benchmark size: n = 20,000 at 10%, ~20 million edges).
Graph dense_dag(size_t n, double density, uint64_t seed);

// A road-network-like graph: a side x side grid (side = the rounded square root of n)
// whose every street segment exists with probability `keep` and is one-way, pointing
// right or down except with probability `against` (then left or up). Long paths run with
// the drift, a few short cycles form where segments point against it, and each vertex
// reaches a few percent of the others (benchmark size: n = 129,600, ~207,000 edges, about
// 8,000 reached each: the pair count of the US road network made one-way).
Graph road_grid(size_t n, uint64_t seed, double keep = 0.8, double against = 0.15);

// The benchmark graphs at their stated sizes, with names for tables.
struct NamedGraph {
  std::string name;
  Graph graph;
};
// scale < 1 shrinks every size proportionally (n and m), for quick runs and tests.
// issue4_graph takes a name or its short alias (issue4_graph_help lists both, from the
// one table the parser reads, so that --help cannot list a name that fails); an unknown
// name throws std::invalid_argument.
std::vector<std::string> issue4_graph_names();
NamedGraph issue4_graph(const std::string& name, double scale = 1.0);
std::string issue4_graph_help();

// Most vertices a generated graph may have: what the graph readers accept.
size_t max_generated_vertices();
// A vertex or edge count of a --generated spec: a whole number with an optional k, M or G
// suffix (1M = 10^6). Throws UsageError quoting `spec` when it is not one, or is outside
// [lo, hi] (`what` names the parameter: "N", "M").
size_t parse_generated_count(const std::string& text, const std::string& spec, const char* what,
                             size_t lo, size_t hi);
// Throws OutOfMemoryError naming `spec` when a graph of n vertices and about `edges` edges
// would not fit the memory this process may still use: refused before it is built, rather
// than ending in the OOM killer.
void check_generated_memory(const std::string& spec, size_t n, double edges);

// `closure bench closure --generated`: "all", a name or alias above, or "random-dag:N:M".
// check_generated_spec throws UsageError (naming the valid forms and ranges) for anything
// else; expand_generated_specs replaces "all" by the table's names; generated_graph checks a
// spec (its memory too) and builds it.
void check_generated_spec(const std::string& spec);
std::vector<std::string> expand_generated_specs(const std::vector<std::string>& specs);
NamedGraph generated_graph(const std::string& spec, double scale);

}  // namespace closure
