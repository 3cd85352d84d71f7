// The seed method: repeated squaring R <- R | R*R until nothing changes, on the OpenCL
// device (cubic kernel, or the triangular one for a topologically ordered DAG) or on the
// host when there is no device.
#pragma once

#include "bitmatrix.hpp"
#include "kernels/boolean_params.hpp"
#include "ocl/runtime.hpp"

namespace closure {

struct SquareStats {
  int rounds = 0;  // products computed
  double upload_s = 0, compute_s = 0, download_s = 0;
};

// At most ceil(log2 n) squarings: after k of them R holds every path of length <= 2^k,
// and a closure never needs paths longer than n.
int max_squaring_rounds(size_t n);

// Strict closure R+ of the n x n adjacency matrix. `upper_triangular` promises that the
// matrix is strictly upper triangular (a DAG in topological order) and selects clutri_mul.
// `runtime` null means the host path.
BitMatrix square_closure(const BitMatrix& adjacency, bool upper_triangular, ocl::Runtime* runtime,
                         const BooleanParams& params, SquareStats* stats = nullptr);

}  // namespace closure
