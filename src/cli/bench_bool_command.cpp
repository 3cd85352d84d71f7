// `closure bench bool`: Boolean MAC/s of the packed products beside the device's ceilings
// and PyTorch, the tuning sweep, and full closures of random DAGs.
#include <algorithm>
#include <cstdio>
#include <memory>
#include <optional>
#include <stdexcept>
#include <string>
#include <vector>

#include "bench/bool_bench.hpp"
#include "cli/commands.hpp"
#include "cli/common_options.hpp"
#include "cli/figure_text.hpp"
#include "closure/errors.hpp"
#include "closure/kernels/tuning.hpp"
#include "closure/kernels/tuning_database.hpp"
#include "closure/ocl/device.hpp"
#include "closure/ocl/runtime.hpp"

namespace closure::cli {
namespace {

struct BenchBoolOptions {
  std::string device, params, mma_params;
  std::vector<size_t> sizes, closure_sizes;  // checked by CLI11: 1 .. kMaxBoolBenchN
  std::vector<std::string> kernels{"cubic", "utri", "mma", "mma-utri"};
  std::vector<std::string> sweep_kernels{"cubic", "mma"};
  std::string torch_times;
  std::string tuning_file = tuning_overlay_path();
  int repeat = 5;
  bool no_check = false, sweep = false, no_products = false, mma_emulate = false;
  size_t sweep_n = 0, full_check_max_n = 16384;
  uint64_t seed = 1;
  double degree = 8;
};

void print_header() {
  std::printf("%-6s %-15s %11s %10s %10s %8s %8s %11s  %s\n", "n", "kernel", "median s", "MAC/s",
              "work MAC/s", "ceiling", "vs torch", "check", "parameters / note");
}

void print_row(const BoolBenchRow& r) {
  const double of_ceiling = r.ceiling_mac_s > 0 ? 100 * r.work_mac_s / r.ceiling_mac_s : 0;
  std::printf("%-6s %-15s %11s %10s %10s %8s %8s %11s  %s%s%s\n",
              r.n ? std::to_string(r.n).c_str() : "-", r.kernel.c_str(),
              figure(r.seconds, "%.4g").c_str(), figure(r.mac_s, "%.3e").c_str(),
              figure(r.work_mac_s, "%.3e").c_str(), figure(of_ceiling, "%.1f%%").c_str(),
              figure(r.torch_s > 0 ? r.torch_s / r.seconds : 0, "%.2fx").c_str(), r.check.c_str(),
              r.params.c_str(), r.params.empty() || r.note.empty() ? "" : "; ", r.note.c_str());
  std::fflush(stdout);  // rows appear as they are measured
}

void print_closure_row(const ClosureBenchRow& r) {
  std::printf(
      "%-6zu %9zu %-22s %6d %10s %10s %8s %13llu  %s\n", r.n, r.edges, r.method.c_str(), r.rounds,
      figure(r.compute_s, "%.4g").c_str(), figure(r.torch_s, "%.4g").c_str(),
      figure(r.torch_s > 0 && r.compute_s > 0 ? r.torch_s / r.compute_s : 0, "%.2fx").c_str(),
      static_cast<unsigned long long>(r.closure_pairs), r.check.c_str());
  std::fflush(stdout);
}

// What the benchmark runs, from the flags and the device. The user's parameters, parsed
// and checked against the device, are usage errors (the parsers and validate() may throw
// std::invalid_argument, an internal error unwrapped).
BoolBenchOptions bench_options(const BenchBoolOptions& o, const ocl::DeviceInfo& device) {
  BoolBenchOptions b;
  b.repeat = o.repeat;
  b.check = !o.no_check;
  b.full_check_max_n = o.full_check_max_n;
  b.seed = o.seed;
  b.kernels = o.kernels;
  b.mma_mode = o.mma_emulate ? BooleanMma::Mode::kEmulate : BooleanMma::Mode::kAuto;
  b.params = tuned_boolean_params(device);
  if (!o.params.empty())
    b.params = as_usage_error("--params", [&] {
      BooleanParams p = parse_boolean_params(o.params, b.params);
      p.validate(device);
      return p;
    });
  b.mma_params = tuned_mma_params(device);
  if (!o.mma_params.empty())
    b.mma_params = as_usage_error("--mma-params", [&] {
      MmaParams p = parse_mma_params(o.mma_params, b.mma_params);
      p.validate(device);
      return p;
    });
  b.sizes = !o.sizes.empty() ? o.sizes
            : device.is_gpu  ? std::vector<size_t>{1024, 2048, 4096, 8192, 16384, 32768}
                             : std::vector<size_t>{256, 512, 1024, 2048};
  return b;
}

void print_preamble(const BoolBenchOptions& b, const ocl::DeviceInfo& device,
                    const BoolCeilings& ceilings, bool torch_this_run) {
  std::printf("closure bench bool: C |= A * B over the Boolean semiring, n x n bits\n");
  std::printf("device: %s, driver %s\n", device.describe().c_str(), device.driver_version.c_str());
  std::printf("portable kernels: %s; tensor cores: %s\n", b.params.to_string().c_str(),
              b.mma_params.to_string().c_str());
  std::printf(
      "median of %d runs after a warm-up, OpenCL profiling events, device-resident operands\n"
      "MAC/s = n^3 / s (a full square product); work MAC/s = MACs needed / s (n^3/6 for the\n"
      "triangular kernels); ceiling = work MAC/s as a share of the unit's peak; vs torch =\n"
      "PyTorch bf16 R|(R@R>0) seconds / ours\n",
      b.repeat);
  std::printf(
      "ceilings: CUDA cores (LOP3) %s MAC/s, 1-bit mma.sync %s MAC/s%s\n",
      figure(ceilings.cuda_core_mac_s, "%.2e").c_str(), figure(ceilings.mma_mac_s, "%.2e").c_str(),
      ceilings.cuda_core_mac_s > 0 ? " (docs/benchmarks.md)" : " (none recorded for this device)");
  if (!ceilings.torch_square_s.empty()) {
    std::printf("PyTorch bf16 squaring:");
    for (const auto& [n, s] : ceilings.torch_square_s) std::printf(" n=%zu %.4g s", n, s);
    std::printf("%s\n", torch_this_run ? " (this run)" : " (docs/benchmarks.md)");
  }
}

// --sweep: tunes the kernels --sweep-kernels names; the winners replace the parameters in
// `b` the user did not give, and go into the tuning overlay as data (no C++ to paste).
void run_sweeps(const BenchBoolOptions& o, ocl::Runtime& rt, BoolBenchOptions& b,
                const BoolRowSink& keep) {
  const ocl::DeviceInfo& device = rt.device();
  auto save_row = [&](const TuningRow& row, size_t n) {
    if (o.tuning_file.empty()) return;
    const std::string comment = "closure bench bool --sweep at n = " + std::to_string(n) + ", " +
                                device.describe() + ", driver " + device.driver_version;
    std::printf("tuning row written to %s: %s %s %s\n",
                save_tuning_row(row, comment, o.tuning_file).c_str(), row.family.c_str(),
                row.match_text().c_str(), row.params.c_str());
  };
  const size_t n = o.sweep_n ? o.sweep_n : device.is_gpu ? 8192 : 512;
  auto sweeps = [&](const char* k) {
    return std::find(o.sweep_kernels.begin(), o.sweep_kernels.end(), k) != o.sweep_kernels.end();
  };
  if (sweeps("cubic")) {
    std::printf("\nsweep of the portable kernel at n = %zu\n", n);
    print_header();
    const BooleanParams best = sweep_cubic(rt, n, 3, keep);
    std::printf("best portable: %s\n", best.to_string().c_str());
    save_row(device_tuning_row(best, device), n);
    if (o.params.empty()) b.params = best;
  }
  std::optional<MmaParams> mma;
  if (sweeps("mma")) {
    std::printf("\nsweep of the tensor-core kernel at n = %zu\n", 2 * n);
    print_header();
    mma = sweep_mma(rt, 2 * n, 3, keep);
  }
  if (mma) {
    std::printf("best tensor-core: %s\n", mma->to_string().c_str());
    save_row(device_tuning_row(*mma, device), 2 * n);
    if (o.mma_params.empty()) b.mma_params = *mma;
  }
}

std::vector<ClosureBenchRow> run_closures(const BenchBoolOptions& o, ocl::Runtime& rt,
                                          const BoolBenchOptions& b, const BoolCeilings& c) {
  std::printf(
      "\nfull closure of random DAGs (%.0f edges per vertex, topological order), repeated "
      "squaring on the device,\ncompute seconds (device-resident, no transfers) vs "
      "PyTorch's repeated squaring of the same kind of graph\n",
      o.degree);
  std::printf("%-6s %9s %-22s %6s %10s %10s %8s %13s  %s\n", "n", "edges", "method", "rounds",
              "compute s", "torch s", "speedup", "pairs", "check");
  return bench_bool_closures(rt, o.closure_sizes, o.degree, b.params, b.mma_params, b.mma_mode, c,
                             [](const ClosureBenchRow& r) { print_closure_row(r); });
}

void run(const BenchBoolOptions& o) {
  if (o.no_products && !o.sweep && o.closure_sizes.empty())
    throw UsageError("--no-products without --sweep or --closure leaves nothing to measure");
  BoolCeilings measured;  // read first: a bad file is refused before any device opens
  if (!o.torch_times.empty()) read_torch_times(o.torch_times, measured);
  Session session(device_session_options(o.device));  // it alone chooses and opens the device
  ocl::Runtime* opened = as_usage_error("--device", [&] { return session.runtime(); });
  if (!opened) throw UsageError("bench bool measures OpenCL kernels: it needs a device (not host)");
  ocl::Runtime& rt = *opened;
  const std::optional<ocl::DeviceInfo> device = rt.device();
  BoolCeilings ceilings = bool_ceilings(*device);
  // This run's PyTorch times replace the recorded ones, size by size.
  for (const auto& [n, s] : measured.torch_square_s) ceilings.torch_square_s[n] = s;
  for (const auto& [n, s] : measured.torch_closure_s) ceilings.torch_closure_s[n] = s;
  BoolBenchOptions b = bench_options(o, *device);
  print_preamble(b, *device, ceilings, !o.torch_times.empty());

  std::vector<BoolBenchRow> rows;
  auto keep = [&](const BoolBenchRow& r) {
    print_row(r);
    rows.push_back(r);
  };
  if (o.sweep) run_sweeps(o, rt, b, keep);
  std::vector<BoolBenchRow> products;
  if (!o.no_products) {
    std::printf("\nproducts\n");
    print_header();
    products = bench_bool_products(rt, b, ceilings, keep);
  }
  std::vector<ClosureBenchRow> closures;
  if (!o.closure_sizes.empty()) closures = run_closures(o, rt, b, ceilings);

  // The summary: the product rows again, without the sweep, as the last table printed.
  if (!products.empty()) {
    std::printf("\nsummary (%s)\n", device->name.c_str());
    print_header();
    for (const auto& r : products) print_row(r);
  }
  int mismatches = 0;
  for (const auto& r : rows) mismatches += r.check.find("MISMATCH") != std::string::npos;
  for (const auto& r : closures) mismatches += r.check.find("MISMATCH") != std::string::npos;
  if (mismatches)
    throw InternalError("bench bool: " + std::to_string(mismatches) +
                        " result(s) differ from the reference");
}

}  // namespace

void add_bench_bool_command(CLI::App& bench) {
  auto o = std::make_shared<BenchBoolOptions>();
  auto* cmd = bench.add_subcommand(
      "bool",
      "Boolean MAC/s of the packed products (cubic, triangular, tensor cores) beside the "
      "device's ceilings; --sweep tunes, --closure times whole closures");
  add_device_option(*cmd, o->device);
  // Sizes are bounded where n x n bits outgrow every device (such sizes are skipped) and
  // n^3 still fits 64 bits: -1, 0 and 10^30 are refused as usage errors naming the option.
  const auto size_range = CLI::Range(size_t{1}, kMaxBoolBenchN);
  cmd->add_option("--sizes", o->sizes,
                  "Comma-separated n (default: 1024,...,32768 on a GPU, 256,...,2048 elsewhere); "
                  "sizes that do not fit device memory are skipped")
      ->delimiter(',')
      ->check(size_range);
  cmd->add_option("--repeat", o->repeat, "Timed runs per kernel and size; the median is reported")
      ->check(CLI::Range(1, 1000));
  cmd->add_option("--kernels", o->kernels, "Comma-separated: cubic, utri, mma, mma-utri")
      ->delimiter(',')
      ->check(CLI::IsMember({"cubic", "utri", "mma", "mma-utri"}))
      ->capture_default_str();
  cmd->add_option("--params", o->params,
                  "Portable kernel parameters, e.g. tile_n=2,tile_m=4,tile_w=8,tile_k=4 "
                  "(default: the tuning table, CLOSURE_BOOL_PARAMS)");
  cmd->add_option("--mma-params", o->mma_params,
                  "Tensor-core parameters, e.g. warp_m=64,warp_n=64,warps_m=4,warps_n=2,k_steps=1 "
                  "(default: the tuning table, CLOSURE_MMA_PARAMS)");
  cmd->add_flag("--mma-emulate", o->mma_emulate,
                "Run the MMA rows without tensor cores (MMA computed in OpenCL C): tests the "
                "plumbing on any device; its times mean nothing");
  cmd->add_flag("--no-check", o->no_check, "Skip the comparison with the host reference");
  cmd->add_option("--full-check-max", o->full_check_max_n,
                  "Largest n checked in full; above it, 48 random rows are recomputed on the host")
      ->check(CLI::Range(size_t{0}, kMaxBoolBenchN));
  cmd->add_option("--seed", o->seed, "Seed of the random operands (fresh inputs: vary it)")
      ->check(unsigned_decimal());
  cmd->add_flag("--sweep", o->sweep,
                "Sweep the valid parameter space first, use the winners and write them as rows "
                "of the tuning overlay (--tuning-file)");
  cmd->add_option("--tuning-file", o->tuning_file,
                  "Tuning overlay the sweep writes its rows to, '' for none (default: "
                  "$CLOSURE_TUNING, else ~/.cache/closure/tuning.txt; docs/kernels.md)");
  cmd->add_option("--sweep-kernels", o->sweep_kernels, "What --sweep tunes: cubic, mma or both")
      ->delimiter(',')
      ->check(CLI::IsMember({"cubic", "mma"}))
      ->capture_default_str();
  // The sweep draws and checks its matrices on the host without a fit check (the MMA
  // sweep at twice this n): bounded where that stays a few GB.
  cmd->add_option("--sweep-n", o->sweep_n,
                  "Size of the sweep, at most 65536 (default 8192 on a GPU, else 512)")
      ->check(CLI::Range(size_t{1}, size_t{65536}));
  cmd->add_flag("--no-products", o->no_products, "Skip the product table (sweep or closures only)");
  cmd->add_option("--closure", o->closure_sizes,
                  "Comma-separated n: full closures of random DAGs by repeated squaring")
      ->delimiter(',')
      ->check(size_range);
  cmd->add_option("--degree", o->degree, "Edges per vertex of the random DAGs")
      ->check(CLI::Range(0.0, 1e6));
  cmd->add_option("--torch-times", o->torch_times,
                  "File of '<square|closure> n seconds' lines from "
                  "tools/torch_closure_baseline.py, measured in the same run (at most 4 MB)");
  cmd->callback([o] { run(*o); });
}

}  // namespace closure::cli
