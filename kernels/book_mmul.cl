// The OpenCL book's matrix multiplication kernels (Listings 21.2, 21.4, 21.5, 21.6 of its
// matrix multiplication chapter), one per kernel name: mmul_element,
// mmul_row, mmul_row_private, mmul_row_private_local. The book named all of them mmul.
//
// Storage: row-major. The book's dimension names are kept: A is Ndim x Pdim, B is
// Pdim x Mdim, C = A * B is Ndim x Mdim; element (i, j) of a matrix with C columns sits at
// X[i*C + j]. (The host's M x K times K x N is Ndim = M, Pdim = K, Mdim = N.)
//
// Fixed in all four: the book's index algebra A[i*Ndim+k], B[k*Pdim+j], C[i*Ndim+j] uses
// the wrong row strides and is right only for square matrices (Ndim = Pdim = Mdim). The
// row stride of A is its column count Pdim, of B and C it is Mdim.
// Each fix says "Fixed:" beside it.

#ifndef PRIVATE_K
#define PRIVATE_K 1024  // floats of A's row (private) and B's column (local) held at once
#endif

// Listing 21.2: one element of C per work-item, all three matrices in global memory.
// Fixed: the book's `__kernel mmul(` has no return type; kernels must return void.
__kernel void mmul_element(const int Mdim, const int Ndim, const int Pdim, __global const float* A,
                           __global const float* B, __global float* C) {
  int k;
  int i = get_global_id(0);
  int j = get_global_id(1);
  float tmp;
  if ((i < Ndim) && (j < Mdim)) {
    tmp = 0.0f;
    for (k = 0; k < Pdim; k++) tmp += A[i * Pdim + k] * B[k * Mdim + j];
    C[i * Mdim + j] = tmp;
  }
}

// Listing 21.4: one row of C per work-item, a 1-D NDRange over the rows of C.
// Fixed: return type, as in mmul_element.
__kernel void mmul_row(const int Mdim, const int Ndim, const int Pdim, __global const float* A,
                       __global const float* B, __global float* C) {
  int k, j;
  int i = get_global_id(0);
  float tmp;
  if ((i < Ndim)) {
    for (j = 0; j < Mdim; j++) {
      tmp = 0.0f;
      for (k = 0; k < Pdim; k++) tmp += A[i * Pdim + k] * B[k * Mdim + j];
      C[i * Mdim + j] = tmp;
    }
  }
}

// Listing 21.5: as mmul_row, with the work-item's row of A copied once into private
// memory (Awrk) and reused for every element of its row of C.
//
// Fixed: the book's `float Awrk[1000]` overflows for Pdim > 1000. Awrk holds PRIVATE_K
// floats (a build option sized by the host) and the dot products run over K in chunks of
// PRIVATE_K: the first chunk stores its partial sum in C, later chunks add to it. With
// Pdim <= PRIVATE_K there is one chunk and the kernel is the book's.
__kernel void mmul_row_private(const int Mdim, const int Ndim, const int Pdim,
                               __global const float* A, __global const float* B,
                               __global float* C) {
  int k, j;
  int i = get_global_id(0);
  float Awrk[PRIVATE_K];
  float tmp;
  if ((i < Ndim)) {
    for (int k0 = 0; k0 < Pdim; k0 += PRIVATE_K) {
      const int kn = min(PRIVATE_K, Pdim - k0);
      for (k = 0; k < kn; k++) Awrk[k] = A[i * Pdim + k0 + k];

      for (j = 0; j < Mdim; j++) {
        tmp = (k0 == 0) ? 0.0f : C[i * Mdim + j];
        for (k = 0; k < kn; k++) tmp += Awrk[k] * B[(k0 + k) * Mdim + j];
        C[i * Mdim + j] = tmp;
      }
    }
  }
}

// Listing 21.6: as mmul_row_private, and the work-group copies each column of B into
// local memory (Bwrk, cyclically over the group's work-items) before all of them use it.
// The book passes Bwrk as a __local argument sized by the host; here the kernel declares
// it (PRIVATE_K floats), so its size has one source, the PRIVATE_K build option.
//
// Fixed, besides the chunking over K of mmul_row_private (Bwrk too holds one chunk, so
// local memory no longer grows with Pdim):
// - The book's barriers sit inside `if (i < Ndim)`. When the NDRange is rounded up to
//   whole work-groups, the extra work-items skip them, and a barrier not reached by the
//   whole group is undefined behaviour (a hang on some devices). Every work-item now runs
//   the loops and the barriers and helps copy B; only the rows that exist compute.
// - The book had no barrier after the dot product, so a fast work-item could overwrite
//   Bwrk with column j+1 while a slower one was still reading column j. A second barrier
//   ends each iteration.
__kernel void mmul_row_private_local(const int Mdim, const int Ndim, const int Pdim,
                                     __global const float* A, __global const float* B,
                                     __global float* C) {
  __local float Bwrk[PRIVATE_K];
  int k, j;
  int i = get_global_id(0);
  int iloc = get_local_id(0);
  int nloc = get_local_size(0);
  float Awrk[PRIVATE_K];
  float tmp;
  for (int k0 = 0; k0 < Pdim; k0 += PRIVATE_K) {
    const int kn = min(PRIVATE_K, Pdim - k0);
    if ((i < Ndim))
      for (k = 0; k < kn; k++) Awrk[k] = A[i * Pdim + k0 + k];

    for (j = 0; j < Mdim; j++) {
      for (k = iloc; k < kn; k = k + nloc) Bwrk[k] = B[(k0 + k) * Mdim + j];
      barrier(CLK_LOCAL_MEM_FENCE);
      if ((i < Ndim)) {
        tmp = (k0 == 0) ? 0.0f : C[i * Mdim + j];
        for (k = 0; k < kn; k++) tmp += Awrk[k] * Bwrk[k];
        C[i * Mdim + j] = tmp;
      }
      barrier(CLK_LOCAL_MEM_FENCE);
    }
  }
}
