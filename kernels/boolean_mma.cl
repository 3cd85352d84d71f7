// Boolean product on NVIDIA's 1-bit tensor cores: C |= A * B with
// mma.sync.m16n8k256 .b1 AND+POPC through inline PTX, plus the layout kernels it needs
// (bit transpose, packing into the MMA fragment order, both at once for B).
//
// The host builds this file with -DMMA_PTX=1 only for NVIDIA devices (sm_80 and newer);
// without it the MMA is computed by plain OpenCL C over the same packed operands, so the
// packing, tiling, rasterisation and write-back are tested on any device (PoCL in CI).
//
// Packed operand layout ("P"): an operand X of `rows` rows packed along K (A itself, or B
// transposed) is cut into chunks of 16 rows x 256 bits of K, 128 words each, stored
// K-block-major: chunk (row block rb, K block kb) at word (kb * rowblocks + rb) * 128. In
// a chunk, lane L = 4g + t of a warp owns the 4 consecutive words
//   X(16rb + g, word 8kb + t), X(16rb + g + 8, 8kb + t), X(16rb + g, 8kb + t + 4),
//   X(16rb + g + 8, 8kb + t + 4),
// which is the A fragment {a0, a1, a2, a3} of m16n8k256 (rows g and g+8, K words t and
// t+4), and, for B transposed, the B fragments {b0, b1} of two n8 tiles: (x, z) for the
// chunk's columns 0..7 and (y, w) for 8..15. So every fragment is one 16-byte load, the
// warp's 32 loads are 512 contiguous bytes (no bank conflicts), and a block's tile of A
// for one K block is contiguous in global memory.

#include "gpuword.cl"

#ifndef MMA_WM
#define MMA_WM 64  // rows of C per warp (multiple of 16)
#endif
#ifndef MMA_WN
#define MMA_WN 64  // columns of C per warp (multiple of 32)
#endif
#ifndef MMA_WARPS_M
#define MMA_WARPS_M 2  // warps of a work-group along rows
#endif
#ifndef MMA_WARPS_N
#define MMA_WARPS_N 2  // warps of a work-group along columns
#endif
#ifndef MMA_KSTEPS
#define MMA_KSTEPS 2  // 256-bit K blocks per local-memory stage (two stages)
#endif
#ifndef MMA_GROUP_M
#define MMA_GROUP_M 16  // row blocks per raster group: neighbours in time share A and B in L2
#endif
#ifndef MMA_STAGES
#define MMA_STAGES 0  // 0: two stages fed through registers; 3 or 4: cp.async ring (PTX only)
#endif
#if MMA_STAGES > 0 && !defined(MMA_PTX)
#undef MMA_STAGES
#define MMA_STAGES 0  // the asynchronous copies are PTX: emulation uses the register path
#endif
#define RING (MMA_STAGES > 0 ? MMA_STAGES : 2)  // stages held in local memory

#define BM (MMA_WM * MMA_WARPS_M)              // rows of C per work-group
#define BN (MMA_WN * MMA_WARPS_N)              // columns of C per work-group
#define THREADS (32 * MMA_WARPS_M * MMA_WARPS_N)
#define FM (MMA_WM / 16)                       // m16 fragments of a warp
#define FN (MMA_WN / 16)                       // n16 fragment pairs of a warp
#define CHUNK4 32                              // uint4 of one packed chunk
#define STAGE_A (BM / 16 * MMA_KSTEPS * CHUNK4)  // uint4 of A per stage
#define STAGE_B (BN / 16 * MMA_KSTEPS * CHUNK4)  // uint4 of B per stage
#define LOADS_A ((STAGE_A + THREADS - 1) / THREADS)
#define LOADS_B ((STAGE_B + THREADS - 1) / THREADS)

// ---------------------------------------------------------------------------------------
// Layout kernels (O(n^2), a few percent of the product at most).

