// Boolean matrix products on 32-bit packed words: clcubic_mul (any shapes) and
// clutri_mul (upper-triangular square operands), C |= A * B over the Boolean semiring.
//
// Layout (src/bitmatrix.hpp): bit j of word w of row r is element (r, 32w + j); words are
// stored column-major, word (r, w) at M[w * M_nrows + r], so consecutive work-items
// read consecutive rows (coalesced). Every dimension is padded by the host to a multiple
// of the tile, and padding bits are zero, so the kernels need no bounds checks.
//
// Structure after the clcubic_mul reference (shared/seeds/clcubic_mul-reference.txt):
// a work-group of (32*tile_n) x tile_n work-items computes one tile of C of tile_nrows rows
// by tile_width words; each work-item owns TILE_M x TILE_M words of it (for_tile). Tiles
// of A and B pass through local memory with bank-conflict padding (buffer_address).

#ifndef tile_n
#define tile_n 2  // work-group is (32*tile_n) x tile_n work-items
#endif
#ifndef TILE_M
#define TILE_M 2  // each work-item computes TILE_M x TILE_M words of C
#endif

typedef unsigned int gpuword;  // a GPU word has 32 bits

#define read_only_global __global const gpuword*
#define write_only_global __global gpuword*
#define read(M, row, col) M[(col)*M##_nrows + row]
#define write(M, row, col, x) M[(col)*M##_nrows + row] = x

#define tile_width (tile_n * TILE_M)           // words of a tile row
#define tile_ncols (tile_width * 32)           // bits of a tile row
#define tile_nrows (tile_n * TILE_M * 32)      // rows of a tile (tiles are square in bits)
#define col_stride (34 * tile_n * TILE_M + 1)  // buffer column: rows + 1 per 16 + 1

#define CEILCOLS(i) ((i + 31) / 32)
#define A_width CEILCOLS(A_ncols)
#define B_nrows (32 * A_width)
#define C_nrows A_nrows

// Offset into a local tile buffer, column-major: after every 16 rows one empty word and
// after each column one more, so that the 32 lanes of a warp hit 32 different banks.
inline int buffer_address(int row, int col) { return col * col_stride + row + (row >> 4); }
#define buf(M, row, col) M##_buf[buffer_address(row, col)]

// Each work-item's TILE_M x TILE_M words: trow steps by 32*tile_n rows (consecutive
// work-items, consecutive rows: coalesced), tcol by tile_n words.
#define for_tile                                                  \
  for (int ti = 0, tcol = lcol; ti < TILE_M; ++ti, tcol += tile_n) \
    for (int tj = 0, trow = lrow; tj < TILE_M; ++tj, trow += 32 * tile_n)

// Loads the tile of A at (row0, word k0w) and the tile of B at (bit-row 32*k0w, word col0)
// into local memory.
inline void load_tiles(read_only_global A, read_only_global B, __local gpuword* A_buf,
                       __local gpuword* B_buf, int A_nrows, int B_rows, int row0, int col0,
                       int k0w, int lrow, int lcol) {
  for_tile {
    buf(A, trow, tcol) = A[(k0w + tcol) * A_nrows + row0 + trow];
    buf(B, trow, tcol) = B[(col0 + tcol) * B_rows + 32 * k0w + trow];
  }
}

// acc |= (A tile) * (B tile) for this work-item's words. The masks of A's bits are made
// once per row and reused across TILE_M columns; B's words once per column across rows.
inline void multiply_tiles(__local const gpuword* A_buf, __local const gpuword* B_buf,
                           gpuword acc[TILE_M][TILE_M], int lrow, int lcol) {
  for (int kw = 0; kw < tile_width; ++kw) {
    gpuword a[TILE_M];
#pragma unroll
    for (int tj = 0; tj < TILE_M; ++tj) a[tj] = A_buf[buffer_address(lrow + tj * 32 * tile_n, kw)];
#pragma unroll 8
    for (int bit = 0; bit < 32; ++bit) {
      gpuword b[TILE_M];
#pragma unroll
      for (int ti = 0; ti < TILE_M; ++ti) b[ti] = B_buf[buffer_address(32 * kw + bit, lcol + ti * tile_n)];
#pragma unroll
      for (int tj = 0; tj < TILE_M; ++tj) {
        // all ones when bit `bit` of a[tj] is set: shift it to the sign, then spread it
        const gpuword mask = (gpuword)((int)(a[tj] << (31 - bit)) >> 31);
#pragma unroll
        for (int ti = 0; ti < TILE_M; ++ti) acc[ti][tj] |= b[ti] & mask;
      }
    }
  }
}

// C |= A * B. A is A_nrows x A_ncols bits, B is A_ncols x (32 * words of C) bits; all
// padded to tile multiples. Global size: (A_nrows / TILE_M, C words / TILE_M).
__kernel void clcubic_mul(write_only_global C, read_only_global A, read_only_global B,
                          __local gpuword* A_buf, __local gpuword* B_buf, int A_nrows,
                          int A_ncols) {
  const int lrow = get_local_id(0), lcol = get_local_id(1);
  const int row0 = get_group_id(0) * tile_nrows, col0 = get_group_id(1) * tile_width;
  gpuword acc[TILE_M][TILE_M];
  for_tile acc[ti][tj] = 0;

  for (int k0w = 0; k0w < A_width; k0w += tile_width) {
    load_tiles(A, B, A_buf, B_buf, A_nrows, B_nrows, row0, col0, k0w, lrow, lcol);
    barrier(CLK_LOCAL_MEM_FENCE);
    multiply_tiles(A_buf, B_buf, acc, lrow, lcol);
    barrier(CLK_LOCAL_MEM_FENCE);
  }
  for_tile {
    const int r = row0 + trow, w = col0 + tcol;
    write(C, r, w, read(C, r, w) | acc[ti][tj]);
  }
}

// C |= A * B for upper-triangular square A, B (A_nrows x A_nrows bits, padded). Tile
// (I, J) of C is zero unless I <= J, and A(I, K) * B(K, J) is zero unless I <= K <= J:
// groups below the diagonal return at once and the K loop runs from I to J only, about
// 1/6 of the cubic work for a large matrix.
__kernel void clutri_mul(write_only_global C, read_only_global A, read_only_global B,
                         __local gpuword* A_buf, __local gpuword* B_buf, int A_nrows) {
  const int I = get_group_id(0), J = get_group_id(1);
  if (I > J) return;  // the whole group leaves, before any barrier
  const int lrow = get_local_id(0), lcol = get_local_id(1);
  const int row0 = I * tile_nrows, col0 = J * tile_width;
  gpuword acc[TILE_M][TILE_M];
  for_tile acc[ti][tj] = 0;

  for (int K = I; K <= J; ++K) {
    load_tiles(A, B, A_buf, B_buf, A_nrows, A_nrows, row0, col0, K * tile_width, lrow, lcol);
    barrier(CLK_LOCAL_MEM_FENCE);
    multiply_tiles(A_buf, B_buf, acc, lrow, lcol);
    barrier(CLK_LOCAL_MEM_FENCE);
  }
  for_tile {
    const int r = row0 + trow, w = col0 + tcol;
    write(C, r, w, read(C, r, w) | acc[ti][tj]);
  }
}
