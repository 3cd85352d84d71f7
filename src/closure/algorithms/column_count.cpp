// The host's count over live rows (column_count.hpp).
#include "closure/algorithms/column_count.hpp"

#include <tbb/enumerable_thread_specific.h>
#include <tbb/parallel_for.h>

#include <algorithm>
#include <atomic>
#include <bit>
#include <stdexcept>

#include "closure/bitmatrix.hpp"
#include "closure/errors.hpp"
#include "closure/executor.hpp"
#include "closure/or_words.hpp"
#include "closure/popcount.hpp"
#include "closure/util/atomic_min.hpp"
#include "closure/util/huge_pages.hpp"
#include "closure/util/reuse_slots.hpp"
#include "closure/util/uninitialized_allocator.hpp"

namespace closure {
namespace {

// Words a slice's row holds at most; fewer when the stored rows would pass kSliceBytes.
constexpr size_t kWidestSlice = 256;
constexpr size_t kSliceBytes = size_t{32} << 20;

// One slice's rows: the stored ones, the row just closed and the one being closed, each
// with the end of its words that may be set (past it the row is zero and never read).
struct SliceRows {
  // Unwritten until stored: a row's words are read only where they were stored, from its
  // first column to its end, so the slots need no zeroing (a slice of 28,588 live rows,
  // GRAIL's human, zeroed 15 MB a thread for rows of a few words). Slot k's words start
  // at slot_offsets()[k], a row's first column's word first.
  std::vector<word_t, UninitializedAllocator<word_t>> stored;
  std::vector<word_t> prev, acc;
  std::vector<uint32_t> stored_end;
  uint32_t prev_end = 0;
};

// The highest id each row reaches (its own where none), and the words a sweep ORs for it:
// the row's and its edges' over the words from its first column to that id.
struct RowReach {
  std::vector<uint32_t> last;
  uint64_t words_ored = 0;
};
RowReach highest_reached(const CsrDag& dag) {
  const size_t C = dag.offsets.size() - 1;
  RowReach out;
  out.last.resize(C);
  for (size_t c = C; c-- > 0;) {
    uint32_t far = uint32_t(c);
    for (uint64_t e = dag.offsets[c]; e < dag.offsets[c + 1]; ++e)
      far = std::max(far, out.last[dag.targets[e]]);  // last[d] >= d
    out.last[c] = far;
    if (far > c)
      out.words_ored += (1 + dag.offsets[c + 1] - dag.offsets[c]) * row_reach_words(c, far);
  }
  return out;
}

// Where each slot's rows start in a slice's stored rows: slot k holds at most the widest
// row given it, a row at most the words from its first column to its highest reached id
// (row_reach_words()) and at most the slice. A slot a slice wide whatever its rows took
// 1 KiB a live row on GRAIL agrocyc for rows of 3 words: 5.7 MB of fresh pages a count,
// 1,400 page faults (16 ms in this VM, where the sweep takes 0.7).
std::vector<uint64_t> slot_offsets(const SweepSlots& slots, std::span<const uint32_t> last,
                                   size_t slice_words) {
  std::vector<uint64_t> offset(slots.slots + 1, 0);
  for (size_t c = 0; c < last.size(); ++c)
    if (const uint32_t k = slots.slot[c]; k != SweepSlots::kNone)
      offset[k + 1] =
          std::max<uint64_t>(offset[k + 1], std::min(slice_words, row_reach_words(c, last[c])));
  for (size_t k = 0; k < slots.slots; ++k) offset[k + 1] += offset[k];
  return offset;
}

// For each slice of `slice_words` words, the lowest row that reaches one of its columns (C:
// none). Rows below it are zero there, and so are the rows that read them (lower ids, which
// reach no further), so the slice's sweep stops there: 1.5M disjoint pairs visited all rows
// below each of 367 slices (2.5 s on 2 cores), a road network's rows reach a few words.
std::vector<uint32_t> lowest_rows_reaching(std::span<const uint32_t> last, size_t slice_words,
                                           size_t slices) {
  std::vector<uint32_t> bottom(slices, uint32_t(last.size()));
  // Row c reaches `last[c]`'s slice, and the slices between its own and that one may hold
  // its columns too: the suffix minimum takes it down to each of them.
  for (size_t c = last.size(); c-- > 0;)
    if (last[c] > c) bottom[last[c] / (32 * slice_words)] = uint32_t(c);  // descending: least
  for (size_t k = slices - 1; k-- > 0;) bottom[k] = std::min(bottom[k], bottom[k + 1]);
  return bottom;
}

// Pairs of the rows' words [w0, w1): every row from the highest that can reach a column of
// the slice down to `bottom`, the lowest that does.
// `big`: the components of more than one vertex, a bit each (empty with `sizes`).
// `offset`: slot_offsets() for the count's slice width (at least S).
uint64_t count_slice(const CsrDag& dag, const SweepSlots& s, std::span<const uint64_t> offset,
                     std::span<const uint32_t> sizes, std::span<const word_t> big, size_t w0,
                     size_t w1, size_t bottom, SliceRows& rows) {
  const size_t C = dag.offsets.size() - 1, S = w1 - w0;
  const size_t top = std::min(C, 32 * w1 - 1);  // rows at or above it are zero here
  rows.stored.resize(offset.back());
  rows.stored_end.assign(s.slots, 0);
  rows.prev.resize(S);
  rows.prev_end = 0;
  rows.acc.resize(S);
  uint64_t pairs = 0;
  for (size_t c = top; c-- > bottom;) {
    // Row c has no column at or below c: its words before (c + 1) / 32 are never set, read
    // or counted (a reader d < c starts at least as high), so they are left as they are.
    // Nor has it one past its successors' rows and its edges: the words from `end` on.
    const size_t from = std::min(S, std::max(w0, (c + 1) >> 5) - w0);
    size_t end = from;
    for (uint64_t e = dag.offsets[c]; e < dag.offsets[c + 1]; ++e) {
      const size_t d = dag.targets[e];
      if (d >= 32 * w0 && d < 32 * w1) end = std::max(end, (d >> 5) - w0 + 1);
      if (d < top)
        end = std::max<size_t>(end, d == c + 1 ? rows.prev_end : rows.stored_end[s.slot[d]]);
    }
    word_t* acc = rows.acc.data();
    std::fill(acc + from, acc + end, word_t{0});
    for (uint64_t e = dag.offsets[c]; e < dag.offsets[c + 1]; ++e) {
      const size_t d = dag.targets[e];
      if (d >= 32 * w0 && d < 32 * w1) acc[(d >> 5) - w0] |= word_t{1} << (d & 31);
      if (d >= top) continue;  // its row is zero in this slice
      const bool just_closed = d == c + 1;
      // Row d's words before (d + 1) / 32 and from its end on are not read; stored, its
      // slot starts at its word lo.
      const size_t lo = std::min(S, std::max(w0, (d + 1) >> 5) - w0);
      const word_t* src =
          just_closed ? rows.prev.data() + lo : rows.stored.data() + offset[s.slot[d]];
      const size_t hi = just_closed ? rows.prev_end : rows.stored_end[s.slot[d]];
      if (lo < hi) or_words(acc + lo, src, hi - lo);
    }
    // Weighted: a vertex a reached component by popcount, and only the components of more
    // than one vertex looked up bit by bit (a bit at a time for every pair was most of a
    // road network's count, which has 5,900 such among 124k).
    uint64_t row = popcount_words(acc + from, end - from);
    if (!sizes.empty()) {
      for (size_t i = from; i < end; ++i)
        for (word_t bits = acc[i] & big[w0 + i]; bits; bits &= bits - 1)
          row += sizes[32 * (w0 + i) + size_t(std::countr_zero(bits))] - 1;
      row *= sizes[c];
    }
    pairs += row;
    if (s.slot[c] != SweepSlots::kNone) {
      std::copy(acc + from, acc + end, rows.stored.data() + offset[s.slot[c]]);
      rows.stored_end[s.slot[c]] = uint32_t(end);
    }
    std::swap(rows.prev, rows.acc);
    rows.prev_end = uint32_t(end);
  }
  return pairs;
}

}  // namespace

LastReaders last_readers(const CsrDag& dag) {
  const size_t C = dag.offsets.empty() ? 0 : dag.offsets.size() - 1;
  LastReaders last;  // unwritten: filled on threads, on huge pages
  detail::reserve_huge(last, C);
  last.resize(C);
  constexpr size_t kGrain = size_t{1} << 16;
  parallel_chunks(C, kGrain, [&](size_t a, size_t b) {
    std::fill(last.begin() + int64_t(a), last.begin() + int64_t(b), SweepSlots::kNone);
  });
  // A chunk's rows ascend, so most targets take one store; chunks meet at a target by an
  // atomic minimum.
  parallel_chunks(C, kGrain, [&](size_t a, size_t b) {
    for (size_t c = a; c < b; ++c)
      for (uint64_t e = dag.offsets[c]; e < dag.offsets[c + 1]; ++e) {
        const size_t d = dag.targets[e];
        if (d <= c || d >= C)
          throw InternalError("count: the condensation is not in topological order");
        if (d != c + 1) atomic_min(last[d], uint32_t(c));
      }
  });
  return last;
}

SlotSweep::SlotSweep(const CsrDag& dag) : last_reader_(last_readers(dag)) {
  // Fresh pages on huge pages, faulted on threads: a 10M-row sweep's 40 MB had been
  // faulted page by page on the sweep's own thread.
  out_.slot = detail::huge_filled(last_reader_.size(), SweepSlots::kNone);
}

SweepSlots sweep_slots(const CsrDag& dag, const std::atomic<bool>* given_up) {
  // Slots from the highest row down, each row freeing the slots of the rows it reads last,
  // found among its successors (no bucketing of rows by last reader: reuse_slots()'s
  // counting sort took three arrays of fresh pages at 10M rows).
  SlotSweep sweep(dag);
  for (size_t c = dag.offsets.empty() ? 0 : dag.offsets.size() - 1; c-- > 0;) {
    if (given_up && c % 65536 == 0 && given_up->load(std::memory_order_relaxed)) break;
    sweep.close(dag, c);
  }
  return std::move(sweep).finish();
}

size_t column_slice_words(size_t words, size_t live_rows, unsigned threads) {
  // Four slices a thread at least where there are threads to share them (the last ones
  // sweep the most rows); one thread takes the widest, as every slice visits each row and
  // edge again.
  size_t S = kWidestSlice;
  while (threads > 1 && S > 16 && ceil_div(words, S) < 4 * size_t(threads)) S /= 2;
  while (S > 8 && (live_rows + 2) * S * sizeof(word_t) > kSliceBytes) S /= 2;
  return std::max<size_t>(1, std::min(S, words));
}

uint64_t count_closure_by_columns(const CsrDag& dag, std::span<const uint32_t> sizes,
                                  unsigned threads, size_t slice_words) {
  const size_t C = dag.offsets.empty() ? 0 : dag.offsets.size() - 1;
  if (C == 0) return 0;
  const SweepSlots slots = sweep_slots(dag);
  const size_t W = words_for_bits(C);
  std::vector<word_t> big;
  if (!sizes.empty()) {
    big.assign(W, 0);
    for (size_t d = 0; d < C; ++d)
      if (sizes[d] > 1) big[d >> 5] |= word_t{1} << (d & 31);
  }
  // By default, a sweep too small to pay for starting the thread pool stays on this
  // thread: a 3,700-vertex graph's count took 0.1 ms, the pool's start and exit more.
  const RowReach reach = highest_reached(dag);
  const unsigned T = threads ? threads
                     : reach.words_ored < kColumnSweepOneThreadWords
                         ? 1u
                         : std::max(1u, thread_budget());
  const size_t S = std::max<size_t>(
      1, std::min(slice_words ? slice_words : column_slice_words(W, slots.slots, T), W));
  const size_t slices = ceil_div(W, S);
  const std::vector<uint32_t> bottom = lowest_rows_reaching(reach.last, S, slices);
  const std::vector<uint64_t> offset = slot_offsets(slots, reach.last, S);
  auto slice = [&](size_t k, SliceRows& rows) {
    const size_t w0 = k * S, w1 = std::min(W, w0 + S);
    return count_slice(dag, slots, offset, sizes, big, w0, w1, bottom[k], rows);
  };
  if (T <= 1 || slices == 1) {
    // No thread-local rows either: their allocator alone loads TBB's (tbbmalloc).
    SliceRows rows;
    uint64_t total = 0;
    for (size_t k = slices; k-- > 0;) total += slice(k, rows);
    return total;
  }
  tbb::enumerable_thread_specific<SliceRows> rows;
  std::atomic<uint64_t> total{0};
  // The last slices sweep the most rows: they go first.
  tbb::parallel_for(size_t{0}, slices,
                    [&](size_t i) { total += slice(slices - 1 - i, rows.local()); });
  return total.load();
}

}  // namespace closure