// T = X^T over the packed layout. X: words (r, w) at X[w * X_nrows + r], X_words words a
// row; T likewise with T_nrows rows (>= 32 * X_words) and T_words words. One work-group of
// 32 work-items transposes one 32 x 32 bit block through local memory: work-item i reads
// row 32*bw + i of word column bj and writes row 32*bj + i of word column bw. Global size:
// (T_nrows, T_words), local (32, 1).
__kernel void bit_transpose(__global gpuword* T, __global const gpuword* X, int X_nrows,
                            int X_words, int T_nrows) {
  __local gpuword block[32];
  const int i = get_local_id(0);
  const int bj = get_group_id(0), bw = get_global_id(1);  // X word column, T word column
  const int xr = 32 * bw + i;
  block[i] = (xr < X_nrows && bj < X_words) ? X[bj * X_nrows + xr] : 0;
  barrier(CLK_LOCAL_MEM_FENCE);
  gpuword out = 0;
#pragma unroll
  for (int r = 0; r < 32; ++r) out |= ((block[r] >> i) & 1u) << r;
  T[bw * T_nrows + 32 * bj + i] = out;
}

// P = X in the packed chunk order above. X has X_nrows (padded) rows of X_words words;
// P has `rowblocks` 16-row blocks; what X lacks is zero. One work-group of 128 per chunk
// (rb, kb): it reads the chunk's 8 word columns as 16-row runs (64 contiguous bytes each),
// reorders them in local memory and writes the chunk's 512 bytes in one piece. Global
// size: (128 * rowblocks, kblocks), local (128, 1).
__kernel void mma_pack(__global gpuword* P, __global const gpuword* X, int X_nrows, int X_words,
                       int rowblocks) {
  __local gpuword chunk[8 * 17];  // [word 0..7][row 0..15], padded: reads hit more banks
  const int i = get_local_id(0), rb = get_group_id(0), kb = get_group_id(1);
  const int row = 16 * rb + (i & 15), kw = 8 * kb + (i >> 4);
  chunk[17 * (i >> 4) + (i & 15)] = (row < X_nrows && kw < X_words) ? X[kw * X_nrows + row] : 0;
  barrier(CLK_LOCAL_MEM_FENCE);
  const int lane = i >> 2, reg = i & 3;
  const int r = (lane >> 2) + 8 * (reg & 1), x = (lane & 3) + 4 * (reg >> 1);
  P[(kb * rowblocks + rb) * 128 + i] = chunk[17 * x + r];
}

// P = (X^T) packed, without forming X^T: the rows of P are X's columns. One work-group of
// 256 per (X word column xw, K block kb) reads X's 256 rows of that word column (1 KiB,
// contiguous), and builds the two chunks of rows 32xw .. 32xw+31 of X^T by transposing
// 32 x 32 bit blocks in local memory. Global size: (256 * rowblocks / 2, kblocks), local
// (256, 1); rowblocks is even.
__kernel void mma_pack_transposed(__global gpuword* P, __global const gpuword* X, int X_nrows,
                                  int X_words, int rowblocks) {
  __local gpuword rows[8 * 33];  // 8 blocks of 32 words, padded: the 8 words a warp reads
                                 // at once fall in 8 different banks
  const int i = get_local_id(0), xw = get_group_id(0), kb = get_group_id(1);
  const int xr = 256 * kb + i;
  rows[33 * (i >> 5) + (i & 31)] = (xr < X_nrows && xw < X_words) ? X[xw * X_nrows + xr] : 0;
  barrier(CLK_LOCAL_MEM_FENCE);
  const int hi = i >> 7, within = i & 127, lane = within >> 2, reg = within & 3;
  const int bit = 16 * hi + (lane >> 2) + 8 * (reg & 1);  // column of X inside word xw
  const int x = (lane & 3) + 4 * (reg >> 1);                  // word of K inside the block
  gpuword out = 0;
#pragma unroll
  for (int k = 0; k < 32; ++k) out |= ((rows[33 * x + k] >> bit) & 1u) << k;
  P[(kb * rowblocks + 2 * xw + hi) * 128 + within] = out;
}

