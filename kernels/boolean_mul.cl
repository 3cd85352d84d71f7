// Boolean matrix products on 32-bit packed words: clcubic_mul (any shapes) and
// clutri_mul (upper-triangular square operands), C |= A * B over the Boolean semiring.
//
// Layout (src/closure/bitmatrix.hpp): bit j of word w of row r is element (r, 32w + j); words are
// stored column-major, word (r, w) at M[w * M_nrows + r], so consecutive work-items
// read consecutive rows (coalesced). Every dimension is padded by the host to a multiple
// of the tile, and padding bits are zero, so the kernels need no bounds checks.
//
// Structure after the clcubic_mul reference kernel:
// a work-group of (32*tile_n) x tile_n work-items computes one tile of C of tile_nrows rows
// by tile_width words; each work-item owns TILE_M rows x TILE_W words of it (for_tile).
// Tiles of A and B pass through local memory, A with the bank-conflict padding of the
// original (buffer_address). With TILE_W = TILE_M and TILE_K = tile_n * TILE_M this is
// the original kernel's geometry; the wider register tiles are what makes it fast on a GPU.
//
// Why the inner loop is shaped so (the cost model): one OR-AND of two words is one LOP3
// and 32 Boolean MACs, and the integer pipe is the limit. Each bit of A costs a mask (a
// shift pair) that is reused across the TILE_W words of B, and the warp's 32 work-items
// share the same words of B (one broadcast vector load from local memory), so a work-item
// spends TILE_M * TILE_W LOP3s per bit against TILE_M masks and TILE_W / 4 loads.

#ifndef tile_n
#define tile_n 2  // work-group is (32*tile_n) x tile_n work-items
#endif
#ifndef TILE_M
#define TILE_M 2  // rows of C per work-item (spaced 32*tile_n apart: coalesced)
#endif
#ifndef TILE_W
#define TILE_W TILE_M  // words of C per work-item along a row (contiguous: vector loads)
#endif
#ifndef TILE_K
#define TILE_K (tile_n * TILE_M)  // words of the K dimension per local-memory tile
#endif

#include "gpuword.cl"

#define read_only_global __global const gpuword*
#define write_only_global __global gpuword*
#define read(M, row, col) M[(col)*M##_nrows + row]
#define write(M, row, col, x) M[(col)*M##_nrows + row] = x

#define tile_width (tile_n * TILE_W)           // words of a tile row of C
#define tile_ncols (tile_width * 32)           // bits of a tile row of C
#define tile_nrows (tile_n * TILE_M * 32)      // rows of a tile of C and of A
#define col_stride (34 * tile_n * TILE_M + 1)  // A buffer column: rows + 1 per 16 + 1
#define group_size (32 * tile_n * tile_n)      // work-items of a group
// B buffer row (one bit-row of K): the tile's words plus 4, which keeps rows 16-byte
// aligned for the vector loads and spreads the transposing stores over more banks.
#define b_stride (tile_width + 4)

#define CEILCOLS(i) ((i + 31) / 32)
#define A_width CEILCOLS(A_ncols)
#define B_nrows (32 * A_width)
#define C_nrows A_nrows

// Offset into the local A tile, column-major: after every 16 rows one empty word and
// after each column one more, so that the 32 lanes of a warp hit 32 different banks.
inline int buffer_address(int row, int col) { return col * col_stride + row + (row >> 4); }
#define buf(M, row, col) M##_buf[buffer_address(row, col)]

// Each work-item's TILE_M x TILE_W words: trow steps by 32*tile_n rows (consecutive
// work-items, consecutive rows: coalesced), tcol runs over TILE_W adjacent words.
#define for_tile                                                       \
  for (int ti = 0, tcol = lcol * TILE_W; ti < TILE_W; ++ti, ++tcol)    \
    for (int tj = 0, trow = lrow; tj < TILE_M; ++tj, trow += 32 * tile_n)

// Loads the tile of A at (row0, word k0w), tile_nrows x TILE_K words, and the tile of B at
// (bit-row 32*k0w, word col0), 32*TILE_K x tile_width words, into local memory. The
// group walks both in global-memory order (consecutive work-items, consecutive words).
inline void load_tiles(read_only_global A, read_only_global B, __local gpuword* A_buf,
                       __local gpuword* B_buf, int A_nrows, int B_rows, int row0, int col0,
                       int k0w, int lid) {
  for (int i = lid; i < tile_nrows * TILE_K; i += group_size) {
    const int row = i % tile_nrows, kw = i / tile_nrows;
    buf(A, row, kw) = A[(k0w + kw) * A_nrows + row0 + row];
  }
  for (int i = lid; i < 32 * TILE_K * tile_width; i += group_size) {
    const int k = i % (32 * TILE_K), w = i / (32 * TILE_K);
    B_buf[k * b_stride + w] = B[(col0 + w) * B_rows + 32 * k0w + k];
  }
}

// The local tiles, declared by each kernel (the host sizes nothing): A with
// buffer_address's padding, B as uint4 so that its rows are 16-byte aligned for the vector
// loads of load_b (a __local gpuword array is only promised 4 bytes).
#define A_BUF_WORDS (col_stride * TILE_K)
#define B_BUF_VECS (32 * TILE_K * b_stride / 4)
#define DECLARE_LOCAL_TILES                \
  __local gpuword A_buf[A_BUF_WORDS];      \
  __local uint4 B_vecs[B_BUF_VECS];        \
  __local gpuword* B_buf = (__local gpuword*)B_vecs

