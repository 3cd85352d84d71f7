// `closure bench read FILE...`: how fast read_graph turns each file into a Graph (MB/s of
// input bytes, median of --repeat runs), as docs/benchmarks.md quotes it.
#include <algorithm>
#include <chrono>
#include <cstdio>
#include <filesystem>
#include <string>
#include <vector>

#include "cli/commands.hpp"
#include "closure/executor.hpp"
#include "closure/graph/phase_trace.hpp"
#include "closure/graph/read_graph.hpp"

namespace closure::cli {

namespace {

struct BenchReadOptions {
  std::vector<std::string> files;
  int repeat = 5;
  std::string format = "auto";
  unsigned threads = 0;
  int trace = 0;
};

void bench_read(const BenchReadOptions& o) {
  detail::set_read_trace(o.trace);
  const InputFormat format =
      as_usage_error("--input-format", [&] { return parse_input_format(o.format); });
  std::printf("%-40s %12s %10s %10s %10s %10s\n", "file", "bytes", "vertices", "edges", "median s",
              "MB/s");
  for (const std::string& file : o.files) {
    std::vector<double> times;
    size_t n = 0, m = 0;
    for (int k = 0; k < o.repeat; ++k) {
      const auto t0 = std::chrono::steady_clock::now();
      const ReadResult r = read_graph(file, format);
      times.push_back(std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count());
      n = r.graph.vertex_count();
      m = r.graph.edge_count();
    }
    // Sized after the first read: a missing or unreadable file is then read_graph's
    // InputError (exit 3, the file named), not file_size's filesystem_error.
    std::error_code ec;
    const uintmax_t bytes = std::filesystem::file_size(file, ec);
    std::sort(times.begin(), times.end());
    const double median = times[times.size() / 2];
    std::printf("%-40s %12ju %10zu %10zu %10.3f %10.1f\n", file.c_str(), ec ? 0 : bytes, n, m,
                median, ec ? 0.0 : double(bytes) / 1e6 / median);
    std::fflush(stdout);
  }
}

}  // namespace

void add_bench_read_command(CLI::App& bench) {
  auto o = std::make_shared<BenchReadOptions>();
  auto* cmd = bench.add_subcommand("read", "Graph reading speed: MB/s per file, median of runs");
  cmd->add_option("files", o->files, "Graph files")->required();
  cmd->add_option("--repeat", o->repeat, "Runs per file (the median is reported)")
      ->check(CLI::Range(1, 1000));
  cmd->add_option("--input-format", o->format, "Input format (as for closure itself)");
  cmd->add_option("--threads", o->threads, "Reader threads (default: the hardware's)")
      ->check(CLI::Range(1u, 4096u));
  cmd->add_option("--trace", o->trace,
                  "1: each phase's seconds on stderr; 2: the steps inside them too")
      ->check(CLI::Range(0, 2));
  cmd->callback([o] { with_thread_budget(o->threads, [&] { bench_read(*o); }); });
}

}  // namespace closure::cli