// ---------------------------------------------------------------------------------------
// The product.

#ifdef MMA_PTX
// d += popc(a AND b) for one m16n8k256 tile: a = {a0..a3} (16 x 256 bits), b = {b0, b1}.
#define MMA(d, a, b0, b1)                                                                  \
  asm volatile(                                                                            \
      "mma.sync.aligned.m16n8k256.row.col.s32.b1.b1.s32.and.popc "                         \
      "{%0,%1,%2,%3}, {%4,%5,%6,%7}, {%8,%9}, {%0,%1,%2,%3};"                              \
      : "+r"(d[0]), "+r"(d[1]), "+r"(d[2]), "+r"(d[3])                                     \
      : "r"(a.x), "r"(a.y), "r"(a.z), "r"(a.w), "r"(b0), "r"(b1))
#else
// Word x (0..7) of row r (0..15) of a packed chunk.
inline gpuword chunk_word(__local const uint4* chunk, int r, int x) {
  const int lane = 4 * (r & 7) + (x & 3), reg = (r >> 3) + 2 * (x >> 2);
  return ((__local const gpuword*)chunk)[4 * lane + reg];
}
// What the MMA leaves in this lane's four accumulators (rows g, g+8; columns 2t, 2t+1 of
// the n8 tile whose columns are rows b_row0 .. b_row0+7 of the B chunk), computed from
// the chunks in local memory instead of the registers.
inline void mma_emulated(int d[4], __local const uint4* a_chunk, __local const uint4* b_chunk,
                         int b_row0, int lane) {
  const int g = lane >> 2, t = lane & 3;
  for (int e = 0; e < 4; ++e) {
    const int ar = g + 8 * (e >> 1), br = b_row0 + 2 * t + (e & 1);
    for (int x = 0; x < 8; ++x)
      d[e] += popcount(chunk_word(a_chunk, ar, x) & chunk_word(b_chunk, br, x));
  }
}
#endif

// Copies this work-item's share of the stage at K block kb from global memory.
inline void load_stage(__global const uint4* PA, __global const uint4* PB, int a_rowblocks,
                       int b_rowblocks, int row0, int col0, int kb, int tid, uint4 ra[LOADS_A],
                       uint4 rb[LOADS_B]) {
#pragma unroll
  for (int i = 0; i < LOADS_A; ++i) {
    const int idx = tid + i * THREADS;
    if (idx < STAGE_A) {
      const int s = idx / (BM / 16 * CHUNK4), off = idx % (BM / 16 * CHUNK4);
      ra[i] = PA[((kb + s) * a_rowblocks + row0 / 16) * CHUNK4 + off];
    }
  }
#pragma unroll
  for (int i = 0; i < LOADS_B; ++i) {
    const int idx = tid + i * THREADS;
    if (idx < STAGE_B) {
      const int s = idx / (BN / 16 * CHUNK4), off = idx % (BN / 16 * CHUNK4);
      rb[i] = PB[((kb + s) * b_rowblocks + col0 / 16) * CHUNK4 + off];
    }
  }
}

inline void store_stage(__local uint4* sA, __local uint4* sB, int tid, const uint4 ra[LOADS_A],
                        const uint4 rb[LOADS_B]) {
#pragma unroll
  for (int i = 0; i < LOADS_A; ++i)
    if (tid + i * THREADS < STAGE_A) sA[tid + i * THREADS] = ra[i];
#pragma unroll
  for (int i = 0; i < LOADS_B; ++i)
    if (tid + i * THREADS < STAGE_B) sB[tid + i * THREADS] = rb[i];
}

