// Table 21.1 of the OpenCL book, measured: device kernels timed by profiling events, host
// loops by steady_clock, every result compared with the double reference; then the
// myGEMM_tuned sweep.
#include "gemm/gemm_bench.hpp"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <limits>
#include <optional>
#include <stdexcept>

#include "closure/errors.hpp"
#include "closure/ocl/error.hpp"
#include "gemm/float_gemm.hpp"

namespace closure {
namespace {

// What the book reports for each of its codes (order 1000; Core Duo T8300 CPU and
// GeForce 8600M GT GPU). Table 21.1 for the float codes; the text after Listing 21.7 for
// the loop orders, measured in double with gcc -O3 (it prints ijk as "kjk").
struct BookFigure {
  const char* name;
  double gpu, cpu;
  const char* label;
};
constexpr BookFigure kBook[] = {
    {"seq", 0, 167, "Sequential C (not OpenCL)"},
    {"mmul_element", 511, 744, "C(i,j) per work-item, all global"},
    {"mmul_row", 258, 0, "C row per work-item, all global"},
    {"mmul_row_private", 873, 0, "C row per work-item, A row private"},
    {"mmul_row_private_local", 2472, 0, "C row per work-item, A private, B local"},
    {"ijk", 0, 272, "ijk, double, -O3 (text)"},
    {"ikj", 0, 1130, "ikj, double, -O3 (text)"},
    {"kij", 0, 481, "kij, double, -O3 (text)"},
    {"myGEMM1", 0, 0, "not in the book (myGEMM.cl)"},
    {"myGEMM1b", 0, 0, "not in the book (myGEMM.cl)"},
    {"myGEMM2", 0, 0, "not in the book (myGEMM.cl)"},
    {"MatrixMulKernel", 0, 0, "not in the book (tiled CUDA kernel)"},
    {"myGEMM_tuned", 0, 0, "not in the book (2D register blocking, sgemm_tuned.cl)"},
};

void add_book_figures(GemmBenchRow& row) {
  for (const auto& b : kBook)
    if (row.name == b.name) {
      row.book_gpu_mflops = b.gpu;
      row.book_cpu_mflops = b.cpu;
      row.book_label = b.label;
    }
}

double median(std::vector<double> x) {
  std::sort(x.begin(), x.end());
  const size_t h = x.size() / 2;
  return x.size() % 2 ? x[h] : 0.5 * (x[h - 1] + x[h]);
}

// Fills seconds and mflops from the timed runs.
void set_speed(GemmBenchRow& row, const std::vector<double>& seconds, const GemmShape& s) {
  row.seconds = median(seconds);
  row.mflops = row.seconds > 0 ? s.flops() / row.seconds * 1e-6 : 0;
}

// The exact answer to compare with: all of C at small orders, a sample at large ones.
struct Checker {
  std::optional<GemmReference> full;
  std::optional<GemmSampleReference> sample;
  template <class T>
  double error(const std::vector<T>& got, StorageOrder order) const {
    return full ? max_relative_error(got, order, *full) : max_relative_error(got, order, *sample);
  }
};

// The operands, row-major as generated and column-major on first use (at n = 8192 each
// reordering takes the host a second or more, so it is done once).
struct Operands {
  GemmShape s;
  std::vector<float> a_row, b_row;
  std::vector<float> a_col, b_col;
  const std::vector<float>& a(StorageOrder order) {
    if (order == StorageOrder::kRowMajor) return a_row;
    if (a_col.empty()) a_col = reorder(a_row, s.m, s.k, StorageOrder::kRowMajor, order);
    return a_col;
  }
  const std::vector<float>& b(StorageOrder order) {
    if (order == StorageOrder::kRowMajor) return b_row;
    if (b_col.empty()) b_col = reorder(b_row, s.k, s.n, StorageOrder::kRowMajor, order);
    return b_col;
  }
};

GemmBenchRow device_row(FloatKernels& k, GemmVariant v, const GemmShape& s, int repeat,
                        Operands& ops, const Checker& check) {
  GemmBenchRow row;
  row.name = variant_name(v);
  row.where = "device";
  row.precision = "float";
  row.order = variant_order(v);
  add_book_figures(row);
  try {
    const cl::Buffer a = k.upload(ops.a(row.order));
    const cl::Buffer b = k.upload(ops.b(row.order));
    const cl::Buffer c = k.upload(std::vector<float>(s.c_count()));
    std::vector<double> seconds, pad_seconds;
    for (int r = -1; r < repeat; ++r) {  // r = -1: the warm-up, not timed
      if (v == GemmVariant::kMyGemmTuned) {
        // Timed with its padding copies, which are part of the product at awkward sizes.
        const SgemmTunedRun run = k.tuned().multiply(s, a, b, c);
        ocl::checked("waiting for the kernel", [&] { return run.last().wait(); });
        if (r >= 0) {
          seconds.push_back(run.seconds());
          pad_seconds.push_back(run.pad_seconds());
        }
      } else {
        cl::Event e = k.multiply(v, s, a, b, c);
        ocl::checked("waiting for the kernel", [&] { return e.wait(); });
        if (r >= 0) seconds.push_back(ocl::event_seconds(e));
      }
    }
    set_speed(row, seconds, s);
    if (!pad_seconds.empty()) row.pad_seconds = median(pad_seconds);
    row.max_rel_error = check.error(k.download(c, s.c_count()), row.order);
  } catch (const std::exception& e) {
    row.error = e.what();
  }
  return row;
}

GemmSweepRow sweep_row(ocl::Runtime& runtime, const SgemmTunedParams& params, const GemmShape& s,
                       int repeat, const cl::Buffer& a, const cl::Buffer& b, const cl::Buffer& c,
                       const Checker& check) {
  GemmSweepRow row;
  row.params = params;
  try {
    SgemmTuned tuned(runtime, params);  // validates and compiles: refusals land in `error`
    // C starts as NaN, so a set that stores nothing cannot pass on the last set's result.
    ocl::checked("clearing C", [&] {
      return runtime.queue().enqueueFillBuffer(c, std::numeric_limits<float>::quiet_NaN(), 0,
                                               s.c_count() * sizeof(float));
    });
    std::vector<double> seconds, pad_seconds;
    for (int r = -1; r < repeat; ++r) {
      const SgemmTunedRun run = tuned.multiply(s, a, b, c);
      ocl::checked("waiting for the kernel", [&] { return run.last().wait(); });
      if (r >= 0) {
        seconds.push_back(run.seconds());
        pad_seconds.push_back(run.pad_seconds());
      }
    }
    row.seconds = median(seconds);
    row.pad_seconds = median(pad_seconds);
    row.mflops = row.seconds > 0 ? s.flops() / row.seconds * 1e-6 : 0;
    std::vector<float> got(s.c_count());
    ocl::checked("downloading C", [&] {
      return runtime.queue().enqueueReadBuffer(c, CL_TRUE, 0, got.size() * sizeof(float),
                                               got.data());
    });
    row.max_rel_error = check.error(got, StorageOrder::kColumnMajor);
    row.plausible = gemm_error_is_plausible(row.max_rel_error, s.k);
  } catch (const std::exception& e) {
    row.error = e.what();
  }
  return row;
}

GemmBenchRow host_row(HostGemm& host, HostLoop loop, int repeat, const Checker& check) {
  GemmBenchRow row;
  row.name = host_loop_name(loop);
  row.where = "host";
  row.precision = host_loop_is_double(loop) ? "double" : "float";
  row.order = StorageOrder::kRowMajor;
  add_book_figures(row);
  std::vector<double> seconds;
  for (int r = 0; r < repeat; ++r) {
    const auto start = std::chrono::steady_clock::now();
    host.run(loop);
    seconds.push_back(
        std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count());
  }
  set_speed(row, seconds, host.shape());
  row.max_rel_error = check.error(host.result(loop), row.order);
  return row;
}

}  // namespace

std::vector<std::string> gemm_bench_codes() {
  std::vector<std::string> codes{"seq"};
  for (GemmVariant v : kGemmVariants)
    if (variant_order(v) == StorageOrder::kRowMajor && v != GemmVariant::kMatrixMulKernel)
      codes.push_back(variant_name(v));
  for (HostLoop loop : {HostLoop::kIjk, HostLoop::kIkj, HostLoop::kKij})
    codes.push_back(host_loop_name(loop));
  for (GemmVariant v : {GemmVariant::kMyGemm1, GemmVariant::kMyGemm1b, GemmVariant::kMyGemm2,
                        GemmVariant::kMatrixMulKernel, GemmVariant::kMyGemmTuned})
    codes.push_back(variant_name(v));
  return codes;
}

void check_gemm_bench_options(const GemmBenchOptions& options, bool has_device) {
  if (options.repeat < 1) throw UsageError("--repeat must be at least 1");
  const std::vector<std::string> codes = gemm_bench_codes();
  for (const auto& name : options.only)
    if (std::find(codes.begin(), codes.end(), name) == codes.end()) {
      std::string known;
      for (const auto& c : codes) known += (known.empty() ? "" : ", ") + c;
      throw UsageError("unknown code '" + name + "' (known: " + known + ")");
    }
  if (options.sweep && !has_device)
    throw UsageError("--sweep needs an OpenCL device (it times myGEMM_tuned)");
  // A table of no row is refused, as --no-host on the host path is: --only naming device
  // codes without a device, or host loops with --no-host.
  auto wanted = [&](const std::string& name) {
    return options.only.empty() ||
           std::find(options.only.begin(), options.only.end(), name) != options.only.end();
  };
  bool host_row = false, device_row = options.sweep;
  for (HostLoop loop : kHostLoops) host_row = host_row || wanted(host_loop_name(loop));
  for (const auto& code : codes) {
    const bool host_code = std::any_of(std::begin(kHostLoops), std::end(kHostLoops),
                                       [&](HostLoop l) { return code == host_loop_name(l); });
    device_row = device_row || (!host_code && wanted(code));
  }
  if (!(options.host_loops && host_row) && !(has_device && device_row))
    throw UsageError(std::string("these options leave nothing to measure (") +
                     (has_device ? "--only names only host loops, which --no-host skips"
                                 : "no OpenCL device for the device codes --only names") +
                     ")");
}

bool gemm_bench_samples_reference(size_t n) {
  // Up to about n = 1290 the full reference costs the host a few seconds at most.
  return double(n) * double(n) * double(n) > 2.2e9;
}

std::vector<GemmBenchRow> run_gemm_bench(ocl::Runtime* runtime, const GemmBenchOptions& options,
                                         const std::function<void(const GemmBenchRow&)>& on_row,
                                         const std::function<void(const GemmSweepRow&)>& on_sweep) {
  check_gemm_bench_options(options, runtime != nullptr);
  auto wanted = [&](const std::string& name) {
    return options.only.empty() ||
           std::find(options.only.begin(), options.only.end(), name) != options.only.end();
  };
  const GemmShape s{options.n, options.n, options.n};
  s.validate();
  // Build (and validate) the kernels before the long host work, so bad parameters fail fast.
  std::optional<FloatKernels> kernels;
  if (runtime) kernels.emplace(*runtime, options.gemm, options.book, options.tuned);

  Operands ops{s, random_matrix(s.a_count(), 1), random_matrix(s.b_count(), 2), {}, {}};
  Checker check;
  if (gemm_bench_samples_reference(s.n))
    check.sample = sample_reference_gemm(s, ops.a_row, ops.b_row, StorageOrder::kRowMajor,
                                         kGemmBenchRandomSamples, 3);
  else
    check.full = reference_gemm(s, ops.a_row, ops.b_row, StorageOrder::kRowMajor);
  bool any_host = false;
  for (HostLoop loop : kHostLoops) any_host = any_host || wanted(host_loop_name(loop));
  std::optional<HostGemm> host;
  if (options.host_loops && any_host) host.emplace(s, ops.a_row, ops.b_row);

  std::vector<GemmBenchRow> rows;
  auto add = [&](GemmBenchRow row) {
    rows.push_back(std::move(row));
    if (on_row) on_row(rows.back());
  };
  auto host_rows = [&](std::initializer_list<HostLoop> loops) {
    if (host)
      for (HostLoop loop : loops)
        if (wanted(host_loop_name(loop))) add(host_row(*host, loop, options.repeat, check));
  };
  auto device_rows = [&](std::initializer_list<GemmVariant> variants) {
    if (kernels)
      for (GemmVariant v : variants)
        if (wanted(variant_name(v))) add(device_row(*kernels, v, s, options.repeat, ops, check));
  };
  host_rows({HostLoop::kSeq});
  device_rows({GemmVariant::kMmulElement, GemmVariant::kMmulRow, GemmVariant::kMmulRowPrivate,
               GemmVariant::kMmulRowPrivateLocal});
  host_rows({HostLoop::kIjk, HostLoop::kIkj, HostLoop::kKij});
  device_rows({GemmVariant::kMyGemm1, GemmVariant::kMyGemm1b, GemmVariant::kMyGemm2,
               GemmVariant::kMatrixMulKernel, GemmVariant::kMyGemmTuned});

  if (options.sweep) {
    // One upload for the whole grid; C is cleared per set.
    const cl::Buffer a = kernels->upload(ops.a(StorageOrder::kColumnMajor));
    const cl::Buffer b = kernels->upload(ops.b(StorageOrder::kColumnMajor));
    const cl::Buffer c = kernels->upload(std::vector<float>(s.c_count()));
    for (const SgemmTunedParams& p : sgemm_tuned_sweep_grid()) {
      const GemmSweepRow row = sweep_row(*runtime, p, s, options.repeat, a, b, c, check);
      if (on_sweep) on_sweep(row);
    }
  }
  return rows;
}

}  // namespace closure
