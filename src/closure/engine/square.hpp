// Dense closure of one adjacency matrix on the host or an OpenCL device: the seed method
// (repeated squaring) and the blocked recursive closure, with per-phase timings.
#pragma once

#include <string>

#include "closure/bitmatrix.hpp"
#include "closure/kernels/boolean_params.hpp"
#include "closure/ocl/runtime.hpp"

namespace closure {

struct DenseStats {
  int rounds = 0;  // matrix products computed (squarings, or recursive products + rounds)
  double upload_s = 0, compute_s = 0, download_s = 0;
  std::string engine;  // "host", or the device and the product path it used
};

enum class DenseAlgorithm { kSquare, kRecursive };

// Recursion stops at diagonal blocks of this many bits and squares them. 4096 measured
// best on the H200 (smaller blocks give products too small to fill the GPU), see
// docs/benchmarks.md, "Dense closures".
inline constexpr size_t kRecursiveBaseBits = 4096;

// Strict closure R+ of the n x n adjacency matrix. `upper_triangular` promises a strictly
// upper-triangular matrix (a DAG in topological order): squaring then uses clutri_mul;
// kRecursive requires it. `runtime` null means the host engine.
// `recursive_base_bits`: diagonal blocks of at most this size are squared (kRecursive).
BitMatrix dense_closure(const BitMatrix& adjacency, DenseAlgorithm algorithm, bool upper_triangular,
                        ocl::Runtime* runtime, const BooleanParams& params,
                        DenseStats* stats = nullptr,
                        size_t recursive_base_bits = kRecursiveBaseBits);

}  // namespace closure