#if MMA_STAGES > 0
// Issues the stage at K block kb into ring slot `slot` as asynchronous 16-byte copies
// (cp.async: global to local memory without registers), as one commit group.
inline void issue_stage(__local uint4* sA, __local uint4* sB, __global const uint4* PA,
                        __global const uint4* PB, int a_rowblocks, int b_rowblocks, int row0,
                        int col0, int kb, int slot, int tid) {
#pragma unroll
  for (int i = 0; i < LOADS_A; ++i) {
    const int idx = tid + i * THREADS;
    if (idx < STAGE_A) {
      const int s = idx / (BM / 16 * CHUNK4), off = idx % (BM / 16 * CHUNK4);
      __global const uint4* src = PA + ((kb + s) * a_rowblocks + row0 / 16) * CHUNK4 + off;
      const uint dst = (uint)(size_t)(sA + slot * STAGE_A + idx);  // local = shared offset
      asm volatile("cp.async.cg.shared.global [%0], [%1], 16;" ::"r"(dst), "l"(src) : "memory");
    }
  }
#pragma unroll
  for (int i = 0; i < LOADS_B; ++i) {
    const int idx = tid + i * THREADS;
    if (idx < STAGE_B) {
      const int s = idx / (BN / 16 * CHUNK4), off = idx % (BN / 16 * CHUNK4);
      __global const uint4* src = PB + ((kb + s) * b_rowblocks + col0 / 16) * CHUNK4 + off;
      const uint dst = (uint)(size_t)(sB + slot * STAGE_B + idx);
      asm volatile("cp.async.cg.shared.global [%0], [%1], 16;" ::"r"(dst), "l"(src) : "memory");
    }
  }
  asm volatile("cp.async.commit_group;" ::: "memory");
}
#endif

// acc += the products of one stage (MMA_KSTEPS K blocks) for this warp's tile.
inline void multiply_stage(int acc[FM][2 * FN][4], __local const uint4* a_stage,
                           __local const uint4* b_stage, int wm, int wn, int lane) {
#pragma unroll
  for (int s = 0; s < MMA_KSTEPS; ++s) {
    __local const uint4* a_k = a_stage + s * (BM / 16 * CHUNK4) + wm * FM * CHUNK4;
    __local const uint4* b_k = b_stage + s * (BN / 16 * CHUNK4) + wn * FN * CHUNK4;
#ifdef MMA_PTX
    uint4 a[FM], b[FN];
#pragma unroll
    for (int mi = 0; mi < FM; ++mi) a[mi] = a_k[mi * CHUNK4 + lane];
#pragma unroll
    for (int nj = 0; nj < FN; ++nj) b[nj] = b_k[nj * CHUNK4 + lane];
#pragma unroll
    for (int mi = 0; mi < FM; ++mi)
#pragma unroll
      for (int nj = 0; nj < FN; ++nj) {
        MMA(acc[mi][2 * nj], a[mi], b[nj].x, b[nj].z);
        MMA(acc[mi][2 * nj + 1], a[mi], b[nj].y, b[nj].w);
      }
#else
    for (int mi = 0; mi < FM; ++mi)
      for (int nj = 0; nj < FN; ++nj) {
        mma_emulated(acc[mi][2 * nj], a_k + mi * CHUNK4, b_k + nj * CHUNK4, 0, lane);
        mma_emulated(acc[mi][2 * nj + 1], a_k + mi * CHUNK4, b_k + nj * CHUNK4, 8, lane);
      }
#endif
  }
}

