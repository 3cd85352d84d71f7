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

}  // namespace closure
