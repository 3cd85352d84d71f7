// Sampled sizes of the sparse rows (row_estimate.hpp).
#include "closure/algorithms/row_estimate.hpp"

#include <algorithm>
#include <bit>
#include <chrono>
#include <random>
#include <span>
#include <utility>
#include <vector>

#include "closure/algorithms/column_count.hpp"
#include "closure/algorithms/host_closure.hpp"
#include "closure/bitmatrix.hpp"

namespace closure {
namespace {

// Sparse's rule for what a row past its run stores: `ids` reached components spanning
// `first` to `last` are kept as their ids, or as the words they span when fewer
// (kIdsPerWordSpan). The one copy of the rule the three sizings below share.
RowSize stored(uint64_t ids, size_t first, size_t last) {
  const size_t span = word_of(last) + 1 - word_of(first);
  return {ids * kIdsPerWordSpan <= span ? size_t(ids) : span, span};
}

}  // namespace

size_t stored_row_words(vertex_t c, std::span<const vertex_t> reach) {
  // The run: c+1, c+2, ... as long as each is reached (reach is sorted and above c).
  size_t i = 0;
  while (i < reach.size() && reach[i] == c + 1 + i) ++i;
  const std::span<const vertex_t> rest = reach.subspan(i);
  return rest.empty() ? 0 : stored(rest.size(), rest.front(), rest.back()).words;
}

RowSize row_size_from_bits(vertex_t c, const word_t* bits, size_t n, uint64_t count,
                           vertex_t last) {
  if (count == 0 || size_t(c) + 1 >= n) return {};
  RowSize out;
  out.reach = row_reach_words(c, last);
  // The run c+1, c+2, ...: up to the first clear bit past c (bits past n are clear).
  const size_t after_run = std::min(first_clear_from(bits, size_t(c) + 1, n), n);
  const uint64_t run = after_run - (size_t(c) + 1);
  if (run >= count) return out;
  // The rest: from the first set bit past the run to `last`.
  size_t w = word_of(after_run);
  word_t x = bits[w] & mask_from(after_run);
  while (x == 0) x = bits[++w];
  const RowSize rest = stored(count - run, bits_in_words(w) + size_t(std::countr_zero(x)), last);
  out.words = rest.words;
  out.span = rest.span;
  return out;
}

namespace {

// The rows of up to 64 sources sized in one pass over the components in id order (ids are
// topological): component v holds, as bit k of a 64-bit mask, whether sources[k] reaches it,
// and ORs its mask into its successors'. The same sizes as one search per source
// (row_size_from_bits), for one pass's work however far the sources reach.
std::vector<RowSize> rows_in_one_pass(const CsrDag& dag, std::span<const vertex_t> sources) {
  const size_t C = dag.offsets.size() - 1, S = sources.size();
  std::vector<uint64_t> reaches(C, 0);
  std::vector<std::pair<vertex_t, size_t>> by_id;  // (source, k), in id order
  for (size_t k = 0; k < S; ++k) {
    reaches[sources[k]] |= uint64_t{1} << k;
    by_id.emplace_back(sources[k], k);
  }
  std::sort(by_id.begin(), by_id.end());
  std::vector<uint64_t> count(S, 0);
  std::vector<vertex_t> first(S, 0), last(S, 0), run_end(S, vertex_t(C));
  uint64_t in_run = 0, have_first = 0;  // sources whose run c+1, c+2, ... goes on; past it
  size_t next_source = 0;
  const auto each_bit = [](uint64_t bits, auto&& f) {
    for (; bits; bits &= bits - 1) f(size_t(std::countr_zero(bits)));
  };
  for (vertex_t v = 0; v < C; ++v) {
    const uint64_t mask = reaches[v];
    if (mask == 0 && in_run == 0) continue;
    uint64_t own = 0;  // the sources that are v: v is not in their rows
    for (; next_source < S && by_id[next_source].first == v; ++next_source)
      own |= uint64_t{1} << by_id[next_source].second;
    const uint64_t reached = mask & ~own;
    each_bit(in_run & ~reached, [&](size_t k) { run_end[k] = v; });
    in_run &= reached;
    const uint64_t firsts = reached & ~in_run & ~have_first;
    each_bit(firsts, [&](size_t k) { first[k] = v; });
    have_first |= firsts;
    each_bit(reached, [&](size_t k) {
      ++count[k];
      last[k] = v;
    });
    in_run |= own;  // their runs start right after v
    if (mask)
      for (uint64_t e = dag.offsets[v]; e < dag.offsets[v + 1]; ++e)
        reaches[dag.targets[e]] |= mask;
  }
  std::vector<RowSize> rows(S);
  for (size_t k = 0; k < S; ++k) {
    const uint64_t run = run_end[k] - sources[k] - 1;
    if (count[k] > run) rows[k] = stored(count[k] - run, first[k], last[k]);
    if (count[k] > 0) rows[k].reach = row_reach_words(sources[k], last[k]);
  }
  return rows;
}

RowEstimate summed(std::span<const RowSize> rows, size_t C, size_t cut) {
  RowEstimate out;
  double words = 0, span = 0, reach = 0;
  for (const RowSize& r : rows) {
    words += double(r.words);
    span += double(r.span);
    reach += double(r.reach);
  }
  out.samples = rows.size();
  out.cut = cut;
  out.bytes = words / double(rows.size()) * double(C) * double(sizeof(word_t));
  out.span_words = span / double(rows.size());
  out.reach_words = reach / double(rows.size());
  return out;
}

}  // namespace

RowEstimate estimate_row_bytes(const CsrDag& dag, size_t samples, double seconds, uint64_t seed,
                               EstimatePath path) {
  using Clock = std::chrono::steady_clock;
  const size_t C = dag.offsets.empty() ? 0 : dag.offsets.size() - 1;
  if (C == 0 || samples == 0) return RowEstimate{};
  std::mt19937_64 rng(seed);
  std::uniform_int_distribution<size_t> pick(0, C - 1);
  std::vector<vertex_t> sources(samples);
  for (vertex_t& c : sources) c = vertex_t(pick(rng));
  // One search per source while their work so far stays under half a pass over the graph
  // (a source that reaches little is sized in a few steps); past it, one pass sizes them
  // all: 64 searches of a 6,000-vertex citation graph took a sixth of its whole process.
  const size_t E = dag.targets.size();
  const bool may_pass = samples <= 64 && C + E <= kOnePassMost && path != EstimatePath::kSearches;
  if (may_pass && path == EstimatePath::kOnePass)
    return summed(rows_in_one_pass(dag, sources), C, 0);
  const uint64_t pass_after = may_pass ? (C + E) / 2 : UINT64_MAX;
  // Each search's reach as bits, cleared after it through its list: sized without a sort.
  std::vector<word_t> seen(words_for_bits(C), 0);
  std::vector<vertex_t> reach, stack;
  std::vector<RowSize> rows;
  rows.reserve(samples);
  size_t cut = 0;
  uint64_t edges = 0;
  const auto start = Clock::now();
  const auto share = std::chrono::duration<double>(seconds / double(samples));
  for (size_t s = 1; s <= samples; ++s) {
    const auto until = start + std::chrono::duration_cast<Clock::duration>(share * double(s));
    const vertex_t c = sources[s - 1];
    reach.clear();
    stack.assign(1, c);
    vertex_t last = c;
    while (!stack.empty()) {
      const vertex_t v = stack.back();
      stack.pop_back();
      // The clock is read every few thousand edges: cheap beside the search itself.
      const uint64_t before = edges;
      edges += dag.offsets[v + 1] - dag.offsets[v];
      if (edges > pass_after) return summed(rows_in_one_pass(dag, sources), C, 0);
      if ((before >> 12) != (edges >> 12) && Clock::now() > until) {
        ++cut;
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
    rows.push_back(row_size_from_bits(c, seen.data(), C, reach.size(), last));
    for (const vertex_t d : reach) seen[word_of(d)] = 0;
  }
  return summed(rows, C, cut);
}

}  // namespace closure
