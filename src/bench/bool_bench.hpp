// `closure bench bool`: Boolean MAC/s of the packed products (cubic, triangular, tensor
// cores) timed with profiling events and checked against the host, the parameter sweep
// that fills the tuning table, and full closures of random DAGs by repeated squaring.
#pragma once

#include <cstddef>
#include <functional>
#include <map>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "closure/kernels/boolean_mma.hpp"
#include "closure/kernels/boolean_params.hpp"
#include "closure/ocl/runtime.hpp"

namespace closure {

// Reference figures of one device (the H200's: docs/benchmarks.md): the ceilings each kernel
// family is measured against and PyTorch's times for the same jobs. Zero = unknown.
struct BoolCeilings {
  double cuda_core_mac_s = 0;                // one LOP3 (32 Boolean MACs) a lane a cycle
  double mma_mac_s = 0;                      // 1-bit mma.sync AND+POPC microbenchmark
  std::map<size_t, double> torch_square_s;   // PyTorch bf16 R | (R@R > 0), by n
  std::map<size_t, double> torch_closure_s;  // PyTorch repeated squaring of a random DAG
};
BoolCeilings bool_ceilings(const ocl::DeviceInfo& device);
// Reads "<square|closure> <n> <seconds>" lines (tools/torch_closure_baseline.py --times)
// into `c`, replacing the recorded figures with ones measured in the same run. Throws
// InputError (FILE or FILE:LINE) for a missing file, one that is not a regular file or is
// over kMaxTorchTimesBytes, and a square/closure line without n and seconds > 0.
inline constexpr size_t kMaxTorchTimesBytes = 4'000'000;  // 4 MB
void read_torch_times(const std::string& path, BoolCeilings& c);

// The largest n a product or closure size may ask for: n x n bits is then 128 GiB, past
// the memory of any device (so such sizes are skipped), and n^3 still fits 64 bits.
inline constexpr size_t kMaxBoolBenchN = size_t{1} << 20;

struct BoolBenchOptions {
  std::vector<size_t> sizes;  // empty: 1024 .. 32768 on a GPU, 256 .. 2048 elsewhere
  int repeat = 5;             // timed runs after one warm-up; the median is reported
  std::vector<std::string> kernels = {"cubic", "utri", "mma", "mma-utri"};
  BooleanParams params;  // portable kernels
  MmaParams mma_params;  // tensor-core kernel
  // kEmulate runs the MMA rows on any device with the MMA computed in OpenCL C: it tests
  // this benchmark's MMA plumbing where there are no tensor cores (times mean nothing).
  BooleanMma::Mode mma_mode = BooleanMma::Mode::kAuto;
  bool check = true;               // compare every result with the host
  size_t full_check_max_n = 2048;  // larger: recompute `sampled_rows` random rows
  int sampled_rows = 48;
  uint64_t seed = 1;
};

struct BoolBenchRow {
  size_t n = 0;
  std::string kernel, params;
  double seconds = 0;        // median of the timed runs
  double mac_s = 0;          // n^3 / seconds: the full square product's rate
  double work_mac_s = 0;     // MACs actually needed / seconds (n^3/6 when triangular)
  double ceiling_mac_s = 0;  // what work_mac_s is compared with
  double torch_s = 0;        // PyTorch's time for one squaring at this n (0: unknown)
  std::string check;         // "exact", "48 rows", "MISMATCH", "-"
  std::string note;
};

using BoolRowSink = std::function<void(const BoolBenchRow&)>;

// Times each kernel of o.kernels at each size that fits the device. Rows reach `sink` as
// they are measured and are returned too.
std::vector<BoolBenchRow> bench_bool_products(ocl::Runtime& rt, const BoolBenchOptions& o,
                                              const BoolCeilings& c, const BoolRowSink& sink);

// Sweeps the valid parameter space at size n (staged: register tile first, then group
// shape and K chunk), checking every candidate's result. Returns the fastest.
BooleanParams sweep_cubic(ocl::Runtime& rt, size_t n, int repeat, const BoolRowSink& sink);
std::optional<MmaParams> sweep_mma(ocl::Runtime& rt, size_t n, int repeat, const BoolRowSink& sink);

// Full closure of a random DAG (n vertices, degree * n edges, topological order) by
// repeated squaring on the device: square_closure (the portable triangular kernel) and
// the same loop on tensor cores; compute_s excludes upload and download.
struct ClosureBenchRow {
  size_t n = 0, edges = 0;
  std::string method;
  int rounds = 0;
  double compute_s = 0;
  double torch_s = 0;  // PyTorch repeated squaring of the same kind of graph (0: unknown)
  uint64_t closure_pairs = 0;
  std::string check;  // "same as square_closure", "MISMATCH", "reference"
};
std::vector<ClosureBenchRow> bench_bool_closures(
    ocl::Runtime& rt, const std::vector<size_t>& sizes, double degree, const BooleanParams& params,
    const MmaParams& mma_params, BooleanMma::Mode mma_mode, const BoolCeilings& c,
    const std::function<void(const ClosureBenchRow&)>& sink);

}  // namespace closure
