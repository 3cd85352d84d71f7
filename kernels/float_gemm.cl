// Float GEMM kernels after myGEMM.cl (myAdd, myGEMM1, myGEMM1b, myGEMM2; column-major) and
// the tiled CUDA MatrixMulKernel ported to OpenCL (row-major). C = A * B, A is M x K,
// B is K x N, C is M x N. Origins of each kernel: docs/kernels.md, "Float GEMM kernels".
//
// Every kernel here accepts any M, K, N >= 1: the host rounds the NDRange up to whole
// work-groups, and each kernel guards its loads (zero fill) and its stores. Each fix of
// the seeds says "Fixed:" beside it.

#ifndef TS
#define TS 16  // myGEMM2: work-groups of TS x TS work-items, TS x TS tiles of A and B
#endif
#ifndef TILE_WIDTH
#define TILE_WIDTH 16  // MatrixMulKernel: TILE_WIDTH x TILE_WIDTH blocks and shared tiles
#endif

// ---------------------------------------------------------------------------------------
// myGEMM.cl (column-major): element (r, c) of an R-row matrix X sits at X[c*R + r].
//
//  cache line:  |  @: hit   ?: miss
//               V
//                            N
//             [B]--------+--------------+
//             |          |@             |
//            K|          |@             |
//             |          |@             |
//      K      +----------+--------------+
//  [A]-----+  [C]-----------------------+
//  |       |  |          .              |
//  |       |  |          .              |
// M|       |  |          .              |
//  +-------+  |  ........Xi             |
//  |@@@@@@@|  |          Xi+1@          |
//  |@@@@@@@|  |          Xi+2@          |
//  +-------+  +-------------------------+
//
// Work-item (globalRow, globalCol) = (get_global_id(0), get_global_id(1)) computes C's
// element (globalRow, globalCol): neighbours along dimension 0 read neighbouring rows of
// A and write neighbouring rows of C, which are contiguous in column-major order.
// ---------------------------------------------------------------------------------------

// C = A + B, element-wise on M x N matrices (K is unused; the seed's signature is kept so
// every kernel of the file is called alike).
__kernel void myAdd(const int M, const int N, const int K, const __global float* A,
                    const __global float* B, __global float* C) {
  // Thread identifiers
  const int globalRow = get_global_id(0);  // Row ID of C (0..M)
  const int globalCol = get_global_id(1);  // Col ID of C (0..N)

  // Fixed: the seed stored unconditionally, so the NDRange had to be exactly M x N; with
  // the range rounded up to whole work-groups the extra work-items must not store.
  if (globalRow < M && globalCol < N)
    C[globalCol * M + globalRow] = A[globalCol * M + globalRow] + B[globalCol * M + globalRow];
}

// First naive implementation: one element of C per work-item, everything from global
// memory. A's column k and C's column are read/written along dimension 0 (coalesced).
__kernel void myGEMM1(const int M, const int N, const int K, const __global float* A,
                      const __global float* B, __global float* C) {
  // Thread identifiers
  const int globalRow = get_global_id(0);  // Row ID of C (0..M)
  const int globalCol = get_global_id(1);  // Col ID of C (0..N)

  // Fixed: no bounds check in the seed (see myAdd).
  if (globalRow >= M || globalCol >= N) return;

  // Compute a single element (loop over K)
  float acc = 0.0f;
  for (int k = 0; k < K; k++) {
    acc += A[k * M + globalRow] * B[globalCol * K + k];
  }

  // Store the result
  C[globalCol * M + globalRow] = acc;
}

// myGEMM1 with the two NDRange dimensions swapped: dimension 0 now walks C's columns, so
// neighbouring work-items read A and write C a whole column (M floats) apart; only B's
// reads stay shared. The seed keeps it to show that this is much slower.
//
//  cache line:                N
//             [B]--------+--------------+
//             |          | @    @       |
//            K|          | @    @       |
//      K      +----------+--------------+
//  [A]-----+  [C]-----------------------+
//  |       |  |          .              |
// M|       |  |          .              |
//  +-------+  |  ........Xi Xi+1 Xi+2...|
//  |???????|  |          ?  ?    ?      |
//  +-------+  +-------------------------+
__kernel void myGEMM1b(const int M, const int N, const int K, const __global float* A,
                       const __global float* B, __global float* C) {
  // Thread identifiers
  const int globalRow = get_global_id(1);  // Row ID of C (0..M)
  const int globalCol = get_global_id(0);  // Col ID of C (0..N)

  // Fixed: no bounds check in the seed (see myAdd).
  if (globalRow >= M || globalCol >= N) return;

  // Compute a single element (loop over K)
  float acc = 0.0f;
  for (int k = 0; k < K; k++) {
    acc += A[k * M + globalRow] * B[globalCol * K + k];
  }

  // Store the result
  C[globalCol * M + globalRow] = acc;
}

