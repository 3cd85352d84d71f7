// Boost.Graph as the reference: its transitive_closure (strict), a memory estimate for it,
// sampled BFS checks, and verify_against_boost choosing between them.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

#include "closure/algorithms/closure.hpp"
#include "closure/graph/graph.hpp"

namespace closure {

// Boost.Graph's transitive_closure on g (adjacency_list<vecS, vecS, directedS>), as
// sorted, duplicate-free pairs in g's vertex ids. Boost's result is already strict (a
// vertex gets (v,v) iff its SCC has > 1 vertex or it has a self-loop; tests check that),
// so nothing is added or removed except duplicate edges.
std::vector<Edge> boost_closure_pairs(const Graph& g);
// The same as a Closure (one group per vertex, sparse rows), to compare with ==.
Closure boost_closure(const Graph& g);

// Peak bytes Boost's transitive_closure needs on g, by replaying its chain decomposition
// (cheap: SCC, condensation, topological sort, greedy chains): its successor table is
// components x chains x sizeof(size_t) (human_dag: 11.1 GB; measured peak 11.4 GB), plus
// the closure graph it builds (~64 bytes per closure pair, measured) and its copies of g.
struct BoostEstimate {
  size_t components = 0;
  size_t chains = 0;
  uint64_t closure_pairs = 0;  // only if known (0 otherwise); the caller may pass it
  uint64_t bytes = 0;
};
// closure_pairs: the pair count if the caller knows it (e.g. from its own Closure);
// otherwise pass 0 and the closure graph is estimated from components x chains.
BoostEstimate estimate_boost_closure(const Graph& g, uint64_t closure_pairs = 0);

struct VerifyReport {
  bool match = false;
  std::string mode;             // "full" or "sampled K sources"
  uint64_t expected_pairs = 0;  // Boost's pairs (full), or summed over the sampled sources
  uint64_t actual_pairs = 0;    // the Closure's, counted the same way
  // Up to 10, ordered by (u, v): "u -> v: missing" (Boost has it, the Closure not) or
  // "u -> v: extra" (the other way round), in the input's labels.
  std::vector<std::string> first_mismatches;
  uint64_t estimate_bytes = 0;  // Boost's estimated memory, which decided the mode
};

// Full comparison with boost_closure_pairs when its estimate fits memory_budget_bytes;
// otherwise a sampled check: Boost.Graph breadth-first searches from `sample_sources`
// distinct random sources (fixed by `seed`, all vertices if sample_sources >= n),
// comparing each source's strict reach set with Closure::successors.
VerifyReport verify_against_boost(const Graph& g, const Closure& c, size_t memory_budget_bytes,
                                  size_t sample_sources, uint64_t seed);
// The sampled check alone (what verify_against_boost falls back to).
VerifyReport verify_sampled(const Graph& g, const Closure& c, size_t sample_sources, uint64_t seed);

}  // namespace closure
