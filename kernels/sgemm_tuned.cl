// myGEMM_tuned: SGEMM with 2D register blocking and vector loads (after myGEMM6/7 and
// CLBlast's xgemm), plus the zero-padding copies its host side uses for awkward sizes.
//
// Column-major like myGEMM: C (M x N) = A (M x K) * B (K x N), element (r, c) of an
// R-row matrix at X[c*R + r].
//
// Edges: the kernel has no bounds checks at all. It requires M % TSM == 0, N % TSN == 0
// and K % TSK == 0, and the host zero-pads the operands that are not (sgemm_pad below,
// src/kernels/sgemm_tuned.cpp), because guarded loads cost every tile of a large product
// a compare per element and rule out the aligned vector loads, while padding costs
// O(n^2) copies against O(n^3) work (measured in docs/kernels.md). Zero rows and columns
// of K add nothing; the padded rows and columns of C are dropped by sgemm_unpad.
//
// Work-group (RTSM, RTSN) = (TSM/WPTM, TSN/WPTN) computes a TSM x TSN tile of C; each
// work-item WPTM x WPTN elements of it, kept in registers (acc). Per TSK-deep slice of K
// the group stages a TSK x TSM tile of A and a TSK x TSN tile of B in local memory; each
// value staged there is then read by RTSN (A) or RTSM (B) work-items, and each value read
// into a register is used WPTN (A) or WPTM (B) times.
//
// Which elements a work-item owns (tidm = get_local_id(0), tidn = get_local_id(1)):
//   rows: VWM consecutive rows per vector, vectors RTSM*VWM rows apart:
//         row(wm) = (wm / VWM) * RTSM*VWM + tidm*VWM + wm % VWM
//         so that one vector read of local A serves VWM rows, a warp's reads of one row
//         of Alm are contiguous (no bank conflicts), and C's stores are whole vectors,
//         contiguous across tidm (coalesced).
//   cols: col(wn) = tidn + wn*RTSN: the work-items of a warp share few columns, so their
//         reads of local B are broadcasts.

#pragma OPENCL FP_CONTRACT ON  // acc += a * b may be one fused multiply-add

// --- Tunables (the host passes every one of them; the defaults are the H200-leaning set).
#ifndef TSM
#define TSM 128  // rows of C (and of the A tile) per work-group
#endif
#ifndef TSN
#define TSN 128  // columns of C (and of the B tile) per work-group
#endif
#ifndef TSK
#define TSK 16  // depth of the A and B tiles staged in local memory per step of K
#endif
#ifndef WPTM
#define WPTM 8  // rows of C per work-item (register blocking along M)
#endif
#ifndef WPTN
#define WPTN 8  // columns of C per work-item (register blocking along N)
#endif
#ifndef VWM
#define VWM 4  // vector width along M: A's global and local loads, C's stores (1, 2, 4, 8)
#endif
#ifndef VWK
#define VWK 4  // vector width along K: B's global and local loads (1, 2, 4, 8)
#endif
#ifndef PADB
// Floats of padding per column of local B (a multiple of VWK). B is stored k-contiguous;
// the columns a warp reads at once are RTSN-strided multiples of TSK+PADB floats apart,
// and land in the same banks when that stride is a multiple of 32 (TSK = 32), or of 16
// with four or more columns per warp (RTSM <= 8). With TSK = 16 and RTSM = 16 (the
// default) both reads and writes are conflict-free unpadded.
#define PADB 0
#endif
#ifndef PRF
#define PRF 0  // 1: prefetch the next tiles into registers while multiplying (see below)
#endif
// Local A needs no padding: its rows are written and read contiguously.

#define RTSM (TSM / WPTM)              // work-items along dimension 0 of a work-group
#define RTSN (TSN / WPTN)              // work-items along dimension 1
#define WG (RTSM * RTSN)               // work-items per work-group
#define TSMV (TSM / VWM)               // vectors per row of the A tile
#define TSKV (TSK / VWK)               // vectors per column of the B tile
#define LDBV ((TSK + PADB) / VWK)      // vectors per column of local B, padding included
#define A_VECS (TSK * TSMV)            // vectors of A staged per tile
#define B_VECS (TSN * TSKV)            // vectors of B staged per tile
#define LPTA ((A_VECS + WG - 1) / WG)  // vector loads of A per work-item and tile
#define LPTB ((B_VECS + WG - 1) / WG)  // vector loads of B per work-item and tile

#if TSM % WPTM || TSN % WPTN || WPTM % VWM || TSK % VWK || PADB % VWK
#error "sgemm_tuned.cl: TSM%WPTM, TSN%WPTN, WPTM%VWM, TSK%VWK and PADB%VWK must be 0"
#endif

// Vector types and their unpacking into registers. The components are named one by one
// rather than indexed, so that the compiler keeps them in registers (no private arrays
// to address).
#if VWM == 1
typedef float floatM;
#define UNPACK_M(v, a, o) a[(o)] = (v);
#define PACK_M(acc, o, wn) (acc[(o)][wn])
#elif VWM == 2
typedef float2 floatM;
#define UNPACK_M(v, a, o) \
  a[(o)] = (v).s0;        \
  a[(o) + 1] = (v).s1;