#if MMA_STAGES > 0
// acc += A * B over K blocks [kb_lo, kb_hi) through a ring of MMA_STAGES slots filled by
// cp.async, MMA_STAGES - 1 stages ahead: stage j sits in slot j % MMA_STAGES; iteration j
// waits for its group, computes, and refills the slot that iteration j - 1 read (every
// work-item is past it: the barrier).
inline void multiply_ring(int acc[FM][2 * FN][4], __local uint4* sA, __local uint4* sB,
                          __global const uint4* PA, __global const uint4* PB, int a_rowblocks,
                          int b_rowblocks, int row0, int col0, int kb_lo, int kb_hi, int tid,
                          int wm, int wn, int lane) {
  const int nstages = (kb_hi - kb_lo) / MMA_KSTEPS;
#pragma unroll
  for (int j = 0; j < MMA_STAGES - 1; ++j) {
    if (j < nstages)
      issue_stage(sA, sB, PA, PB, a_rowblocks, b_rowblocks, row0, col0, kb_lo + j * MMA_KSTEPS,
                  j, tid);
    else
      asm volatile("cp.async.commit_group;" ::: "memory");  // keeps the group count uniform
  }
  for (int j = 0; j < nstages; ++j) {
    asm volatile("cp.async.wait_group %0;" ::"n"(MMA_STAGES - 2) : "memory");
    barrier(CLK_LOCAL_MEM_FENCE);
    const int slot = j % MMA_STAGES;
    multiply_stage(acc, sA + slot * STAGE_A, sB + slot * STAGE_B, wm, wn, lane);
    const int next = j + MMA_STAGES - 1;
    if (next < nstages)
      issue_stage(sA, sB, PA, PB, a_rowblocks, b_rowblocks, row0, col0, kb_lo + next * MMA_KSTEPS,
                  next % MMA_STAGES, tid);
    else
      asm volatile("cp.async.commit_group;" ::: "memory");
  }
  asm volatile("cp.async.wait_group 0;" ::: "memory");
  barrier(CLK_LOCAL_MEM_FENCE);
}
#else
// acc += A * B over K blocks [kb_lo, kb_hi) with two stages in local memory: the next
// stage's loads go through registers while this stage multiplies.
inline void multiply_double_buffered(int acc[FM][2 * FN][4], __local uint4* sA,
                                     __local uint4* sB, __global const uint4* PA,
                                     __global const uint4* PB, int a_rowblocks, int b_rowblocks,
                                     int row0, int col0, int kb_lo, int kb_hi, int tid, int wm,
                                     int wn, int lane) {
  uint4 ra[LOADS_A], rb[LOADS_B];
  if (kb_lo < kb_hi) {
    load_stage(PA, PB, a_rowblocks, b_rowblocks, row0, col0, kb_lo, tid, ra, rb);
    store_stage(sA, sB, tid, ra, rb);
  }
  barrier(CLK_LOCAL_MEM_FENCE);

  for (int kb = kb_lo; kb < kb_hi; kb += MMA_KSTEPS) {
    const int st = ((kb - kb_lo) / MMA_KSTEPS) & 1;
    const bool more = kb + MMA_KSTEPS < kb_hi;
    // The next stage's loads are in flight while this stage multiplies.
    if (more) load_stage(PA, PB, a_rowblocks, b_rowblocks, row0, col0, kb + MMA_KSTEPS, tid, ra, rb);
    multiply_stage(acc, sA + st * STAGE_A, sB + st * STAGE_B, wm, wn, lane);
    if (more) store_stage(sA + (st ^ 1) * STAGE_A, sB + (st ^ 1) * STAGE_B, tid, ra, rb);
    barrier(CLK_LOCAL_MEM_FENCE);
  }
}
#endif

// Write-back: C(i, j) = popc > 0, gathered into the block's words in local memory (the
// stages are free now: `tile`, BM rows x BN/32 words, row fastest, overlays them) with
// local atomics, then OR-ed into C row by row (coalesced).
inline void write_back(__global gpuword* C, int C_nrows, int C_words, int acc[FM][2 * FN][4],
                       __local gpuword* tile, int row0, int col0, int tid, int wm, int wn,
                       int lane) {
  for (int i = tid; i < BM * (BN / 32); i += THREADS) tile[i] = 0;
  barrier(CLK_LOCAL_MEM_FENCE);
  {
    const int g = lane >> 2, t = lane & 3;
#pragma unroll
    for (int mi = 0; mi < FM; ++mi)
#pragma unroll
      for (int h = 0; h < 2; ++h) {
        const int r = wm * MMA_WM + 16 * mi + g + 8 * h;
#pragma unroll
        for (int wi = 0; wi < MMA_WN / 32; ++wi) {
          gpuword bits = 0;
#pragma unroll
          for (int q = 0; q < 4; ++q) {  // the four n8 tiles of this word
            const int ni = 4 * wi + q, pos = 8 * q + 2 * t;
            bits |= (gpuword)(acc[mi][ni][2 * h] != 0) << pos;
            bits |= (gpuword)(acc[mi][ni][2 * h + 1] != 0) << (pos + 1);
          }
          if (bits) atomic_or(&tile[(wn * MMA_WN / 32 + wi) * BM + r], bits);
        }
      }
  }
  barrier(CLK_LOCAL_MEM_FENCE);
  for (int i = tid; i < BM * (BN / 32); i += THREADS) {
    const int r = row0 + i % BM, w = col0 / 32 + i / BM;
    if (r < C_nrows && w < C_words && tile[i]) C[w * C_nrows + r] |= tile[i];
  }
}

