// The chained sweep's split of the CSR into in-block chains and successors beyond.
#include "closure/kernels/chained_blocks.hpp"

#include <algorithm>
#include <bit>
#include <stdexcept>

#include "closure/bitmatrix.hpp"
#include "closure/errors.hpp"
#include "closure/executor.hpp"
#include "closure/util/atomic_min.hpp"
#include "closure/util/huge_pages.hpp"
#include "closure/util/reuse_slots.hpp"

namespace closure {

// Two passes over the blocks, each in parallel chunks (blocks are independent: a row's mask
// and its block's first items are the block's own): the masks, the first `prefetch` items
// beyond each block and how many more it has; then, where a block has more, those items at
// their offsets. 10M commits, 2 cores: 0.14 s serial, with one growing item list.
ChainedBlocks chained_blocks(const CsrDag& dag, size_t prefetch) {
  constexpr size_t B = ChainedBlocks::kRows;
  const size_t C = dag.offsets.size() - 1;
  const size_t P = prefetch;
  ChainedBlocks out;
  out.masks = detail::huge_filled<uint32_t>(C, 0);
  const size_t blocks = ceil_div(C, B);
  out.ext_offsets = detail::huge_filled<uint64_t>(blocks + 1, 0);
  out.first.assign(blocks * P, {uint32_t(B), ChainedBlocks::kNone});
  constexpr size_t kGrain = 4096;  // blocks a chunk: 131,072 rows
  parallel_chunks(blocks, kGrain, [&](size_t k0, size_t k1) {
    for (size_t k = k0; k < k1; ++k) {
      const size_t begin = k * B, end = std::min(begin + B, C);
      size_t firsts = 0;
      uint64_t more = 0;
      for (size_t c = begin; c < end; ++c) {
        for (uint64_t e = dag.offsets[c]; e < dag.offsets[c + 1]; ++e) {
          const size_t d = dag.targets[e];
          if (d <= c || d >= C)
            throw InternalError("propagate: the condensation is not in topological order");
          if (d < end)
            out.masks[c] |= uint32_t{1} << (d - begin);
          else if (firsts < P)
            out.first[k * P + firsts++] = {uint32_t(c - begin), uint32_t(d)};
          else
            ++more;
        }
        // Two in-block successors besides c + 1: the block needs the kernel's general path.
        const uint32_t others = out.masks[c] & ~(c + 1 < end ? uint32_t{1} << (c + 1 - begin) : 0);
        if (std::popcount(others) >= 2) out.masks[begin] |= 1;
      }
      out.ext_offsets[k + 1] = more;
    }
  });
  for (size_t k = 0; k < blocks; ++k) out.ext_offsets[k + 1] += out.ext_offsets[k];
  out.ext_items.resize(out.ext_offsets[blocks]);
  parallel_chunks(blocks, kGrain, [&](size_t k0, size_t k1) {
    for (size_t k = k0; k < k1; ++k) {
      if (out.ext_offsets[k] == out.ext_offsets[k + 1]) continue;
      const size_t begin = k * B, end = std::min(begin + B, C);
      size_t firsts = 0;
      uint64_t at = out.ext_offsets[k];
      for (size_t c = begin; c < end; ++c)
        for (uint64_t e = dag.offsets[c]; e < dag.offsets[c + 1]; ++e) {
          const size_t d = dag.targets[e];
          if (d < end) continue;
          if (firsts < P)
            ++firsts;
          else
            out.ext_items[at++] = {uint32_t(c - begin), uint32_t(d)};
        }
    }
  });
  return out;
}

namespace {

// Calls read(k, d) for every row d that block k loads from global memory (the kernel's
// rules, kernels/propagate.cl: a prefetched item beyond the block closed before, any other
// item but the row just closed). Blocks go in parallel chunks: `read` must be thread-safe.
template <typename Read>
void for_each_global_read(const ChainedBlocks& b, Read read) {
  constexpr size_t B = ChainedBlocks::kRows;
  const size_t C = b.masks.size(), blocks = b.ext_offsets.size() - 1;
  const size_t P = blocks ? b.first.size() / blocks : 0;
  parallel_chunks(blocks, 4096, [&](size_t k0, size_t k1) {
    for (size_t k = k0; k < k1; ++k) {
      const size_t end = std::min(k * B + B, C);
      for (size_t i = 0; i < P; ++i) {
        const auto& [at, d] = b.first[k * P + i];
        if (at < B && d >= end + B) read(k, d);
      }
      for (uint64_t e = b.ext_offsets[k]; e < b.ext_offsets[k + 1]; ++e)
        if (b.ext_items[e][1] != end) read(k, b.ext_items[e][1]);
    }
  });
}

}  // namespace

LiveRowSlots live_row_slots(const ChainedBlocks& b) {
  // last_reader[d]: the lowest block that loads row d (the sweep runs from the top down).
  std::vector<uint32_t> last_reader =
      detail::huge_filled<uint32_t>(b.masks.size(), ChainedBlocks::kNone);
  for_each_global_read(b, [&](size_t k, size_t d) { atomic_min(last_reader[d], uint32_t(k)); });
  ReusedSlots reused = reuse_slots(last_reader, ChainedBlocks::kRows);
  return LiveRowSlots{std::move(reused.slot), reused.slots};
}

}  // namespace closure
