// `closure bench propagate`: the device propagation kernel against a device-to-device
// copy (bytes/s), the pinned download of its rows, device queries and the count, per graph.
#include <algorithm>
#include <chrono>
#include <cstdio>
#include <memory>
#include <random>

#include "cli/bench_timing.hpp"
#include "cli/commands.hpp"
#include "cli/common_options.hpp"
#include "closure/engine/compute.hpp"
#include "closure/engine/device_propagation.hpp"
#include "closure/graph/read_graph.hpp"
#include "closure/ocl/device.hpp"

namespace closure::cli {
namespace {

struct PropagateBenchFlags {
  std::vector<std::string> paths;
  std::string device;
  int repeat = 3;
  double download_limit_gb = 16;
  size_t slice_words = 0;
  std::vector<std::string> kernels{"chained", "blocked", "plain"};
};

// "count": the chained sweep with live rows; "count-inorder" likewise in column order;
// "count-SWEEP" (count-blocked) another sweep only counting (over live rows only the
// chained sweep can).
bool is_count(const std::string& k) {
  return k.rfind("count", 0) == 0;
}
std::string sweep_name(const std::string& k) {
  if (!is_count(k)) return k;
  const std::string rest = k.substr(5);
  if (rest.empty() || rest == "-inorder") return "chained" + rest;
  return rest.size() > 1 && rest[0] == '-' ? rest.substr(1) : k;  // else unknown: an error
}

// One row: the kernel's median over the runs, a million random queries, the download.
void bench_one(const PropagateBenchFlags& flags, ocl::Runtime& rt, double copy,
               const std::string& path, const std::string& kernel_name) {
  const Graph g = read_graph(path).graph;
  SccResult scc = strongly_connected_components(g);
  const CsrDag dag = condensation_csr(g, scc);
  DevicePropagationOptions o;
  o.max_slice_words = flags.slice_words;
  o.kernel = sweep_name(kernel_name);
  o.rows_needed = !is_count(kernel_name);
  std::vector<double> kernel;
  DevicePropagationStats stats;
  Closure c;
  for (int r = 0; r < std::max(1, flags.repeat) + 1; ++r) {  // the first is warm-up
    c = Closure();
    c = closure_propagate_device(scc, dag, rt, o, &stats);
    if (r > 0) kernel.push_back(stats.kernel_s);
  }
  const double k = median(kernel);
  const double rate = k > 0 ? double(stats.kernel_bytes) / k : 0;
  // Queries: a million random pairs in one batch.
  std::vector<std::pair<vertex_t, vertex_t>> pairs;
  std::mt19937_64 rng(1);
  if (g.vertex_count() > 0 && o.rows_needed) {
    std::uniform_int_distribution<vertex_t> pick(0, vertex_t(g.vertex_count() - 1));
    for (int i = 0; i < 1000000; ++i) pairs.emplace_back(pick(rng), pick(rng));
  }
  std::vector<uint8_t> answers(pairs.size());
  auto tq = std::chrono::steady_clock::now();
  if (!pairs.empty()) c.reaches_many(pairs, answers);  // none when only counted
  const double qs = seconds_since(tq);
  const double rows_bytes =
      double(scc.component_count()) * double(words_for_bits(scc.component_count())) * 4;
  std::string download = "-";
  if (rows_bytes <= flags.download_limit_gb * 1e9 && stats.resident) {
    auto td = std::chrono::steady_clock::now();
    c.resident_reach()->host_rows();
    download = format_bytes(rows_bytes / seconds_since(td));
  }
  std::string name = path.substr(path.find_last_of('/') + 1);
  std::printf("%-22s %-15s %9zu %7zu %9.4f %10s %10s %6.0f%% %14llu %11s %11.3g\n", name.c_str(),
              kernel_name.c_str(), scc.component_count(), stats.slices, k,
              format_bytes(double(stats.kernel_bytes)).c_str(), format_bytes(rate).c_str(),
              copy > 0 ? 100 * rate / copy : 0.0, (unsigned long long)c.pair_count(),
              download.c_str(), qs > 0 ? double(pairs.size()) / qs : 0.0);
  std::fflush(stdout);
}

void run_bench_propagate(const PropagateBenchFlags& flags) {
  for (const std::string& k : flags.kernels) {  // typos first
    // An empty name is the library's default kernel; in this list it is a typo (a row of no name).
    if (k.empty()) throw UsageError("--kernels: an empty kernel name");
    resolve_propagate_kernel(sweep_name(k), 32);
  }
  // The session chooses and opens the device: a name that matches nothing is a usage error,
  // as in every command.
  Session session(device_session_options(flags.device.empty() ? "gpu" : flags.device));
  ocl::Runtime* opened = as_usage_error("--device", [&] { return session.runtime(); });
  if (!opened)
    throw UsageError(
        "bench propagate times the device kernel: it needs an OpenCL device "
        "(not host)");
  ocl::Runtime& rt = *opened;
  const std::optional<ocl::DeviceInfo> device = rt.device();
  const size_t copy_bytes =
      std::min<size_t>(size_t{2} << 30, std::max<size_t>(device->max_alloc_bytes / 4, 1 << 20));
  const double copy = device_copy_bandwidth(rt, copy_bytes);
  std::printf("device: %s; device-to-device copy of %s: %s/s (read + write)\n",
              device->describe().c_str(), format_bytes(double(copy_bytes)).c_str(),
              format_bytes(copy).c_str());
  std::printf("%-22s %-15s %9s %7s %9s %10s %10s %7s %14s %11s %11s\n", "graph", "kernel", "comps",
              "slices", "kernel s", "moved", "bytes/s", "of copy", "pairs", "download/s",
              "queries/s");
  for (const std::string& path : flags.paths)
    for (const std::string& kernel_name : flags.kernels)
      bench_one(flags, rt, copy, path, kernel_name);
}

}  // namespace

void add_bench_propagate_command(CLI::App& bench) {
  auto flags = std::make_shared<PropagateBenchFlags>();
  auto* sub = bench.add_subcommand(
      "propagate", "Device propagation: kernel bytes/s vs a device copy, download, queries");
  sub->add_option("paths", flags->paths, "Graph files")->required();
  add_device_option(*sub, flags->device);
  sub->add_option("--repeat", flags->repeat, "Timed runs (median)")
      ->check(CLI::Range(1, 1000))
      ->capture_default_str();
  sub->add_option("--download-limit", flags->download_limit_gb,
                  "Download the rows (pinned, chunked) only for closures up to this many GB")
      ->check(CLI::Range(0.0, 1e6))
      ->capture_default_str();
  // Bounded so that "-1" (which CLI11 reads as 2^64 - 1) is refused, not taken as "largest".
  sub->add_option("--slice-words", flags->slice_words, "Most words per column slice (0: largest)")
      ->check(CLI::Range(size_t{0}, size_t{1} << 32));
  sub->add_option(
         "--kernels", flags->kernels,
         "Sweep kernels to time: chained, blocked, plain, each optionally followed by 16 or 8 "
         "(columns a work-item owns) and by -inorder (work-groups started in column order, "
         "not longest first); count: chained with live rows, only counting (what "
         "`closure G` runs without an output), count-inorder likewise, count-SWEEP another "
         "sweep only counting (count-blocked)")
      ->delimiter(',')
      ->capture_default_str();
  sub->callback([flags] { run_bench_propagate(*flags); });
}

}  // namespace closure::cli