// C |= A * B. PA: A packed (a_rowblocks 16-row blocks, kblocks K blocks); PB: B transposed
// and packed (b_rowblocks blocks of 16 columns of C). C: C_nrows (padded) rows of C_words
// words in the BitMatrix layout; rows and words beyond them are not written. kblocks is a
// multiple of MMA_KSTEPS, a_rowblocks of BM/16, b_rowblocks of BN/16. `triangular`: A and
// B are upper triangular, so the blocks below the diagonal and the K blocks outside
// [row0, col0 + BN) are skipped. Global size: THREADS * number of blocks (1-D).
__kernel __attribute__((reqd_work_group_size(THREADS, 1, 1))) void mma_mul(
    __global gpuword* C, __global const uint4* PA, __global const uint4* PB, int C_nrows,
    int C_words, int a_rowblocks, int b_rowblocks, int kblocks, int triangular) {
  __local uint4 sA[RING * STAGE_A];
  __local uint4 sB[RING * STAGE_B];
  const int tid = get_local_id(0), lane = tid & 31, warp = tid >> 5;
  const int wm = warp % MMA_WARPS_M, wn = warp / MMA_WARPS_M;

  // Grouped rasterisation: MMA_GROUP_M row blocks advance together along the columns.
  const int blocks_m = a_rowblocks * 16 / BM, blocks_n = b_rowblocks * 16 / BN;
  const int pid = get_group_id(0), per_group = MMA_GROUP_M * blocks_n;
  const int first_m = pid / per_group * MMA_GROUP_M;
  const int gm = min(blocks_m - first_m, MMA_GROUP_M);
  const int bm = first_m + (pid % per_group) % gm, bn = (pid % per_group) / gm;
  const int row0 = bm * BM, col0 = bn * BN;

  int kb_lo = 0, kb_hi = kblocks;
  if (triangular) {
    if (row0 >= col0 + BN) return;  // the whole group leaves, before any barrier
    kb_lo = row0 / 256 / MMA_KSTEPS * MMA_KSTEPS;
    kb_hi = min(kblocks, ((col0 + BN + 255) / 256 + MMA_KSTEPS - 1) / MMA_KSTEPS * MMA_KSTEPS);
  }

  int acc[FM][2 * FN][4];
#pragma unroll
  for (int mi = 0; mi < FM; ++mi)
#pragma unroll
    for (int ni = 0; ni < 2 * FN; ++ni)
#pragma unroll
      for (int e = 0; e < 4; ++e) acc[mi][ni][e] = 0;

#if MMA_STAGES > 0
  multiply_ring(acc, sA, sB, PA, PB, a_rowblocks, b_rowblocks, row0, col0, kb_lo, kb_hi, tid, wm,
                wn, lane);
#else
  multiply_double_buffered(acc, sA, sB, PA, PB, a_rowblocks, b_rowblocks, row0, col0, kb_lo, kb_hi,
                           tid, wm, wn, lane);
#endif
  write_back(C, C_nrows, C_words, acc, (__local gpuword*)sA, row0, col0, tid, wm, wn, lane);
}
