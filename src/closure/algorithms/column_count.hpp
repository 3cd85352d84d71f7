// Counting a condensation's closure on the host without keeping it: the device's count
// over live rows (kernels/propagate.cl with LIVE_ROWS) on CPU threads, for `closure G`
// with no output on a machine without a GPU. The sparse method stores every row (1.9 GB
// for git's history), and on deep histories first-touching those pages cost more than
// the ORs; here a slice of word-columns is swept over all rows in reverse topological
// order, keeping only the rows a later row reads back (a history's width of them), in
// cache.
#pragma once

#include <atomic>
#include <cstddef>
#include <cstdint>
#include <span>
#include <utility>
#include <vector>

#include "closure/bitmatrix.hpp"
#include "closure/graph/csr_dag.hpp"
#include "closure/util/reuse_slots.hpp"
#include "closure/util/uninitialized_allocator.hpp"

namespace closure {

// Which rows the sweep stores: row d, when some predecessor other than d - 1 (whose row is
// the one just closed) reads it, in slot[d] from its closing until its lowest such reader
// has read it; kNone otherwise. `slots`: the most stored at once.
struct SweepSlots {
  static constexpr uint32_t kNone = 0xffffffffu;
  std::vector<uint32_t> slot;
  size_t slots = 0;
};
// Throws InternalError unless every edge c -> d has c < d (topological ids). given_up: a
// flag another thread sets to end the pass early (its result then incomplete, to drop).
SweepSlots sweep_slots(const CsrDag& dag, const std::atomic<bool>* given_up = nullptr);

// Per row d, its lowest predecessor other than d - 1 (the sweep closes rows from the top
// down), or SweepSlots::kNone: sweep_slots()'s first pass, on threads. Throws InternalError
// unless every edge c -> d has c < d.
using LastReaders = std::vector<uint32_t, UninitializedAllocator<uint32_t>>;
LastReaders last_readers(const CsrDag& dag);

// sweep_slots()'s assignment one row at a time, from the highest down: row c frees the
// slots of the rows it reads last, then takes one if a later row reads it. The one-pass
// chain cover runs it as it goes (cover_by_chains): its own pass over the rows and edges was
// 0.12-0.15 s of 10M commits' 0.2-0.25 s of live rows (2-core); a cover in stretches runs
// it on a thread beside them (prepare_chain_count).
class SlotSweep {
 public:
  explicit SlotSweep(const CsrDag& dag);
  // Row c's slot, or kNone; rows closed in descending order, each once. Inline: the cover
  // calls it for every row.
  uint32_t close(const CsrDag& dag, size_t c) {
    for (uint64_t e = dag.offsets[c]; e < dag.offsets[c + 1]; ++e) {
      const size_t d = dag.targets[e];
      if (last_reader_[d] == c) free_.push_back(out_.slot[d]);
    }
    if (last_reader_[c] == SweepSlots::kNone) return SweepSlots::kNone;
    return out_.slot[c] = take_slot(free_, out_.slots);
  }
  // The slots so far (those of every row closed) and the most taken at once.
  const SweepSlots& taken() const { return out_; }
  SweepSlots finish() && { return std::move(out_); }

 private:
  LastReaders last_reader_;
  std::vector<uint32_t> free_;
  SweepSlots out_;
};

// The slice width (words) the count takes when not told one: the widest of at most 256
// words that leaves four slices a thread (down to 16 words) and keeps the stored rows
// (live_rows of them, plus two) within 32 MB (down to 8 words); at most `words`.
size_t column_slice_words(size_t words, size_t live_rows, unsigned threads);

// The words a sweep ORs row c over: from c + 1's word to that of `last`, the highest id
// it reaches (> c). The row estimate samples the same (RowSize::reach).
inline size_t row_reach_words(size_t c, size_t last) {
  return word_of(vertex_t(last)) + 1 - word_of(vertex_t(c + 1));
}

// Below this many words ORed (every row and edge over the words its row reaches), the
// count stays on the calling thread unless told a thread count: about a millisecond's
// work, less than starting the thread pool costs.
inline constexpr uint64_t kColumnSweepOneThreadWords = uint64_t{1} << 22;

// Sum over components c of size(c) x (sum of size(d) over d in R(c)), R(c) the strict
// closure's row (sizes empty: every size 1, the plain pair count). Every thread count
// and slice width gives the same sum; slice_words 0 picks one.
uint64_t count_closure_by_columns(const CsrDag& dag, std::span<const uint32_t> sizes,
                                  unsigned threads = 0, size_t slice_words = 0);

// Whether counting pays (beats sparse propagation) is the cost model's to say
// (predict_host_column_count_s() in cost_model.hpp).

}  // namespace closure