// The TILE_W words of B at bit-row k for this work-item, with the widest load that fits.
inline void load_b(__local const gpuword* B_buf, int k, int lcol, gpuword b[TILE_W]) {
  const int base = k * b_stride + lcol * TILE_W;
#if TILE_W % 4 == 0
#pragma unroll
  for (int q = 0; q < TILE_W / 4; ++q) {
    const uint4 v = ((__local const uint4*)B_buf)[base / 4 + q];
    b[4 * q] = v.x;
    b[4 * q + 1] = v.y;
    b[4 * q + 2] = v.z;
    b[4 * q + 3] = v.w;
  }
#elif TILE_W % 2 == 0
#pragma unroll
  for (int q = 0; q < TILE_W / 2; ++q) {
    const uint2 v = ((__local const uint2*)B_buf)[base / 2 + q];
    b[2 * q] = v.x;
    b[2 * q + 1] = v.y;
  }
#else
#pragma unroll
  for (int q = 0; q < TILE_W; ++q) b[q] = B_buf[base + q];
#endif
}

// acc |= (A tile) * (B tile) for this work-item's words, over kw_count words of K from
// kw_first. A bit's mask is made once per row and reused across the TILE_W words of B.
inline void multiply_tiles(__local const gpuword* A_buf, __local const gpuword* B_buf,
                           gpuword acc[TILE_M][TILE_W], int lrow, int lcol, int kw_first,
                           int kw_count) {
  for (int kw = kw_first; kw < kw_first + kw_count; ++kw) {
    gpuword a[TILE_M];
#pragma unroll
    for (int tj = 0; tj < TILE_M; ++tj) a[tj] = A_buf[buffer_address(lrow + tj * 32 * tile_n, kw)];
#pragma unroll
    for (int bit = 0; bit < 32; ++bit) {
      gpuword b[TILE_W];
      load_b(B_buf, 32 * kw + bit, lcol, b);
#pragma unroll
      for (int tj = 0; tj < TILE_M; ++tj) {
        // all ones when bit `bit` of a[tj] is set: shift it to the sign, then spread it
        const gpuword mask = (gpuword)((int)(a[tj] << (31 - bit)) >> 31);
#pragma unroll
        for (int ti = 0; ti < TILE_W; ++ti) acc[tj][ti] |= b[ti] & mask;
      }
    }
  }
}

// C |= A * B. A is A_nrows x A_ncols bits, B is A_ncols x (32 * words of C) bits; all
// padded to tile multiples (A_ncols to 32*TILE_K). Global size: (A_nrows / TILE_M,
// C words / TILE_W).
__kernel void clcubic_mul(write_only_global C, read_only_global A, read_only_global B,
                          int A_nrows, int A_ncols) {
  DECLARE_LOCAL_TILES;
  const int lrow = get_local_id(0), lcol = get_local_id(1);
  const int lid = lcol * 32 * tile_n + lrow;
  const int row0 = get_group_id(0) * tile_nrows, col0 = get_group_id(1) * tile_width;
  gpuword acc[TILE_M][TILE_W];
  for_tile acc[tj][ti] = 0;

  for (int k0w = 0; k0w < A_width; k0w += TILE_K) {
    load_tiles(A, B, A_buf, B_buf, A_nrows, B_nrows, row0, col0, k0w, lid);
    barrier(CLK_LOCAL_MEM_FENCE);
    multiply_tiles(A_buf, B_buf, acc, lrow, lcol, 0, TILE_K);
    barrier(CLK_LOCAL_MEM_FENCE);
  }
  for_tile {
    const int r = row0 + trow, w = col0 + tcol;
    write(C, r, w, read(C, r, w) | acc[tj][ti]);
  }
}

// C |= A * B for upper-triangular square A, B (A_nrows x A_nrows bits, padded). Element
// (i, j) of A * B needs i <= k <= j, so the tile of rows [r0, r0 + tile_nrows) and columns
// [c0, c1) is zero unless r0 < c1, and only K chunks that meet [r0, c1) count: groups below
// the diagonal return at once, about 1/6 of the cubic work for a large matrix.
__kernel void clutri_mul(write_only_global C, read_only_global A, read_only_global B,
                         int A_nrows) {
  DECLARE_LOCAL_TILES;
  const int row0 = get_group_id(0) * tile_nrows, col0 = get_group_id(1) * tile_width;
  const int first_bit = row0, end_bit = 32 * (col0 + tile_width);  // k in [row0, end_bit)
  if (first_bit >= end_bit) return;  // the whole group leaves, before any barrier
  const int lrow = get_local_id(0), lcol = get_local_id(1);
  const int lid = lcol * 32 * tile_n + lrow;
  gpuword acc[TILE_M][TILE_W];
  for_tile acc[tj][ti] = 0;

  const int k_first = first_bit / 32, k_end = min(end_bit / 32, A_nrows / 32);  // words
  for (int k0w = k_first / TILE_K * TILE_K; k0w < k_end; k0w += TILE_K) {
    load_tiles(A, B, A_buf, B_buf, A_nrows, A_nrows, row0, col0, k0w, lid);
    barrier(CLK_LOCAL_MEM_FENCE);
    // Words of this chunk inside [k_first, k_end): the rest are zero in A or in B.
    const int lo = max(k_first - k0w, 0), hi = min(k_end - k0w, TILE_K);
    multiply_tiles(A_buf, B_buf, acc, lrow, lcol, lo, hi - lo);
    barrier(CLK_LOCAL_MEM_FENCE);
  }
  for_tile {
    const int r = row0 + trow, w = col0 + tcol;
    write(C, r, w, read(C, r, w) | acc[tj][ti]);
  }
}
