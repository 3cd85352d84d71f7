// The host's sparse closure rows sized before they are made (memory found early). A
// sample of components is searched and each row sized exactly as sparse would store it;
// the mean times the components is the estimate. It warns at once that a run
// will likely not fit, naming the way on without the closure; it never refuses: an
// estimate is not a bound, and only the rows' budget (memory_budget.hpp) stops a run.
#pragma once

#include <cstdint>
#include <optional>
#include <span>

#include "closure/bitmatrix.hpp"
#include "closure/graph/csr_dag.hpp"
#include "closure/graph/graph.hpp"

namespace closure {

// Words sparse stores for component c's row, `reach` its reached components (sorted,
// c excluded, every id > c): the run [c+1, e) right after c costs two numbers held in
// the row itself; the rest is its ids or the words they span (kIdsPerWordSpan).
size_t stored_row_words(vertex_t c, std::span<const vertex_t> reach);

// stored_row_words() and the row's scratch span for component c's reach held as bits of an
// n-bit row: `count` components above c set, the highest `last` (c's own bit may be set
// too). No sort of the ids: the estimate's searches sort nothing.
struct RowSize {
  size_t words = 0;  // stored_row_words(c, reach)
  size_t span = 0;   // words from the first reached id past the run after c to the last
  size_t reach = 0;  // words from c + 1 to the last reached id, the run included: what a
                     // count by columns ORs the row over (column_count.cpp)
};
RowSize row_size_from_bits(vertex_t c, const word_t* bits, size_t n, uint64_t count, vertex_t last);

struct RowEstimate {
  double bytes = 0;        // of all rows' stored words
  double span_words = 0;   // mean words from a row's lowest reached id past its run to its
                           // highest: what sparse's scratch row is scanned and cleared over
  double reach_words = 0;  // mean RowSize::reach: the words a count by columns ORs a row over
  size_t samples = 0;      // components searched
  size_t cut = 0;          // of which searches stopped at their share of the time: their rows
                           // count what they reached, so the estimate is then low
};

// From `samples` components drawn uniformly (with replacement, from `seed`), each one's
// reach found by a search of `dag` (ids topological). Bounded in time, not in work: each
// search has `seconds / samples` and, past it, stops where it is, so the estimate answers
// in about `seconds` on any graph (the graphs whose rows are huge are those it must not
// give up on).
// Up to 64 samples, on a graph of at most kOnePassMost components and edges, are sized by
// one pass over it (a 64-bit mask a component, 32 MB at most) once their searches' work
// passes half of it: the same sizes, for less work where they reach far, and never cut by
// the clock. `path` forces one way (tests).
inline constexpr size_t kOnePassMost = size_t{1} << 22;
enum class EstimatePath { kChosen, kSearches, kOnePass };
RowEstimate estimate_row_bytes(const CsrDag& dag, size_t samples, double seconds, uint64_t seed = 1,
                               EstimatePath path = EstimatePath::kChosen);

}  // namespace closure
