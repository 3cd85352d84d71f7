// Sampled sizes of the sparse rows (row_estimate.hpp).
#include "closure/algorithms/row_estimate.hpp"

#include <algorithm>
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

RowEstimate estimate_row_bytes(const CsrDag& dag, size_t samples, double seconds, uint64_t seed) {
  using Clock = std::chrono::steady_clock;
  const size_t C = dag.offsets.empty() ? 0 : dag.offsets.size() - 1;
  RowEstimate out;
  if (C == 0 || samples == 0) return out;
  std::mt19937_64 rng(seed);
  std::uniform_int_distribution<size_t> pick(0, C - 1);
  std::vector<uint32_t> seen(C, 0);  // the search that last reached each component
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
        if (seen[d] == s) continue;
        seen[d] = s;
        reach.push_back(d);
        stack.push_back(d);
      }
    }
    std::sort(reach.begin(), reach.end());
    words += double(stored_row_words(c, reach));
    // The scratch span: from the first reached id past the run right after c to the last.
    size_t run = 0;
    while (run < reach.size() && reach[run] == c + 1 + run) ++run;
    if (run < reach.size()) span += double(word_of(reach.back()) + 1 - word_of(reach[run]));
  }
  out.samples = samples;
  out.bytes = words / double(samples) * double(C) * double(sizeof(word_t));
  out.span_words = span / double(samples);
  return out;
}

}  // namespace closure
