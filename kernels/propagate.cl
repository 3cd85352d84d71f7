// Propagation of reach rows over a condensed DAG, on the device (method `propagate`).
//
// Components are numbered topologically (c -> d implies c < d), so row c of the
// closure R depends only on rows d > c:  R(c) = OR over c -> d of ({d} | R(d)).
// A slice of word-columns of R needs no other slice, so each work-item owns one
// word-column w of a slice and sweeps every row from the last component to the first,
// all work-items of a launch in the same row order:
//   - no launch per level and no barrier: a work-item only ever reads rows it wrote
//     itself, earlier in its own sweep;
//   - a warp's 32 work-items touch 32 consecutive words of one row at each step
//     (row-major slices), so every load and store is one coalesced transaction;
//   - chains fold: when the successor is c+1 (Tarjan's numbering makes a DFS's last
//     child the next id, so a chain's next vertex is usually c+1), its row is still in
//     a register and nothing is loaded;
//   - R(d) has no column <= d, so a work-item skips loads of rows that cannot reach
//     its word, and rows above its word are zero without any work.
//   - a work-item owns a unit of UNIT_BITS columns (32, 16 or 8: a build option). The
//     layout is the same: on a little-endian device unit u of a row is byte
//     u * UNIT_BITS / 8 onwards of its words, and column j of unit u is bit j % UNIT_BITS.
//     (Narrower units were measured no faster on the H200: every warp sweeps every row,
//     so more warps do not shorten the sweep.)
//   - one launch sweeps up to four slices (SLICE_ARGS, SLICE_COLUMN): each is its own
//     allocation (NVIDIA's largest is a quarter of the memory), and kernels on separate
//     queues were measured to run one after another there.
// Row-major slice layout: unit (c, w) of the slice at rows[c * slice_units + w].
// WEIGHTED (a build option, 0 or 1): components may hold several vertices, so pair
// counts weigh each bit by the sizes of its two components.

#ifndef UNIT_BITS
#define UNIT_BITS 32
#endif
#include "gpuword.cl"
#ifndef WEIGHTED
#define WEIGHTED 0
#endif

// LONGEST_FIRST (0 or 1): work-groups are numbered from the highest columns down. A group
// sweeps rows from its highest column's row down to row 0 (with live rows; otherwise it
// only skips work above it), so the highest columns' groups have the longest sweeps; when
// a launch has more groups than the device holds at once, the GPU starts groups roughly in
// order of their number, and the longest ones then started last and ran alone at the end.
#ifndef LONGEST_FIRST
#define LONGEST_FIRST 1
#endif
#if LONGEST_FIRST
#define GROUP_NUMBER (get_num_groups(0) - 1 - get_group_id(0))
#else
#define GROUP_NUMBER get_group_id(0)
#endif

// The slices one launch sweeps: rows0..rows(slice_count - 1), full_units units each but
// the last (last_units), the first starting at global unit unit_begin. Work-groups are
// dealt to slices in equal runs; counts[] has full_units entries per slice.
#define SLICE_ARGS                                                                        \
  __global gpuword *rows0, __global gpuword *rows1, __global gpuword *rows2,              \
      __global gpuword *rows3, const uint components, const uint unit_begin,              \
      const uint full_units, const uint slice_count, const uint last_units,               \
      __global const uint *sizes, __global ulong *counts
// Declares this work-item's slice (rows, slice_units), its unit there (w), its global
// unit (gw), where its count goes (count_at), and whether it owns a unit (active).
#define SLICE_COLUMN                                                                      \
  const uint groups_per_slice = (full_units + get_local_size(0) - 1) / get_local_size(0); \
  const uint group = GROUP_NUMBER;                                                        \
  const uint slice = group / groups_per_slice;                                            \
  const uint w = (group % groups_per_slice) * get_local_size(0) + get_local_id(0);        \
  const uint slice_units = slice + 1 == slice_count ? last_units : full_units;            \
  __global gpuword* rows = slice == 0 ? rows0 : slice == 1 ? rows1 : slice == 2 ? rows2 : rows3; \
  const uint gw = unit_begin + slice * full_units + w;                                    \
  const uint count_at = slice * full_units + w;                                           \
  const bool active = slice < slice_count && w < slice_units

