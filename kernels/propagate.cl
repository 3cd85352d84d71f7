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
// Row-major slice layout: word (c, w) of the slice at rows[c * slice_words + w].

typedef unsigned int gpuword;

// The two steps both sweeps share, for the work-item owning global word gw (column w of
// the slice); rows c >= limit = 32 gw + 31 reach no column of it.
// Successor d's contribution to row c's word: {d} | R(d). R(c+1) is still in a register
// (prev); a row d >= limit is zero in this word and is not loaded.
inline gpuword successor_word(const uint d, const uint c, const gpuword prev, const uint limit,
                              const uint gw, __global const gpuword* rows,
                              const uint slice_words, const uint w) {
  gpuword r = 0;
  if (d == c + 1)
    r = prev;
  else if (d < limit)
    r = rows[(ulong)d * slice_words + w];
  if ((d >> 5) == gw) r |= (gpuword)1 << (d & 31);
  return r;
}

// The pairs row c's word acc adds to the count: its bits, or with component sizes
// (weighted) size(c) times the sizes of the components its bits stand for.
inline ulong word_pairs(const gpuword acc, const uint c, const uint gw, const int weighted,
                        __global const uint* sizes) {
  if (!weighted) return popcount(acc);
  ulong s = 0;
  for (gpuword bits = acc; bits; bits &= bits - 1)
    s += sizes[gw * 32 + (31 - clz(bits & (0u - bits)))];
  return s * sizes[c];
}

// rows:    the slice, components x slice_words words, written entirely by this kernel.
// sizes:   per component, its vertex count (read only when weighted != 0).
// counts:  per work-item, sum over rows c of size(c) * sum of size(d), d in R(c) in
//          this word-column (the pair count's share of this column).
__kernel void propagate_columns(__global const ulong* offsets, __global const uint* targets,
                                __global gpuword* rows, const uint components,
                                const uint word_begin, const uint slice_words,
                                __global const uint* sizes, const int weighted,
                                __global ulong* counts) {
  const uint w = get_global_id(0);
  if (w >= slice_words) return;
  const uint gw = word_begin + w;
  // Rows c >= limit reach no column of this word (their reach lies above c).
  const uint limit = gw * 32 + 31;
  gpuword prev = 0;  // this column's word of row c + 1
  ulong count = 0;
  ulong e_end = offsets[components];
  for (uint c = components; c-- > 0;) {
    const ulong e_begin = offsets[c];
    gpuword acc = 0;
    if (c < limit) {
      for (ulong e = e_begin; e < e_end; ++e)
        acc |= successor_word(targets[e], c, prev, limit, gw, rows, slice_words, w);
      if (acc) count += word_pairs(acc, c, gw, weighted, sizes);
    }
    rows[(ulong)c * slice_words + w] = acc;
    prev = acc;
    e_end = e_begin;
  }
  counts[w] = count;
}

// The same sweep with the CSR of each block of 32 rows staged in local memory by the
// work-group (one warp on NVIDIA) in two coalesced loads, so a row's step waits on local
// memory instead of two dependent global loads. Launched with 32 work-items a group.
#ifndef CSR_CACHE
#define CSR_CACHE 512  // targets staged per block; a block with more reads them globally
#endif
__kernel __attribute__((reqd_work_group_size(32, 1, 1))) void propagate_columns_blocked(
    __global const ulong* offsets, __global const uint* targets, __global gpuword* rows,
    const uint components, const uint word_begin, const uint slice_words,
    __global const uint* sizes, const int weighted, __global ulong* counts) {
  __local ulong offs[33];
  __local uint tg[CSR_CACHE];
  const uint lid = get_local_id(0);
  const uint w = get_global_id(0);
  const bool active = w < slice_words;  // no early return: the group shares barriers
  const uint gw = word_begin + w;
  const uint limit = gw * 32 + 31;
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
            acc |= successor_word(d, c, prev, limit, gw, rows, slice_words, w);
          }
          if (acc) count += word_pairs(acc, c, gw, weighted, sizes);
        }
        rows[(ulong)c * slice_words + w] = acc;
        prev = acc;
      }
    }
    end = begin;
  }
  if (active) counts[w] = count;
}

// out[i] = R(c_i, d_i) for pairs whose column d_i lies in this slice.
__kernel void query_pairs(__global const gpuword* rows, const uint word_begin,
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
