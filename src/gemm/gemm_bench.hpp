// The OpenCL book's Table 21.1 redone: MFLOPS of every float kernel and host loop at one
// order, beside the book's own figures, with each result checked against the reference;
// and a sweep of myGEMM_tuned's parameter grid.
#pragma once

#include <functional>
#include <optional>
#include <string>
#include <vector>

#include "closure/ocl/runtime.hpp"
#include "gemm/float_params.hpp"
#include "gemm/host_gemm.hpp"
#include "gemm/sgemm_tuned_params.hpp"

namespace closure {

struct GemmBenchOptions {
  size_t n = 1000;  // square order (the book's 1000)
  int repeat = 5;   // timed runs per variant; the median is reported
  FloatGemmParams gemm;
  BookMmulParams book;
  std::optional<SgemmTunedParams> tuned;  // myGEMM_tuned; none: sgemm_tuned_params_for(device)
  bool host_loops = true;
  // Codes to run (names as in gemm_bench_codes()); empty: all of them.
  std::vector<std::string> only;
  // Also time every set of sgemm_tuned_sweep_grid() that validates on the device.
  bool sweep = false;
};

// Every code of the table, in its order: host loops and device kernels.
std::vector<std::string> gemm_bench_codes();
// Throws std::invalid_argument for an unknown code in `only`, a repeat below 1, or a
// sweep without a device; run_gemm_bench calls it first.
void check_gemm_bench_options(const GemmBenchOptions& options, bool has_device);
// Whether results at order n are checked against a sample of C (GemmSampleReference)
// rather than all of it: the full double reference is O(n^3) on one host thread.
bool gemm_bench_samples_reference(size_t n);
inline constexpr size_t kGemmBenchRandomSamples = 4096;

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
  double pad_seconds = 0;  // myGEMM_tuned: the zero-padding copies' share of `seconds`
  std::string error;       // set when this variant could not run; the rest still do
};

// One parameter set of the sweep, timed as the myGEMM_tuned row is.
struct GemmSweepRow {
  SgemmTunedParams params;
  double seconds = 0, mflops = 0, pad_seconds = 0, max_rel_error = 0;
  bool plausible = false;  // max_rel_error within rounding (gemm_error_is_plausible)
  std::string error;       // refused by the device or the driver, or the launch failed
};

// A float product of depth k is off by at most about k * 2^-24 of sum |a b| in any
// summation order; twice that allows for fused multiply-adds. A wrong kernel is off by
// order 1.
inline bool gemm_error_is_plausible(double max_rel_error, size_t k) {
  return max_rel_error <= 2.0 * double(k) * 0x1p-24;
}

// Runs the benchmark on `runtime`'s device, or host loops only when runtime is null.
// Device kernels: one warm-up run, then `repeat` runs timed by the queue's profiling
// events (kernel execution only, no transfers; for myGEMM_tuned, its padding copies
// included). Host loops: `repeat` runs timed with steady_clock, no warm-up (nothing is
// compiled or lazily allocated on the host). `on_row` sees each row as soon as it is
// measured. Rows come in the book's order: seq, mmul_*, ijk/ikj/kij, then the myGEMM
// kernels, MatrixMulKernel and myGEMM_tuned. With options.sweep, `on_sweep_row` then sees
// each set of the grid (sets the device refuses come with `error` set).
std::vector<GemmBenchRow> run_gemm_bench(
    ocl::Runtime* runtime, const GemmBenchOptions& options,
    const std::function<void(const GemmBenchRow&)>& on_row = {},
    const std::function<void(const GemmSweepRow&)>& on_sweep_row = {});

}  // namespace closure