// The two steps both sweeps share, for the work-item owning global word gw (column w of
// the slice); rows c >= limit = UNIT_BITS gw + UNIT_BITS - 1 reach no column of it.
// Successor d's contribution to row c's word: {d} | R(d). R(c+1) is still in a register
// (prev); a row d >= limit is zero in this word and is not loaded.
inline gpuword successor_word(const uint d, const uint c, const gpuword prev, const uint limit,
                              const uint gw, __global const gpuword* rows,
                              const uint slice_units, const uint w) {
  gpuword r = 0;
  if (d == c + 1)
    r = prev;
  else if (d < limit)
    r = rows[(ulong)d * slice_units + w];
  if ((d >> GPUWORD_SHIFT) == gw) r |= word_bit(d);
  return r;
}

// The pairs row c's word acc adds to the count: its bits, or with component sizes
// (WEIGHTED) size(c) times the sizes of the components its bits stand for.
inline ulong word_pairs(const gpuword acc, const uint c, const uint gw,
                        __global const uint* sizes) {
  if (!WEIGHTED) return popcount(acc);
  ulong s = 0;
  for (gpuword bits = acc; bits; bits = (gpuword)(bits & (bits - 1)))
    s += sizes[gw * UNIT_BITS + (UNIT_BITS - 1 - clz((gpuword)(bits & (0u - bits))))];
  return s * sizes[c];
}

// rows:    the slice, components x slice_units units, written entirely by this kernel.
// sizes:   per component, its vertex count (read only when WEIGHTED).
// counts:  per work-item, sum over rows c of size(c) * sum of size(d), d in R(c) in
//          this word-column (the pair count's share of this column).
__kernel void propagate_columns(__global const ulong* offsets, __global const uint* targets,
                                SLICE_ARGS) {
  SLICE_COLUMN;
  if (!active) return;
  // Rows c >= limit reach no column of this word (their reach lies above c).
  const uint limit = gw * UNIT_BITS + (UNIT_BITS - 1);
  gpuword prev = 0;  // this column's word of row c + 1
  ulong count = 0;
  ulong e_end = offsets[components];
  for (uint c = components; c-- > 0;) {
    const ulong e_begin = offsets[c];
    gpuword acc = 0;
    if (c < limit) {
      for (ulong e = e_begin; e < e_end; ++e)
        acc |= successor_word(targets[e], c, prev, limit, gw, rows, slice_units, w);
      count += word_pairs(acc, c, gw, sizes);
    }
    rows[(ulong)c * slice_units + w] = acc;
    prev = acc;
    e_end = e_begin;
  }
  counts[count_at] = count;
}

// The same sweep with the CSR of each block of 32 rows staged in local memory by the
// work-group (one warp on NVIDIA) in two coalesced loads, so a row's step waits on local
// memory instead of two dependent global loads. Launched with 32 work-items a group.
#define CSR_CACHE 512  // targets staged per block; a block with more reads them globally
__kernel __attribute__((reqd_work_group_size(32, 1, 1))) void propagate_columns_blocked(
    __global const ulong* offsets, __global const uint* targets, SLICE_ARGS) {
  __local ulong offs[33];
  __local uint tg[CSR_CACHE];
  const uint lid = get_local_id(0);
  SLICE_COLUMN;  // no early return when inactive: the group shares barriers
  const uint limit = gw * UNIT_BITS + (UNIT_BITS - 1);
  gpuword prev = 0;
  ulong count = 0;
  for (uint end = components; end > 0;) {
    const uint begin = end > 32 ? end - 32 : 0;
    const uint nb = end - begin;
    barrier(CLK_LOCAL_MEM_FENCE);
    if (lid <= nb) offs[lid] = offsets[begin + lid];
    if (lid == 0 && nb == 32) offs[32] = offsets[end];
    barrier(CLK_LOCAL_MEM_FENCE);
    const ulong base = offs[0];
    const uint total = (uint)(offs[nb] - base);
    const bool cached = total <= CSR_CACHE;
    if (cached)
      for (uint i = lid; i < total; i += 32) tg[i] = targets[base + i];
    barrier(CLK_LOCAL_MEM_FENCE);
    if (active) {
      for (uint c = end; c-- > begin;) {
        const uint e0 = (uint)(offs[c - begin] - base), e1 = (uint)(offs[c - begin + 1] - base);
        gpuword acc = 0;
        if (c < limit) {
          for (uint e = e0; e < e1; ++e) {
            const uint d = cached ? tg[e] : targets[base + e];
            acc |= successor_word(d, c, prev, limit, gw, rows, slice_units, w);
          }
          count += word_pairs(acc, c, gw, sizes);
        }
        rows[(ulong)c * slice_units + w] = acc;
        prev = acc;
      }
    }
    end = begin;
  }
  if (active) counts[count_at] = count;
}

