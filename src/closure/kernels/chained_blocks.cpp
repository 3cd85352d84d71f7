// The chained sweep's split of the CSR into in-block chains and successors beyond.
#include "closure/kernels/chained_blocks.hpp"

#include <algorithm>
#include <bit>
#include <stdexcept>

#include "closure/bitmatrix.hpp"

namespace closure {

ChainedBlocks chained_blocks(const CsrDag& dag, size_t prefetch) {
  constexpr size_t B = ChainedBlocks::kRows;
  const size_t C = dag.offsets.size() - 1;
  const size_t P = prefetch;
  ChainedBlocks out;
  out.masks.assign(C, 0);
  const size_t blocks = ceil_div(C, B);
  out.ext_offsets.assign(blocks + 1, 0);
  out.first.assign(blocks * P, {uint32_t(B), ChainedBlocks::kNone});
  std::vector<size_t> firsts(blocks, 0);
  for (size_t c = 0; c < C; ++c) {
    const size_t begin = c / B * B, end = std::min(begin + B, C), k = c / B;
    for (uint64_t e = dag.offsets[c]; e < dag.offsets[c + 1]; ++e) {
      const size_t d = dag.targets[e];
      if (d <= c || d >= C)
        throw std::invalid_argument("propagate: the condensation is not in topological order");
      const std::array<uint32_t, 2> item{uint32_t(c - begin), uint32_t(d)};
      if (d < end)
        out.masks[c] |= uint32_t{1} << (d - begin);
      else if (firsts[k] < P)
        out.first[k * P + firsts[k]++] = item;
      else
        out.ext_items.push_back(item);
    }
    out.ext_offsets[c / B + 1] = out.ext_items.size();
    // Two in-block successors besides c + 1: the block needs the kernel's general path.
    const uint32_t others = out.masks[c] & ~(c + 1 < end ? uint32_t{1} << (c + 1 - begin) : 0);
    if (std::popcount(others) >= 2) out.masks[begin] |= 1;
  }
  return out;
}

namespace {

// Calls read(k, d) for every row d that block k loads from global memory (the kernel's
// rules, kernels/propagate.cl: a prefetched item beyond the block closed before, any other
// item but the row just closed).
template <typename Read>
void for_each_global_read(const ChainedBlocks& b, Read read) {
  constexpr size_t B = ChainedBlocks::kRows;
  const size_t C = b.masks.size(), blocks = b.ext_offsets.size() - 1;
  const size_t P = blocks ? b.first.size() / blocks : 0;
  for (size_t k = 0; k < blocks; ++k) {
    const size_t end = std::min(k * B + B, C);
    for (size_t i = 0; i < P; ++i) {
      const auto& [at, d] = b.first[k * P + i];
      if (at < B && d >= end + B) read(k, d);
    }
    for (uint64_t e = b.ext_offsets[k]; e < b.ext_offsets[k + 1]; ++e)
      if (b.ext_items[e][1] != end) read(k, b.ext_items[e][1]);
  }
}

}  // namespace

LiveRowSlots live_row_slots(const ChainedBlocks& b) {
  constexpr size_t B = ChainedBlocks::kRows;
  constexpr uint32_t kNone = ChainedBlocks::kNone;
  const size_t C = b.masks.size(), blocks = b.ext_offsets.size() - 1;
  // last_reader[d]: the lowest block that loads row d (the sweep runs from the top down).
  std::vector<uint32_t> last_reader(C, kNone);
  for_each_global_read(
      b, [&](size_t k, size_t d) { last_reader[d] = std::min(last_reader[d], uint32_t(k)); });
  // Rows whose last reader is block k, bucketed by k (a counting sort).
  std::vector<uint64_t> begin(blocks + 1, 0);
  for (uint32_t k : last_reader)
    if (k != kNone) ++begin[k + 1];
  for (size_t k = 0; k < blocks; ++k) begin[k + 1] += begin[k];
  std::vector<uint32_t> released(begin[blocks]);
  {
    std::vector<uint64_t> at(begin.begin(), begin.end() - 1);
    for (size_t d = 0; d < C; ++d)
      if (last_reader[d] != kNone) released[at[last_reader[d]]++] = uint32_t(d);
  }
  LiveRowSlots out;
  out.slot.assign(C, kNone);
  std::vector<uint32_t> free_slots;
  for (size_t k = blocks; k-- > 0;) {
    // Block k loads its rows beyond before it stores its own: their slots are free for it.
    for (uint64_t i = begin[k]; i < begin[k + 1]; ++i) free_slots.push_back(out.slot[released[i]]);
    for (size_t c = k * B; c < std::min(k * B + B, C); ++c) {
      if (last_reader[c] == kNone) continue;
      if (free_slots.empty()) {
        out.slot[c] = uint32_t(out.slots++);
      } else {
        out.slot[c] = free_slots.back();
        free_slots.pop_back();
      }
    }
  }
  return out;
}

}  // namespace closure
