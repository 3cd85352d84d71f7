// Boost.Graph as the reference: its transitive_closure (strict), a memory estimate for it,
// sampled BFS checks, and verify_against_boost choosing between them.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>
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

// MATCH: no difference, and enough was compared to say so. MISMATCH: a difference.
// INCONCLUSIVE: a sampled check that found no difference but compared fewer than
// kMinSampledPairs pairs, too little to vouch for the closure.
enum class Verdict { kMatch, kMismatch, kInconclusive };
std::string_view verdict_name(Verdict v);  // "MATCH", "MISMATCH", "INCONCLUSIVE"

// A sampled check that is not exhaustive must compare at least this many pairs to MATCH.
inline constexpr uint64_t kMinSampledPairs = 64;

struct VerifyReport {
  bool match = false;           // no difference found, and conclusive
  bool inconclusive = false;    // no difference found, but too few pairs compared
  std::string mode;             // "full", "sampled K of N sources" or "sampled all N sources"
  uint64_t expected_pairs = 0;  // Boost's pairs (full), or summed over the sampled sources
  uint64_t actual_pairs = 0;    // the Closure's, counted the same way
  // Up to 10, ordered by (u, v): "u -> v: missing" (Boost has it, the Closure not) or
  // "u -> v: extra" (the other way round), in the input's labels.
  std::vector<std::string> first_mismatches;
  uint64_t estimate_bytes = 0;  // Boost's estimated memory, which decided the mode
  std::string note;             // why the mode was chosen when it was not the budget
  Verdict verdict() const {
    return match ? Verdict::kMatch : inconclusive ? Verdict::kInconclusive : Verdict::kMismatch;
  }
};

// Full comparison with boost_closure_pairs when its estimate fits memory_budget_bytes (and
// the memory this process may still allocate: rlimits, cgroup); otherwise, or when Boost
// runs out of memory anyway, a sampled check. Throws OutOfMemoryError (errors.hpp) when
// not even the sampled check fits, std::invalid_argument when sample_sources is 0.
VerifyReport verify_against_boost(const Graph& g, const Closure& c, size_t memory_budget_bytes,
                                  size_t sample_sources, uint64_t seed);
// The sampled check alone (what verify_against_boost falls back to): Boost.Graph
// breadth-first searches from `sample_sources` distinct random sources (fixed by `seed`)
// among the vertices with an out-edge (a sink reaches nothing, so it proves nothing), all
// of them when there are no more; every sink's row is checked to be empty. Exhaustive when
// every vertex with an out-edge was a source, and then conclusive whatever the pair count.
VerifyReport verify_sampled(const Graph& g, const Closure& c, size_t sample_sources, uint64_t seed);

}  // namespace closure