// The sweep with the per-row work taken off the chain of dependent rows (the default).
// Measured on the H200 (docs/benchmarks-gpu.md): the sweeps above spend their time in each
// row's step, one dependent local or global load and branch after another, even with no
// merge row loaded and nothing stored: a GPU issues in order, a warp stalls at every
// use of a load, and every warp sweeps every row, so more warps do not help.
// Here the host has already split each aligned block of 32 rows [32k, 32k + 32)
// (ChainedBlocks in src/closure/kernels/chained_blocks.hpp):
//   masks[c]:     bit j set when row c's successor 32k + j lies in the same block; bit 0
//                 of masks[32k] set when some row of the block has two or more such
//                 successors other than c + 1;
//   first[], ext_items[]: block k's successors d at or beyond the block's end, as
//                 (c - 32k, d): the first CHAIN_PREFETCH in first[CHAIN_PREFETCH k ..]
//                 (padded with (32, ~0)), the rest from ext_offsets[k] to
//                 ext_offsets[k + 1].
// A block takes two steps: its successor rows beyond the block (final already) are
// loaded together into ext, eight or more loads in flight, with the item lists fetched
// blocks ahead; then its rows are closed from its top with everything but the chain
// already in registers, branch-free where each row has at most one in-block successor
// besides c + 1, so a row's step on the chain is two ORs and an AND.
#define CHAIN_BLOCK 32
inline gpuword column_bit(const uint d, const uint gw) {
  return (d >> GPUWORD_SHIFT) == gw ? word_bit(d) : (gpuword)0;
}

#ifndef CHAIN_PREFETCH
#define CHAIN_PREFETCH 8  // items of a block loaded a block ahead (ChainedBlocks::kFirst)
#endif
// LIVE_ROWS (0 or 1; a count with no rows kept, method propagate without an output): a row
// is stored only when a later block reads it back from global memory, in the slot
// slots[c] that live_row_slots (src/closure/kernels/chained_blocks.hpp) gave it, reused
// once its last reader has loaded it; a slice then holds the history's width of rows, not
// all of them, so one launch covers far more word-columns. Each work-item reads and writes
// only its own column of a slot, so reuse needs no synchronisation. A group also starts
// its sweep at the first block that can reach one of its columns: the rows above it are
// zero in every lane's word, and nothing needs them written.
#ifndef LIVE_ROWS
#define LIVE_ROWS 0
#endif
#define LIVE_NONE 0xffffffffu  // slots[c] of a row never read back
#if LIVE_ROWS
#define ROW_AT(d) ((ulong)slots[d])
#else
#define ROW_AT(d) ((ulong)(d))
#endif
// Closes block [begin, begin + nb) of a sweep from its top row down, for the work-item in
// lane `lid` owning global unit gw: mk[r] is row begin + r's in-block successor mask (bit 0
// of mk[0]: the general-path flag), ex[r] its successors beyond the block, already ORed.
// Writes each row to `closed` (in-block merges, and the block closed after this one) and,
// when a later block reads it from global memory, to `rows`; adds its pairs to *count.
// Returns row `begin` (the next block's `prev`).
#if LIVE_ROWS
#define STORE_ROW(r, acc) \
  if (active && block_slot[r] != LIVE_NONE) rows[(ulong)block_slot[r] * slice_units + w] = (acc)
#else
#define STORE_ROW(r, acc) \
  if (active) rows[(ulong)(begin + (uint)(r)) * slice_units + w] = (acc)
