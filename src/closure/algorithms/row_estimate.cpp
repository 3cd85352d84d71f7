// Sampled sizes of the sparse rows (row_estimate.hpp).
#include "closure/algorithms/row_estimate.hpp"

#include <algorithm>
#include <bit>
#include <chrono>
#include <random>
#include <vector>

#include "closure/algorithms/host_closure.hpp"
#include "closure/bitmatrix.hpp"

namespace closure {

size_t stored_row_words(vertex_t c, std::span<const vertex_t> reach) {
  // The run: c+1, c+2, ... as long as each is reached (reach is sorted and above c).
  size_t i = 0;
  while (i < reach.size() && reach[i] == c + 1 + i) ++i;
  const std::span<const vertex_t> rest = reach.subspan(i);
  if (rest.empty()) return 0;
  const size_t span = word_of(rest.back()) + 1 - word_of(rest.front());
  return rest.size() * kIdsPerWordSpan <= span ? rest.size() : span;
}

RowSize row_size_from_bits(vertex_t c, const word_t* bits, size_t n, uint64_t count,
                           vertex_t last) {
  RowSize out;
  if (count == 0 || size_t(c) + 1 >= n) return out;
  // The run c+1, c+2, ...: up to the first clear bit past c (bits past n are clear).
  const size_t after_run = std::min(first_clear_from(bits, size_t(c) + 1, n), n);
  const uint64_t run = after_run - (size_t(c) + 1);
  if (run >= count) return out;
  // The rest: from the first set bit past the run to `last`.
  size_t w = word_of(after_run);
  word_t x = bits[w] & mask_from(after_run);
  while (x == 0) x = bits[++w];
  const size_t first = bits_in_words(w) + size_t(std::countr_zero(x));
  out.span = word_of(last) + 1 - word_of(first);
  const uint64_t rest = count - run;
  out.words = rest * kIdsPerWordSpan <= out.span ? size_t(rest) : out.span;
  return out;
}

RowEstimate estimate_row_bytes(const CsrDag& dag, size_t samples, double seconds, uint64_t seed) {
  using Clock = std::chrono::steady_clock;
  const size_t C = dag.offsets.empty() ? 0 : dag.offsets.size() - 1;
  RowEstimate out;
  if (C == 0 || samples == 0) return out;
  std::mt19937_64 rng(seed);
  std::uniform_int_distribution<size_t> pick(0, C - 1);
  // Each search's reach as bits, cleared after it through its list: sized without a sort.
  std::vector<word_t> seen(words_for_bits(C), 0);
  std::vector<vertex_t> reach, stack;
  const auto start = Clock::now();
  const auto share = std::chrono::duration<double>(seconds / double(samples));
  double words = 0, span = 0;
  for (uint32_t s = 1; s <= samples; ++s) {
    const auto until = start + std::chrono::duration_cast<Clock::duration>(share * s);
    const vertex_t c = vertex_t(pick(rng));
    reach.clear();
    stack.assign(1, c);
    uint64_t edges = 0;
    vertex_t last = c;
    while (!stack.empty()) {
      const vertex_t v = stack.back();
      stack.pop_back();
      // The clock is read every few thousand edges: cheap beside the search itself.
      const uint64_t before = edges;
      edges += dag.offsets[v + 1] - dag.offsets[v];
      if ((before >> 12) != (edges >> 12) && Clock::now() > until) {
        ++out.cut;
        break;
      }
      for (uint64_t k = dag.offsets[v]; k < dag.offsets[v + 1]; ++k) {
        const vertex_t d = dag.targets[k];
        if (test_bit(seen.data(), d)) continue;
        set_bit(seen.data(), d);
        last = std::max(last, d);
        reach.push_back(d);
        stack.push_back(d);
      }
    }
    const RowSize row = row_size_from_bits(c, seen.data(), C, reach.size(), last);
    words += double(row.words);
    span += double(row.span);
    for (const vertex_t d : reach) seen[word_of(d)] = 0;
  }
  out.samples = samples;
  out.bytes = words / double(samples) * double(C) * double(sizeof(word_t));
  out.span_words = span / double(samples);
  return out;
}

}  // namespace closure