#define PACK_M(acc, o, wn) ((float2)(acc[(o)][wn], acc[(o) + 1][wn]))
#elif VWM == 4
typedef float4 floatM;
#define UNPACK_M(v, a, o) \
  a[(o)] = (v).s0;        \
  a[(o) + 1] = (v).s1;    \
  a[(o) + 2] = (v).s2;    \
  a[(o) + 3] = (v).s3;
#define PACK_M(acc, o, wn) \
  ((float4)(acc[(o)][wn], acc[(o) + 1][wn], acc[(o) + 2][wn], acc[(o) + 3][wn]))
#elif VWM == 8
typedef float8 floatM;
#define UNPACK_M(v, a, o) \
  a[(o)] = (v).s0;        \
  a[(o) + 1] = (v).s1;    \
  a[(o) + 2] = (v).s2;    \
  a[(o) + 3] = (v).s3;    \
  a[(o) + 4] = (v).s4;    \
  a[(o) + 5] = (v).s5;    \
  a[(o) + 6] = (v).s6;    \
  a[(o) + 7] = (v).s7;
#define PACK_M(acc, o, wn)                                                                        \
  ((float8)(acc[(o)][wn], acc[(o) + 1][wn], acc[(o) + 2][wn], acc[(o) + 3][wn], acc[(o) + 4][wn], \
            acc[(o) + 5][wn], acc[(o) + 6][wn], acc[(o) + 7][wn]))
#else
#error "sgemm_tuned.cl: VWM must be 1, 2, 4 or 8"
#endif

#if VWK == 1
typedef float floatK;
#define UNPACK_K(v, a) a[0] = (v);
#elif VWK == 2
typedef float2 floatK;
#define UNPACK_K(v, a) \
  a[0] = (v).s0;       \
  a[1] = (v).s1;
#elif VWK == 4
typedef float4 floatK;
#define UNPACK_K(v, a) \
  a[0] = (v).s0;       \
  a[1] = (v).s1;       \
  a[2] = (v).s2;       \
  a[3] = (v).s3;
#elif VWK == 8
typedef float8 floatK;
#define UNPACK_K(v, a) \
  a[0] = (v).s0;       \
  a[1] = (v).s1;       \
  a[2] = (v).s2;       \
  a[3] = (v).s3;       \
  a[4] = (v).s4;       \
  a[5] = (v).s5;       \
  a[6] = (v).s6;       \
  a[7] = (v).s7;
#else
#error "sgemm_tuned.cl: VWK must be 1, 2, 4 or 8"
#endif

// Global loads of tile `tile` into apre / bpre: vector la of A's tile is row id / TSMV,
// vector id % TSMV of it; vector lb of B's tile is column id / TSKV, vector id % TSKV. The
// `A_VECS % WG == 0 ||` folds away when the work-items divide the tile (no guard).
#define FETCH_TILES(tile)                                                      \
  _Pragma("unroll") for (int la = 0; la < LPTA; la++) {                        \
    const int id = la * WG + tid;                                              \
    if (A_VECS % WG == 0 || id < A_VECS)                                       \
      apre[la] = A[((tile)*TSK + id / TSMV) * MV + offsetM / VWM + id % TSMV]; \
  }                                                                            \
  _Pragma("unroll") for (int lb = 0; lb < LPTB; lb++) {                        \
    const int id = lb * WG + tid;                                              \
    if (B_VECS % WG == 0 || id < B_VECS)                                       \
      bpre[lb] = B[(offsetN + id / TSKV) * KV + (tile)*TSKV + id % TSKV];      \
  }

// Consecutive work-items stage consecutive vectors of a column of A (of TSM floats) and
// of B (of TSK floats), so every memory transaction is used in full; the registers apre
// and bpre (filled by FETCH_TILES) go to the local tiles.
inline void stage_tiles(__local floatM Alm[TSK][TSMV], __local floatK Blm[TSN][LDBV],
                        const floatM apre[LPTA], const floatK bpre[LPTB], const int tid) {
  _Pragma("unroll") for (int la = 0; la < LPTA; la++) {
    const int id = la * WG + tid;
    if (A_VECS % WG == 0 || id < A_VECS) Alm[id / TSMV][id % TSMV] = apre[la];
  }
  _Pragma("unroll") for (int lb = 0; lb < LPTB; lb++) {
    const int id = lb * WG + tid;
    if (B_VECS % WG == 0 || id < B_VECS) Blm[id / TSKV][id % TSKV] = bpre[lb];
  }
}