#endif
inline gpuword close_block(uint* mk, const gpuword* ex, __local gpuword* closed, const uint lid,
                           const uint begin, const uint nb, const uint gw, const bool active,
                           __global gpuword* rows, const uint slice_units, const uint w,
                           __local const uint* block_slot, __global const uint* sizes,
                           ulong* count) {
  gpuword next = 0;  // row c + 1 of this block
  // Bit 0 of row 0's mask (never a successor: d > c) flags a block where some row has
  // two or more in-block successors besides c + 1; the others, nearly all on commit
  // histories (a merge has two parents), take the branch-free path, whose chain from
  // row to row is two ORs and an AND: the one other in-block successor, if any, is a
  // local load whose address is known before the chain reaches the row.
  const bool general = (mk[0] & 1u) != 0;
  mk[0] &= ~1u;
  const uint q = gw - (begin >> GPUWORD_SHIFT);  // the block's unit this lane owns, if any
  if (nb == CHAIN_BLOCK && !general) {
    uint pairs = 0;
#pragma unroll
    for (int r = CHAIN_BLOCK - 1; r >= 0; --r) {
      gpuword acc = ex[r];
      if (r + 1 < CHAIN_BLOCK) {
        const uint j = (uint)r + 1;
        const gpuword take = (gpuword)(0u - ((mk[r] >> j) & 1u));
        const gpuword bit =
            (j >> GPUWORD_SHIFT) == q ? word_bit(j) : (gpuword)0;
        const uint other = mk[r] & ~(1u << j);
        if (other) {
          const uint j2 = 31 - clz(other);
          acc |= closed[j2 * 32 + lid] | column_bit(begin + j2, gw);
        }
        acc |= (next | bit) & take;
      }
      closed[r * 32 + lid] = acc;
      STORE_ROW(r, acc);
#if WEIGHTED
      *count += word_pairs(acc, begin + (uint)r, gw, sizes);
#else
      pairs += popcount(acc);
#endif
      next = acc;
    }
    *count += pairs;
  } else {
#pragma unroll
    for (int r = CHAIN_BLOCK - 1; r >= 0; --r) {
      if ((uint)r < nb) {
        const uint m = mk[r];
        const uint next_bit = r + 1 < CHAIN_BLOCK ? 1u << (r + 1) : 0u;
        gpuword acc = ex[r];
        if (m & next_bit) acc |= next | column_bit(begin + (uint)r + 1, gw);
        for (uint mm = m & ~next_bit; mm; mm &= mm - 1) {
          const uint j = 31 - clz(mm & (0u - mm));
          acc |= closed[j * 32 + lid] | column_bit(begin + j, gw);
        }
        closed[r * 32 + lid] = acc;
        STORE_ROW(r, acc);
        *count += word_pairs(acc, begin + (uint)r, gw, sizes);
        next = acc;
      }
    }
  }
  return next;
}

// The rows a group sweeps, from the top: all of them, or with LIVE_ROWS only those below
// the group's highest limit (rows at or above it are zero in all its lanes' words; their
// `closed` entries are zeroed, as the first block's merges may read them). group_unit is
// the global unit of the group's first lane.
inline uint rows_to_sweep(const uint components, const uint group_unit,
                          __local gpuword* closed, const uint lid) {
#if LIVE_ROWS
  const ulong group_top = (ulong)(group_unit + 31) * UNIT_BITS + (UNIT_BITS - 1);
  for (uint r = 0; r < CHAIN_BLOCK; ++r) closed[r * 32 + lid] = 0;  // rows above: zero
  return (uint)min((ulong)components, group_top);
#else
  return components;
#endif
}

// A block's first CHAIN_PREFETCH items are fetched two blocks ahead (item2, then item1),
// so their load does not wait in the chain; their rows are loaded together, those in
// the block closed just before read from `closed`. This starts that pipeline at the top
// block k: its own first items into item1 and block k - 1's into item2 (padding
// (CHAIN_BLOCK, 0) when there is none); the kernel moves it on a block at a time.
inline void prime_first_items(uint2* item1, uint2* item2, __global const uint2* first,
                              const uint k) {
#pragma unroll
  for (uint i = 0; i < CHAIN_PREFETCH; ++i) {
    item1[i] = first[k * CHAIN_PREFETCH + i];  // the top block: nothing lies beyond it
    item2[i] = k > 0 ? first[(k - 1) * CHAIN_PREFETCH + i] : (uint2)(CHAIN_BLOCK, 0);
  }
}

