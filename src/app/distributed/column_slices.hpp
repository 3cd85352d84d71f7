// The closure of a condensation restricted to a range of target columns: what one rank
// of a distributed run computes. A column's bits depend on no other column, so the
// ranges divide the work without communication (docs/architecture.md, "Distributed").
#pragma once

#include <cstddef>
#include <cstdint>
#include <span>
#include <vector>

#include "closure/algorithms/memory_budget.hpp"
#include "closure/algorithms/scc.hpp"
#include "closure/bitmatrix.hpp"

namespace closure {

// Word-columns [begin, end) of the reach matrix: components 32*begin .. 32*end - 1.
struct WordRange {
  uint32_t begin = 0, end = 0;
  size_t words() const { return end - begin; }
  bool operator==(const WordRange&) const = default;
};

// Splits the word-columns of a C-component closure into `parts` contiguous ranges of
// about equal propagation work, in order (part r gets the r-th range; some may be empty
// when there are fewer words than parts). Word w costs C writes plus one read per edge
// c -> d whose successor row can hold bits in it (word_of(d + 1) <= w): ids are
// topological, so the right-hand words carry more of the work.
std::vector<WordRange> partition_columns(const CsrDag& dag, size_t parts);

// One range's rows: row c holds the components in the range that c reaches (never c
// itself: ids are topological).
struct ColumnSlice {
  WordRange range;
  size_t components = 0;
  WordStorage rows;  // components x range.words(), row-major; empty if only counted
  // Sum over c of size(c) * (sum of size(d) over the d in the range that c reaches).
  uint64_t cross_pairs = 0;
};

// Propagation restricted to `range`, on the host's threads: in reverse topological order
// row(c) = OR over c -> d of ({d} | row(d)), successors taken in ascending order and
// skipped when already reached. `sizes` are the component sizes (empty: all 1). With
// keep_rows the rows are charged to `budget` (OutOfMemoryError when they do not fit);
// without, the range is computed in pieces that fit and only counted.
ColumnSlice propagate_columns(const CsrDag& dag, std::span<const uint32_t> sizes, WordRange range,
                              bool keep_rows, MemoryBudget* budget = nullptr);

// The rows of a C x C row-major reach matrix from every range's slice, as rank 0
// assembles them (slices must not overlap; missing columns stay zero).
void place_slice(const ColumnSlice& slice, BitMatrix& reach);

}  // namespace closure
