// The OpenCL book's Table 21.1 redone: MFLOPS of every float kernel and host loop at one
// order, beside the book's own figures, with each result checked against the reference.
#pragma once

#include <functional>
#include <string>
#include <vector>

#include "kernels/float_params.hpp"
#include "kernels/host_gemm.hpp"
#include "ocl/runtime.hpp"

namespace closure {

struct GemmBenchOptions {
  size_t n = 1000;  // square order (the book's 1000)
  int repeat = 5;   // timed runs per variant; the median is reported
  FloatGemmParams gemm;
  BookMmulParams book;
  bool host_loops = true;
};

struct GemmBenchRow {
  std::string name;       // kernel or loop: "myGEMM2", "mmul_row", "ikj"
  std::string where;      // "device" or "host"
  std::string precision;  // "float" or "double"
  StorageOrder order = StorageOrder::kRowMajor;
  double seconds = 0;        // median over the timed runs
  double mflops = 0;         // 2 n^3 / seconds / 1e6
  double max_rel_error = 0;  // max |got - exact| / sum_k |a_ik b_kj| (host_gemm.hpp)
  // The book's figure for the same code (0: none) and its row of Table 21.1 or text.
  double book_gpu_mflops = 0, book_cpu_mflops = 0;
  std::string book_label;
  std::string error;  // set when this variant could not run; the rest still do
};

// Runs the benchmark on `runtime`'s device, or host loops only when runtime is null.
// Device kernels: one warm-up run, then `repeat` runs timed by the queue's profiling
// events (kernel execution only, no transfers). Host loops: `repeat` runs timed with
// steady_clock, no warm-up (nothing is compiled or lazily allocated on the host).
// `on_row` sees each row as soon as it is measured. Rows come in the book's order:
// seq, mmul_*, ijk/ikj/kij, then the myGEMM kernels and MatrixMulKernel.
std::vector<GemmBenchRow> run_gemm_bench(
    ocl::Runtime* runtime, const GemmBenchOptions& options,
    const std::function<void(const GemmBenchRow&)>& on_row = {});

}  // namespace closure