// A block's first CHAIN_PREFETCH items (fetched blocks ahead into item1) ORed into ext;
// apart so that the kernel reads as its pipeline. `closed` still holds the block closed
// before (rows from end), which serves the items that lie in it.
inline void gather_first_items(const uint2* item1, const uint end, const bool active,
                               const uint limit, const uint gw, __global const gpuword* rows,
                               __global const uint* slots, const uint slice_units, const uint w,
                               __local const gpuword* closed, __local gpuword* ext,
                               const uint lid) {
#pragma unroll
  for (uint i = 0; i < CHAIN_PREFETCH; ++i) {
    const uint at = item1[i].x, d = item1[i].y;
    if (at < CHAIN_BLOCK) {
      const bool beyond = d >= end + CHAIN_BLOCK;  // else in the block closed before
      const gpuword far =
          active && beyond && d < limit ? rows[ROW_AT(d) * slice_units + w] : (gpuword)0;
      const gpuword v = beyond ? far : closed[(d - end) * 32 + lid];
      ext[at * 32 + lid] |= v | column_bit(d, gw);
    }
  }
}

// The rest of a block's successors beyond it (items e0 .. e1 of ext_items), ORed into
// ext; apart from the kernel, as the loop is shaped for eight loads in flight at a time.
// d == end is row `end`, still in a register (prev).
inline void gather_ext_items(const ulong e0, const ulong e1, __global const uint2* ext_items,
                             const uint end, const gpuword prev, const bool active,
                             const uint limit, const uint gw, __global const gpuword* rows,
                             __global const uint* slots, const uint slice_units, const uint w,
                             __local gpuword* ext, const uint lid) {
  for (ulong e = e0; e < e1; e += 8) {
    gpuword v[8];
    uint at[8];
#pragma unroll
    for (uint i = 0; i < 8; ++i) {
      at[i] = CHAIN_BLOCK;
      v[i] = 0;
      if (e + i < e1) {
        const uint2 item = ext_items[e + i];
        const uint d = item.y;
        at[i] = item.x;
        if (d == end)
          v[i] = prev;
        else if (active && d < limit)
          v[i] = rows[ROW_AT(d) * slice_units + w];
        v[i] |= column_bit(d, gw);
      }
    }
#pragma unroll
    for (uint i = 0; i < 8; ++i)
      if (at[i] < CHAIN_BLOCK) ext[at[i] * 32 + lid] |= v[i];
  }
}

// Everything a row needs but its successors' rows goes to registers before the chain
// starts, so the chain waits on no memory: loads at each row's step were most of it.
inline void block_to_registers(uint* mk, gpuword* ex, __local const uint* block_mask,
                               __local const gpuword* ext, const uint lid) {
#pragma unroll
  for (uint r = 0; r < CHAIN_BLOCK; ++r) {
    mk[r] = block_mask[r];
    ex[r] = ext[r * 32 + lid];
  }
}

// close_block's block_slot argument in the kernel below: the block's slots, or none.
#if LIVE_ROWS
#define BLOCK_SLOTS block_slot
#else
#define BLOCK_SLOTS 0
#endif

