// `closure bench gemm`: the OpenCL book's Table 21.1 redone on the chosen device, one row
// per float kernel and host loop, beside the book's figures; --sweep times myGEMM_tuned's
// parameter grid.
#include <algorithm>
#include <cmath>
#include <cstdio>
#include <memory>
#include <optional>
#include <string>

#include "cli/commands.hpp"
#include "cli/common_options.hpp"
#include "cli/figure_text.hpp"
#include "closure/kernels/tuning.hpp"
#include "closure/kernels/tuning_database.hpp"
#include "closure/ocl/device.hpp"
#include "closure/ocl/runtime.hpp"
#include "gemm/gemm_bench.hpp"
#include "gemm/sgemm_tuned_params.hpp"

namespace closure::cli {
namespace {

struct BenchGemmOptions {
  std::string device;
  std::string gemm_params, book_params, tuned_params;
  std::string tuning_file = tuning_overlay_path();
  GemmBenchOptions bench;
  bool no_host = false;
};

void print_row(const GemmBenchRow& r, double seq_mflops) {
  const char* order = r.order == StorageOrder::kRowMajor ? "row" : "col";
  std::string label = r.book_label;
  if (r.pad_seconds > 0 && r.seconds > 0)
    label += "; zero padding " + figure(100 * r.pad_seconds / r.seconds, "%.1f") + "% of the time";
  if (!r.error.empty()) {
    std::printf("%-23s %-6s %-6s %-5s failed: %s\n", r.name.c_str(), r.where.c_str(),
                r.precision.c_str(), order, r.error.c_str());
  } else {
    std::printf("%-23s %-6s %-6s %-5s %10.1f %9.0f %7s %11.1e %9s %9s  %s\n", r.name.c_str(),
                r.where.c_str(), r.precision.c_str(), order, r.seconds * 1e3, r.mflops,
                figure(seq_mflops > 0 ? r.mflops / seq_mflops : 0, "%.1f").c_str(), r.max_rel_error,
                figure(r.book_gpu_mflops, "%.0f").c_str(),
                figure(r.book_cpu_mflops, "%.0f").c_str(), label.c_str());
  }
  std::fflush(stdout);  // rows appear as they are measured; the whole table takes a while
}

void print_sweep_row(const GemmSweepRow& r) {
  const std::string params = r.params.to_string();
  if (!r.error.empty()) {
    // The first line of the message is enough to tell a refusal from a failure.
    std::printf("%-64s skipped: %s\n", params.c_str(),
                r.error.substr(0, r.error.find('\n')).c_str());
  } else {
    std::printf("%-64s %10.3f %12.0f %6.1f %11.1e%s\n", params.c_str(), r.seconds * 1e3, r.mflops,
                r.seconds > 0 ? 100 * r.pad_seconds / r.seconds : 0.0, r.max_rel_error,
                r.plausible ? "" : "  WRONG");
  }
  std::fflush(stdout);
}

// The user's kernel parameters, parsed and checked against the device: their parsers and
// validate() throw UsageError, which names the option here.
void parse_params(BenchGemmOptions& o, const ocl::Runtime* runtime) {
  if (!o.gemm_params.empty())
    o.bench.gemm =
        as_usage_error("--gemm-params", [&] { return parse_float_gemm_params(o.gemm_params); });
  if (!o.book_params.empty())
    o.bench.book =
        as_usage_error("--book-params", [&] { return parse_book_mmul_params(o.book_params); });
  if (!runtime) return;
  const ocl::DeviceInfo& d = runtime->device();
  as_usage_error("--gemm-params", [&] { return o.bench.gemm.validate(d); });
  as_usage_error("--book-params", [&] { return o.bench.book.validate(d); });
  // --tuned-params adjusts the device's default set, key by key.
  o.bench.tuned = as_usage_error("--tuned-params", [&] {
    SgemmTunedParams p = parse_sgemm_tuned_params(o.tuned_params, sgemm_tuned_params_for(d));
    p.validate(d);
    return p;
  });
}

// What the table measures and how, before its rows.
void print_preamble(const BenchGemmOptions& o, ocl::Runtime* runtime) {
  const size_t n = o.bench.n;
  std::printf("closure bench gemm: C = A * B, order %zu, MFLOPS = 2 n^3 / median seconds\n", n);
  if (runtime) {
    std::printf("device: %s\n", runtime->device().describe().c_str());
    std::printf("kernel parameters: %s; %s\n", o.bench.gemm.to_string().c_str(),
                o.bench.book.to_string().c_str());
    std::printf("myGEMM_tuned parameters: %s\n", o.bench.tuned->to_string().c_str());
    std::printf(
        "device kernels: median of %d runs after a warm-up, profiling events (kernel "
        "only, no transfers)\n",
        o.bench.repeat);
  } else {
    std::printf("host path (--device host, or no OpenCL device): host loops only\n");
  }
  bool any_host = o.bench.only.empty();
  for (const char* loop : {"seq", "ijk", "ikj", "kij"})
    any_host =
        any_host || std::find(o.bench.only.begin(), o.bench.only.end(), loop) != o.bench.only.end();
  if (o.bench.host_loops && any_host)
    std::printf("host loops: median of %d runs, steady_clock, one thread\n", o.bench.repeat);
  if (gemm_bench_samples_reference(n))
    std::printf(
        "max rel err: max |got - exact| / sum_k |a_ik b_kj|, against a double reference on a "
        "sample of C (first and last rows and columns, %zu random elements)\n",
        kGemmBenchRandomSamples);
  else
    std::printf("max rel err: max |got - exact| / sum_k |a_ik b_kj|, against a double reference\n");
  std::printf(
      "book: OpenCL Programming Guide, Table 21.1 (GeForce 8600M GT GPU, Core Duo "
      "T8300 CPU), loop orders from its text\n\n");
  std::printf("%-23s %-6s %-6s %-5s %10s %9s %7s %11s %9s %9s  %s\n", "code", "where", "type",
              "order", "median ms", "MFLOPS", "x seq", "max rel err", "book GPU", "book CPU",
              "book's row");
}

void run(BenchGemmOptions& o) {
  o.bench.host_loops = !o.no_host;
  Session session(device_session_options(o.device));  // it alone chooses and opens the device
  ocl::Runtime* const runtime = as_usage_error("--device", [&] { return session.runtime(); });
  parse_params(o, runtime);  // bad parameters are refused before anything is printed
  if (!runtime && !o.bench.host_loops)
    throw UsageError("--no-host on the host path leaves nothing to measure");
  if (!runtime && o.bench.sweep)
    throw UsageError("--sweep needs an OpenCL device (it times myGEMM_tuned), not the host");
  // --repeat and --only are checked by CLI11 already; what is left here is ours.
  check_gemm_bench_options(o.bench, runtime != nullptr);

  print_preamble(o, runtime);
  const size_t n = o.bench.n;
  double seq_mflops = 0;
  bool sweep_header = false;
  std::optional<GemmSweepRow> best;
  int refused = 0;
  run_gemm_bench(
      runtime, o.bench,
      [&](const GemmBenchRow& row) {
        if (row.name == "seq" && row.error.empty()) seq_mflops = row.mflops;
        print_row(row, seq_mflops);
      },
      [&](const GemmSweepRow& row) {
        if (!sweep_header) {
          std::printf(
              "\nsweep: myGEMM_tuned, order %zu, median of %d runs after a warm-up; pad %%: "
              "share of the time in zero-padding copies; WRONG: error beyond rounding\n",
              n, o.bench.repeat);
          std::printf("%-64s %10s %12s %6s %11s\n", "parameters", "median ms", "MFLOPS", "pad %",
                      "max rel err");
          sweep_header = true;
        }
        print_sweep_row(row);
        if (!row.error.empty()) ++refused;
        if (row.error.empty() && row.plausible && (!best || row.mflops > best->mflops)) best = row;
      });
  if (o.bench.sweep) {
    if (best) {
      std::printf("best: --tuned-params %s  (%.0f MFLOPS; %d of the grid skipped)\n",
                  best->params.to_string().c_str(), best->mflops, refused);
      // The winner goes into the tuning overlay as data (no C++ to paste).
      if (!o.tuning_file.empty()) {
        const TuningRow row = device_tuning_row(best->params, runtime->device());
        const std::string comment = "closure bench gemm --sweep at n = " + std::to_string(n) +
                                    ", " + runtime->device().describe();
        std::printf("tuning row written to %s: %s %s %s\n",
                    save_tuning_row(row, comment, o.tuning_file).c_str(), row.family.c_str(),
                    row.match_text().c_str(), row.params.c_str());
      }
    } else
      std::printf("best: none (every set was skipped or wrong)\n");
  }
}

}  // namespace

void add_bench_gemm_command(CLI::App& bench) {
  auto o = std::make_shared<BenchGemmOptions>();
  auto* cmd = bench.add_subcommand(
      "gemm",
      "MFLOPS of every float GEMM kernel and host loop, beside the OpenCL book's Table 21.1");
  add_device_option(*cmd, o->device);
  cmd->add_option("--n", o->bench.n, "Order of the square matrices (the book's 1000)")
      ->check(CLI::Range(size_t(1), size_t(46340)));
  cmd->add_option("--repeat", o->bench.repeat, "Timed runs per code; the median is reported")
      ->check(CLI::Range(1, 1000));
  cmd->add_option("--gemm-params", o->gemm_params,
                  "float_gemm.cl parameters, e.g. ts=16,tile_width=16,group=16");
  cmd->add_option("--book-params", o->book_params,
                  "book_mmul.cl parameters, e.g. row_group=250,private_k=1024");
  cmd->add_option("--tuned-params", o->tuned_params,
                  "myGEMM_tuned parameters over the device's default set, e.g. "
                  "tsm=128,tsn=128,tsk=16,wptm=8,wptn=8,vwm=4,vwk=4,padb=0,prf=0");
  cmd->add_flag("--no-host", o->no_host, "Skip the host loops (seq, ijk, ikj, kij)");
  cmd->add_option(
         "--only", o->bench.only,
         "Run only these codes, comma-separated, e.g. myGEMM2,MatrixMulKernel,myGEMM_tuned "
         "(for large --n, where the others take minutes)")
      ->delimiter(',')
      ->check(CLI::IsMember(gemm_bench_codes()));
  cmd->add_flag("--sweep", o->bench.sweep,
                "Then time myGEMM_tuned over its parameter grid (sets the device refuses are "
                "skipped); the fastest correct set becomes a row of the tuning overlay");
  cmd->add_option("--tuning-file", o->tuning_file,
                  "Tuning overlay the sweep writes its row to, '' for none (default: "
                  "$CLOSURE_TUNING, else ~/.cache/closure/tuning.txt; docs/kernels.md)");
  cmd->callback([o] { run(*o); });
}

}  // namespace closure::cli
