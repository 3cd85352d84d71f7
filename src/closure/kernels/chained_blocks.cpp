// The chained sweep's split of the CSR into in-block chains and successors beyond.
#include "closure/kernels/chained_blocks.hpp"

#include <algorithm>
#include <bit>
#include <stdexcept>

#include "closure/bitmatrix.hpp"
#include "closure/errors.hpp"
#include "closure/util/reuse_slots.hpp"

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
        throw InternalError("propagate: the condensation is not in topological order");
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
  // last_reader[d]: the lowest block that loads row d (the sweep runs from the top down).
  std::vector<uint32_t> last_reader(b.masks.size(), ChainedBlocks::kNone);
  for_each_global_read(
      b, [&](size_t k, size_t d) { last_reader[d] = std::min(last_reader[d], uint32_t(k)); });
  ReusedSlots reused = reuse_slots(last_reader, ChainedBlocks::kRows);
  return LiveRowSlots{std::move(reused.slot), reused.slots};
}

}  // namespace closure
