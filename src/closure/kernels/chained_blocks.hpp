// What the chained propagation sweep (kernels/propagate.cl, propagate_columns_chained)
// reads besides the rows: the condensation's CSR split on the host into aligned blocks of
// 32 rows, so the kernel's chain from row to row waits on no memory.
#pragma once

#include <array>
#include <cstddef>
#include <cstdint>
#include <vector>

#include "closure/graph/csr_dag.hpp"

namespace closure {

// Blocks of kRows rows [32k, 32k + 32). masks[c] has bit j set when row c's successor
// 32k + j lies in c's block (j > 0, as c < 32k + j); bit 0 of masks[32k] is set when some
// row c of block k has two or more such successors other than c + 1. Block k's other
// successors d (beyond the block) are items (c - 32k, d): its first `prefetch` in
// first[prefetch k ..], padded with (kRows, kNone) (the kernel loads them a block ahead),
// the rest in ext_items[ext_offsets[k] .. ext_offsets[k + 1]].
struct ChainedBlocks {
  static constexpr size_t kRows = 32;
  static constexpr size_t kFirst = 8;  // the default prefetch: PropagateParams::chain_prefetch
  static constexpr uint32_t kNone = 0xffffffffu;
  std::vector<uint32_t> masks;
  std::vector<std::array<uint32_t, 2>> first;
  std::vector<uint64_t> ext_offsets;
  std::vector<std::array<uint32_t, 2>> ext_items;

  uint64_t bytes() const {  // what the upload moves
    return masks.size() * 4 + first.size() * 8 + ext_offsets.size() * 8 + ext_items.size() * 8;
  }
};

// Throws std::invalid_argument unless every edge c -> d has c < d (topological ids).
ChainedBlocks chained_blocks(const CsrDag& dag, size_t prefetch = ChainedBlocks::kFirst);

// Where the chained sweep keeps rows when only the count is wanted (PropagateParams::
// live_rows): a row needs memory only if a later block reads it from global memory (a
// successor beyond that block that is neither the row just closed nor in the block closed
// just before), and only until its last such reader, the lowest such block, has loaded
// it. slot[c] is row c's slot, or kNone; a slot freed at block k is reused by a row of
// block k or below. `slots` is the most rows live at once: the history's width.
struct LiveRowSlots {
  std::vector<uint32_t> slot;
  size_t slots = 0;
};
LiveRowSlots live_row_slots(const ChainedBlocks& blocks);

}  // namespace closure