__kernel __attribute__((reqd_work_group_size(32, 1, 1))) void propagate_columns_chained(
    __global const uint* masks, __global const uint2* first, __global const ulong* ext_offsets,
    __global const uint2* ext_items, __global const uint* slots, SLICE_ARGS) {
  __local uint block_mask[CHAIN_BLOCK];
#if LIVE_ROWS
  __local uint block_slot[CHAIN_BLOCK];     // slots[c] of the block's rows
#endif
  __local gpuword ext[CHAIN_BLOCK * 32];    // [r * 32 + lid]: row r's successors beyond
  __local gpuword closed[CHAIN_BLOCK * 32]; // [r * 32 + lid]: row r, for in-block merges
  const uint lid = get_local_id(0);
  SLICE_COLUMN;  // no early return when inactive: the group shares barriers
  const uint limit = gw * UNIT_BITS + (UNIT_BITS - 1);
  gpuword prev = 0;  // row `end`: the first row of the block closed before
  ulong count = 0;
  const uint top_rows =
      rows_to_sweep(components, unit_begin + slice * full_units + (w - lid), closed, lid);
  const uint blocks = (top_rows + CHAIN_BLOCK - 1) / CHAIN_BLOCK;
  if (blocks == 0) return;  // uniform: no work-item reaches a barrier
  if (slice >= slice_count || w - lid >= slice_units) return;  // uniform: a group of no unit
  // Block k - 1's mask and extent are loaded while block k is closed (software pipelining:
  // each is a global load's latency off the chain).
  uint k = blocks - 1;
  uint mask_next = lid < components - k * CHAIN_BLOCK ? masks[k * CHAIN_BLOCK + lid] : 0u;
#if LIVE_ROWS
  uint slot_next = lid < components - k * CHAIN_BLOCK ? slots[k * CHAIN_BLOCK + lid] : LIVE_NONE;
#endif
  ulong e0_next = ext_offsets[k], e1_next = ext_offsets[k + 1];
  uint2 item1[CHAIN_PREFETCH], item2[CHAIN_PREFETCH];  // first items (prime_first_items)
  prime_first_items(item1, item2, first, k);
  for (k = blocks; k-- > 0;) {
    const uint begin = k * CHAIN_BLOCK;
    const uint end = min(begin + CHAIN_BLOCK, components);
    const uint nb = end - begin;
    const ulong e0 = e0_next, e1 = e1_next;
    barrier(CLK_LOCAL_MEM_FENCE);
    block_mask[lid] = mask_next;
#if LIVE_ROWS
    block_slot[lid] = slot_next;
    if (k > 0) slot_next = slots[begin - CHAIN_BLOCK + lid];
#endif
    if (k > 0) {
      mask_next = masks[begin - CHAIN_BLOCK + lid];
      e0_next = ext_offsets[k - 1];
      e1_next = e0;
    }
    for (uint r = 0; r < CHAIN_BLOCK; ++r) ext[r * 32 + lid] = 0;
    // The prefetched items, then the rest of the block's items, eight loads in flight.
    gather_first_items(item1, end, active, limit, gw, rows, slots, slice_units, w, closed, ext,
                       lid);
    gather_ext_items(e0, e1, ext_items, end, prev, active, limit, gw, rows, slots, slice_units,
                     w, ext, lid);
    barrier(CLK_LOCAL_MEM_FENCE);  // block_mask is shared; ext and closed are per lane
    uint mk[CHAIN_BLOCK];
    gpuword ex[CHAIN_BLOCK];
    block_to_registers(mk, ex, block_mask, ext, lid);
    // The next block's first items, and the one after's fetched, while this block's
    // chain runs. (Loading the next block's rows here too, for those beyond this block,
    // measured faster at 200k commits but slower at 1M on the H200: docs/benchmarks-gpu.md.)
    if (k > 0) {
#pragma unroll
      for (uint i = 0; i < CHAIN_PREFETCH; ++i) {
        item1[i] = item2[i];
        item2[i] = k > 1 ? first[(k - 2) * CHAIN_PREFETCH + i] : (uint2)(CHAIN_BLOCK, 0);
      }
    }
    prev = close_block(mk, ex, closed, lid, begin, nb, gw, active, rows, slice_units, w,
                       BLOCK_SLOTS, sizes, &count);
  }
  if (active) counts[count_at] = count;
}

// out[i] = R(c_i, d_i) for pairs whose column d_i lies in this slice.
__kernel void query_pairs(__global const uint* rows, const uint word_begin,
                          const uint slice_words, __global const uint* pairs, const uint count,
                          __global uchar* out) {
  const uint i = get_global_id(0);
  if (i >= count) return;
  const uint c = pairs[2 * i], d = pairs[2 * i + 1];
  out[i] = (rows[(ulong)c * slice_words + ((d >> 5) - word_begin)] >> (d & 31)) & 1u;
}

// Sum of `count` partial counts into total[0], by one work-group (the per-column counts
// of a slice: a few thousand numbers), so only 8 bytes cross the bus.
__kernel void sum_counts(__global const ulong* partial, const uint count,
                         __global ulong* total, __local ulong* scratch) {
  const uint lid = get_local_id(0), n = get_local_size(0);
  ulong s = 0;
  for (uint i = lid; i < count; i += n) s += partial[i];
  scratch[lid] = s;
  barrier(CLK_LOCAL_MEM_FENCE);
  for (uint h = n / 2; h > 0; h /= 2) {
    if (lid < h) scratch[lid] += scratch[lid + h];
    barrier(CLK_LOCAL_MEM_FENCE);
  }
  if (lid == 0) total[0] += scratch[0];
}
