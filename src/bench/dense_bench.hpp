// Dense closure benchmark (the GPU target): the blocked recursive closure against
// repeated squaring and against one full n x n Boolean product, on a random DAG in
// topological order, all on one device in one run.
#pragma once

#include <string>
#include <vector>

#include "closure/kernels/boolean_params.hpp"
#include "closure/ocl/runtime.hpp"

namespace closure {

struct DenseBenchRow {
  std::string what;
  double seconds = 0;           // median
  int products = 0;             // matrix products inside (closures)
  double ratio_to_product = 0;  // seconds / one full cubic product
};

struct DenseBenchResult {
  size_t n = 0;
  double edges_per_vertex = 0;
  double closure_density = 0;  // closure pairs / n^2
  bool identical = false;      // recursive == squaring, bit for bit
  std::vector<DenseBenchRow> rows;
};

// `runtime` null: the host engine. Times are compute only (matrix already on the engine),
// median of `repeat` runs after one warm-up.
// `base_bits`: diagonal blocks of at most this size are closed by squaring.
DenseBenchResult bench_dense_closure(ocl::Runtime* runtime, const BooleanParams& params, size_t n,
                                     double edges_per_vertex, int repeat, size_t base_bits,
                                     uint64_t seed = 1);

}  // namespace closure