// Tiled in local memory. Each element of C costs 2K loads for K multiply-adds from global
// memory in myGEMM1; a TS x TS work-group needs a K x TS panel of A and of B, too much to
// stay cached, so the group stages them itself, one TS x TS tile of each at a time, and
// every loaded element is used TS times.
//
//                            N
//             [B]--------+---+----------+
//             |          |   |          |
//            K|          |   |          |
//      K      +----------+---+----------+
//  [A]-----+  [C]-----------------------+
//  |       |  |                         |
// M|       |  |           TS            |
//  +-------+  |          +---+          |
//  |       |  |        TS|   |          |
//  +-------+  |          +---+          |
//  |       |  |                         |
//  +-------+  +-------------------------+
__kernel void myGEMM2(const int M, const int N, const int K, const __global float* A,
                      const __global float* B, __global float* C) {
  // Thread identifiers
  const int row = get_local_id(0);                   // Local row ID (max: TS)
  const int col = get_local_id(1);                   // Local col ID (max: TS)
  const int globalRow = TS * get_group_id(0) + row;  // Row ID of C (0..M)
  const int globalCol = TS * get_group_id(1) + col;  // Col ID of C (0..N)

  // Local memory to fit a tile of TS*TS elements of A and B
  __local float Asub[TS][TS];
  __local float Bsub[TS][TS];

  // Initialise the accumulation register
  float acc = 0.0f;

  // Loop over all tiles.
  // Fixed: the seed had numTiles = K/TS, which silently dropped the last K % TS terms of
  // every dot product when K is not a multiple of TS.
  const int numTiles = (K + TS - 1) / TS;
  for (int t = 0; t < numTiles; t++) {
    // Load one tile of A and B into local memory.
    // Fixed: the seed loaded unguarded, reading past A and B when M, N or K is not a
    // multiple of TS. Out-of-range elements are loaded as 0, which adds nothing to acc,
    // and every work-item still loads and reaches both barriers (no early return: a
    // barrier must be reached by the whole work-group).
    const int tiledRow = TS * t + row;
    const int tiledCol = TS * t + col;
    Asub[col][row] = (globalRow < M && tiledCol < K) ? A[tiledCol * M + globalRow] : 0.0f;
    Bsub[col][row] = (tiledRow < K && globalCol < N) ? B[globalCol * K + tiledRow] : 0.0f;

    // Synchronise to make sure the tile is loaded
    barrier(CLK_LOCAL_MEM_FENCE);

    // Perform the computation for a single tile
    for (int k = 0; k < TS; k++) {
      acc += Asub[k][row] * Bsub[col][k];
    }

    // Synchronise before loading the next tile
    barrier(CLK_LOCAL_MEM_FENCE);
  }

  // Store the final result in C.
  // Fixed: guarded; the work-items of a partial edge tile have no element of C.
  if (globalRow < M && globalCol < N) C[globalCol * M + globalRow] = acc;
}

// ---------------------------------------------------------------------------------------
// The tiled CUDA MatrixMulKernel (cuda-tiled-matmul-notes.txt, "impl v1"), row-major:
// P = M * N with element (r, c) of a matrix with C columns at X[r*C + c]. CUDA's names
// map to OpenCL as blockIdx -> get_group_id, threadIdx -> get_local_id, __shared__ ->
// __local, __syncthreads() -> barrier(CLK_LOCAL_MEM_FENCE). x (dimension 0) walks P's
// columns, so neighbouring work-items read neighbouring elements of N and write
// neighbouring elements of P.
//
// Fixed: the original multiplies two square Width x Width matrices only. Here M is
// Mrows x Width, N is Width x Ncols and P is Mrows x Ncols; the row strides of N and P
// are Ncols (the original's Width was right only because every matrix was square).
// ---------------------------------------------------------------------------------------
__kernel void MatrixMulKernel(const __global float* M, const __global float* N, __global float* P,
                              const int Mrows, const int Width, const int Ncols) {
  __local float Mds[TILE_WIDTH][TILE_WIDTH];
  __local float Nds[TILE_WIDTH][TILE_WIDTH];
  const int bx = get_group_id(0);
  const int by = get_group_id(1);
  const int tx = get_local_id(0);
  const int ty = get_local_id(1);
  // Identify the row and column of the P element to work on
  const int Row = by * TILE_WIDTH + ty;
  const int Col = bx * TILE_WIDTH + tx;
  float Pvalue = 0.0f;
  // Loop over the M and N tiles required to compute the P element.
  // Fixed: Width/TILE_WIDTH phases dropped the last Width % TILE_WIDTH terms; round up.
  const int phases = (Width + TILE_WIDTH - 1) / TILE_WIDTH;
  for (int ph = 0; ph < phases; ++ph) {
    // Collaborative loading of M and N tiles into shared (local) memory.
    // Fixed: guarded with zero fill, since Mrows, Width and Ncols need not be multiples
    // of TILE_WIDTH (the original read out of bounds there).
    const int mcol = ph * TILE_WIDTH + tx;
    const int nrow = ph * TILE_WIDTH + ty;
    Mds[ty][tx] = (Row < Mrows && mcol < Width) ? M[Row * Width + mcol] : 0.0f;
    Nds[ty][tx] = (nrow < Width && Col < Ncols) ? N[nrow * Ncols + Col] : 0.0f;
    barrier(CLK_LOCAL_MEM_FENCE);
    for (int k = 0; k < TILE_WIDTH; ++k) {
      Pvalue += Mds[ty][k] * Nds[k][tx];
    }
    barrier(CLK_LOCAL_MEM_FENCE);
  }
  // Fixed: guarded store (partial edge blocks).
  if (Row < Mrows && Col < Ncols) P[Row * Ncols + Col] = Pvalue;
}