// Multiply the tiles: per vector of K, WPTN vector reads of B; per k, WPTM/VWM vector
// reads of A; then WPTM*WPTN multiply-adds from registers.
inline void multiply_tiles(float acc[WPTM][WPTN], __local floatM Alm[TSK][TSMV],
                           __local floatK Blm[TSN][LDBV], const int tidm, const int tidn) {
#pragma unroll
  for (int kv = 0; kv < TSKV; kv++) {
    float breg[WPTN][VWK];
#pragma unroll
    for (int wn = 0; wn < WPTN; wn++) {
      const floatK v = Blm[tidn + wn * RTSN][kv];
      UNPACK_K(v, breg[wn])
    }
#pragma unroll
    for (int s = 0; s < VWK; s++) {
      float areg[WPTM];
#pragma unroll
      for (int wv = 0; wv < WPTM / VWM; wv++) {
        const floatM v = Alm[kv * VWK + s][wv * RTSM + tidm];
        UNPACK_M(v, areg, wv * VWM)
      }
#pragma unroll
      for (int wm = 0; wm < WPTM; wm++)
#pragma unroll
        for (int wn = 0; wn < WPTN; wn++) acc[wm][wn] += areg[wm] * breg[wn][s];
    }
  }
}

// Store: vector (wv, wn) holds rows row(wv*VWM .. wv*VWM+VWM-1) of column col(wn).
inline void store_c(__global floatM* C, float acc[WPTM][WPTN], const int MV, const int offsetM,
                    const int offsetN, const int tidm, const int tidn) {
#pragma unroll
  for (int wn = 0; wn < WPTN; wn++) {
    const int col = offsetN + tidn + wn * RTSN;
#pragma unroll
    for (int wv = 0; wv < WPTM / VWM; wv++)
      C[col * MV + offsetM / VWM + wv * RTSM + tidm] = PACK_M(acc, wv * VWM, wn);
  }
}

// M, N, K are the padded sizes (multiples of TSM, TSN, TSK). A, B and C must start on a
// VWM*4 / VWK*4 byte boundary: buffers and sub-buffers always do (OpenCL aligns both to
// CL_DEVICE_MEM_BASE_ADDR_ALIGN, at least 128 bytes).
__kernel __attribute__((reqd_work_group_size(RTSM, RTSN, 1))) void myGEMM_tuned(
    const int M, const int N, const int K, const __global floatM* A, const __global floatK* B,
    __global floatM* C) {
  const int tidm = get_local_id(0);
  const int tidn = get_local_id(1);
  const int tid = tidn * RTSM + tidm;  // linear id: consecutive ids load consecutive vectors
  const int offsetM = TSM * get_group_id(0);
  const int offsetN = TSN * get_group_id(1);
  const int MV = M / VWM;  // A's and C's column length in vectors
  const int KV = K / VWK;  // B's column length in vectors

  __local floatM Alm[TSK][TSMV];  // A tile: row k holds A[k][offsetM .. offsetM+TSM)
  __local floatK Blm[TSN][LDBV];  // B tile, k-contiguous per column as in global B

  float acc[WPTM][WPTN];
#pragma unroll
  for (int wm = 0; wm < WPTM; wm++)
#pragma unroll
    for (int wn = 0; wn < WPTN; wn++) acc[wm][wn] = 0.0f;

  // The vectors this work-item stages per tile pass through registers: with PRF, those
  // of tile t+1 are fetched from global memory before tile t is multiplied, so the
  // multiply hides their latency (at the cost of LPTA + LPTB vector registers).
  floatM apre[LPTA];
  floatK bpre[LPTB];
  const int numTiles = K / TSK;
#if PRF
  FETCH_TILES(0)
#endif
  for (int t = 0; t < numTiles; t++) {
#if !PRF
    FETCH_TILES(t)
#endif
    stage_tiles(Alm, Blm, apre, bpre, tid);
    barrier(CLK_LOCAL_MEM_FENCE);
#if PRF
    if (t + 1 < numTiles) {
      FETCH_TILES(t + 1)
    }
#endif
    multiply_tiles(acc, Alm, Blm, tidm, tidn);
    // Nobody overwrites the tiles while another work-item still reads them.
    barrier(CLK_LOCAL_MEM_FENCE);
  }
  store_c(C, acc, MV, offsetM, offsetN, tidm, tidn);
}

// Column-major copy of the rows x cols matrix src into the top-left corner of the
// prows x pcols matrix dst, zero elsewhere (prows >= rows, pcols >= cols). The range may
// be rounded up past prows x pcols.
__kernel void sgemm_pad(const int rows, const int cols, const __global float* src, const int prows,
                        const int pcols, __global float* dst) {
  const int r = get_global_id(0), c = get_global_id(1);
  if (r < prows && c < pcols)
    dst[c * prows + r] = (r < rows && c < cols) ? src[c * rows + r] : 0.0f;
}

// The inverse: the top-left rows x cols corner of the prows-row matrix src into dst.
__kernel void sgemm_unpad(const int rows, const int cols, const __global float* src,
                          const int prows, __global float* dst) {
  const int r = get_global_id(0), c = get_global_id(1);
  if (r < rows && c < cols) dst[c * rows + r] = src[c * prows + r];
}
