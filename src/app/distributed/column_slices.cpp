// Column-range propagation on the host, and the work-balanced split of the columns.
#include "app/distributed/column_slices.hpp"

#include <algorithm>
#include <atomic>
#include <bit>
#include <cstring>
#include <stdexcept>

#include "closure/errors.hpp"
#include "closure/executor.hpp"
#include "closure/util/cancel.hpp"

namespace closure {

std::vector<WordRange> partition_columns(const CsrDag& dag, size_t parts) {
  if (parts == 0) throw InternalError("partition_columns: no parts");
  const size_t C = dag.offsets.empty() ? 0 : dag.offsets.size() - 1;
  const size_t W = words_for_bits(C);
  // reads[w]: edges whose successor row first has bits in word w; prefix-summed below.
  std::vector<uint64_t> reads(W + 1, 0);
  for (vertex_t d : dag.targets) ++reads[std::min(W, word_of(size_t(d) + 1))];
  std::vector<double> cost(W);
  double total = 0;
  uint64_t open = 0;
  for (size_t w = 0; w < W; ++w) {
    open += reads[w];
    cost[w] = double(C) + double(open);
    total += cost[w];
  }
  std::vector<WordRange> out(parts);
  size_t w = 0;
  double done = 0;
  for (size_t r = 0; r < parts; ++r) {
    out[r].begin = uint32_t(w);
    const double goal = total * double(r + 1) / double(parts);
    // Leave at least one word for each later part while words remain.
    const size_t keep = std::min(W - w, parts - r - 1);
    while (w < W - keep && (r + 1 == parts || done + cost[w] / 2 <= goal)) done += cost[w++];
    out[r].end = uint32_t(w);
  }
  return out;
}

namespace {

// The sweep over words [a, b) of the slice (relative to its first word) for every row,
// in reverse topological order; returns the pairs it found.
uint64_t sweep(const CsrDag& dag, std::span<const uint32_t> sizes, size_t slice_begin,
               size_t slice_words, size_t a, size_t b, word_t* rows) {
  const size_t C = dag.offsets.size() - 1;
  const size_t lo_bit = bits_in_words(slice_begin + a), hi_bit = bits_in_words(slice_begin + b);
  const size_t base_bit = bits_in_words(slice_begin);
  const CancelToken* cancel = current_cancel_token();
  uint64_t pairs = 0;
  for (size_t c = C; c-- > 0;) {
    if (c % 256 == 0) throw_if_cancelled(cancel);
    word_t* row = rows + c * slice_words;
    std::fill(row + a, row + b, word_t{0});
    for (uint64_t e = dag.offsets[c]; e < dag.offsets[c + 1]; ++e) {
      const size_t d = dag.targets[e];
      const bool in_range = d >= lo_bit && d < hi_bit;
      if (in_range && test_bit(row, d - base_bit)) continue;  // reached: its row is in
      // d's row has no bits below column d + 1 (ids are topological): skip those words.
      const size_t zero_below = word_of(d + 1);
      const size_t first =
          std::clamp(zero_below > slice_begin ? zero_below - slice_begin : 0, a, b);
      const word_t* src = rows + d * slice_words;
      for (size_t w = first; w < b; ++w) row[w] |= src[w];
      if (in_range) set_bit(row, d - base_bit);
    }
    uint64_t reached = 0;
    if (sizes.empty()) {
      for (size_t w = a; w < b; ++w) reached += uint64_t(std::popcount(row[w]));
    } else {
      for_each_set_bit(row + a, slice_begin + a, b - a, [&](size_t d) { reached += sizes[d]; });
    }
    pairs += reached * (sizes.empty() ? 1 : sizes[c]);
  }
  return pairs;
}

// The slice's pairs by threads, each owning a band of its words (16-word multiples, so
// no two threads write one cache line).
uint64_t sweep_threaded(const CsrDag& dag, std::span<const uint32_t> sizes, size_t slice_begin,
                        size_t slice_words, word_t* rows) {
  std::atomic<uint64_t> pairs{0};
  const size_t bands = ceil_div(slice_words, 16);
  // One chunk per thread: every chunk sweeps all the rows, so more chunks cost more.
  parallel_chunks(bands, ceil_div(bands, thread_budget()), [&](size_t b0, size_t b1) {
    const uint64_t p =
        sweep(dag, sizes, slice_begin, slice_words, b0 * 16, std::min(slice_words, b1 * 16), rows);
    pairs.fetch_add(p, std::memory_order_relaxed);
  });
  return pairs.load();
}

}  // namespace

ColumnSlice propagate_columns(const CsrDag& dag, std::span<const uint32_t> sizes, WordRange range,
                              bool keep_rows, MemoryBudget* budget) {
  ColumnSlice out;
  out.range = range;
  out.components = dag.offsets.empty() ? 0 : dag.offsets.size() - 1;
  const size_t C = out.components;
  if (range.end < range.begin || range.end > words_for_bits(C))
    throw InternalError("propagate_columns: range outside the matrix");
  if (!sizes.empty() && sizes.size() != C)
    throw InternalError("propagate_columns: sizes differ from the components");
  if (C == 0 || range.words() == 0) return out;
  const size_t row_bytes = sizeof(word_t);
  if (keep_rows) {
    if (budget) budget->charge(C * range.words() * row_bytes);
    out.rows.assign(C * range.words(), 0);
    out.cross_pairs = sweep_threaded(dag, sizes, range.begin, range.words(), out.rows.data());
    return out;
  }
  // Counted only: pieces of the range as wide as the budget allows, one buffer reused.
  size_t piece = range.words();
  if (budget) {
    const size_t left = budget->limit() > budget->used() ? budget->limit() - budget->used() : 0;
    piece = std::clamp<size_t>(left / 2 / (C * row_bytes), 1, range.words());
    budget->charge(C * piece * row_bytes);
  }
  std::vector<word_t> buffer(C * piece);
  for (size_t w = range.begin; w < range.end; w += piece) {
    const size_t words = std::min(piece, size_t(range.end) - w);
    out.cross_pairs += sweep_threaded(dag, sizes, w, words, buffer.data());
  }
  return out;
}

void place_slice(const ColumnSlice& slice, BitMatrix& reach) {
  const size_t B = slice.range.words();
  if (reach.order() != WordOrder::kRowMajor || reach.rows() != slice.components ||
      reach.words_per_row() < slice.range.end || slice.rows.size() != slice.components * B)
    throw InternalError("place_slice: the slice does not fit the matrix");
  if (B == 0) return;  // a rank without columns (more ranks than words)
  for (size_t c = 0; c < slice.components; ++c)
    std::memcpy(reach.row_ptr(c) + slice.range.begin, slice.rows.data() + c * B,
                B * sizeof(word_t));
}

}  // namespace closure
