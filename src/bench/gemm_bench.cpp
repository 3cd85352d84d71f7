// Table 21.1 of the OpenCL book, measured: device kernels timed by profiling events, host
// loops by steady_clock, every result compared with the double reference.
#include "bench/gemm_bench.hpp"

#include <algorithm>
#include <chrono>
#include <optional>
#include <stdexcept>

#include "kernels/float_gemm.hpp"
#include "ocl/error.hpp"

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

GemmBenchRow device_row(FloatKernels& k, GemmVariant v, const GemmShape& s, int repeat,
                        const std::vector<float>& a_row, const std::vector<float>& b_row,
                        const GemmReference& ref) {
  GemmBenchRow row;
  row.name = variant_name(v);
  row.where = "device";
  row.precision = "float";
  row.order = variant_order(v);
  add_book_figures(row);
  try {
    const cl::Buffer a = k.upload(reorder(a_row, s.m, s.k, StorageOrder::kRowMajor, row.order));
    const cl::Buffer b = k.upload(reorder(b_row, s.k, s.n, StorageOrder::kRowMajor, row.order));
    const cl::Buffer c = k.upload(std::vector<float>(s.c_count()));
    std::vector<double> seconds;
    for (int r = -1; r < repeat; ++r) {  // r = -1: the warm-up, not timed
      cl::Event e = k.multiply(v, s, a, b, c);
      ocl::checked("waiting for the kernel", [&] { return e.wait(); });
      if (r >= 0) seconds.push_back(ocl::event_seconds(e));
    }
    set_speed(row, seconds, s);
    row.max_rel_error = max_relative_error(k.download(c, s.c_count()), row.order, ref);
  } catch (const std::exception& e) {
    row.error = e.what();
  }
  return row;
}

GemmBenchRow host_row(HostGemm& host, HostLoop loop, int repeat, const GemmReference& ref) {
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
  row.max_rel_error = max_relative_error(host.result(loop), StorageOrder::kRowMajor, ref);
  return row;
}

}  // namespace

std::vector<GemmBenchRow> run_gemm_bench(ocl::Runtime* runtime, const GemmBenchOptions& options,
                                         const std::function<void(const GemmBenchRow&)>& on_row) {
  if (options.repeat < 1) throw std::invalid_argument("--repeat must be at least 1");
  const GemmShape s{options.n, options.n, options.n};
  s.validate();
  // Build (and validate) the kernels before the long host work, so bad parameters fail fast.
  std::optional<FloatKernels> kernels;
  if (runtime) kernels.emplace(*runtime, options.gemm, options.book);

  const auto a = random_matrix(s.a_count(), 1), b = random_matrix(s.b_count(), 2);
  const GemmReference ref = reference_gemm(s, a, b, StorageOrder::kRowMajor);
  std::optional<HostGemm> host;
  if (options.host_loops) host.emplace(s, a, b);

  std::vector<GemmBenchRow> rows;
  auto add = [&](GemmBenchRow row) {
    rows.push_back(std::move(row));
    if (on_row) on_row(rows.back());
  };
  if (host) add(host_row(*host, HostLoop::kSeq, options.repeat, ref));
  if (kernels)
    for (GemmVariant v : {GemmVariant::kMmulElement, GemmVariant::kMmulRow,
                          GemmVariant::kMmulRowPrivate, GemmVariant::kMmulRowPrivateLocal})
      add(device_row(*kernels, v, s, options.repeat, a, b, ref));
  if (host)
    for (HostLoop loop : {HostLoop::kIjk, HostLoop::kIkj, HostLoop::kKij})
      add(host_row(*host, loop, options.repeat, ref));
  if (kernels)
    for (GemmVariant v : {GemmVariant::kMyGemm1, GemmVariant::kMyGemm1b, GemmVariant::kMyGemm2,
                          GemmVariant::kMatrixMulKernel})
      add(device_row(*kernels, v, s, options.repeat, a, b, ref));
  return rows;
}

}  // namespace closure
