// `closure bench read FILE...`: how fast read_graph turns each file into a Graph (MB/s of
// input bytes, median of --repeat runs), as docs/benchmarks.md quotes it.
#include <algorithm>
#include <chrono>
#include <cstdio>
#include <filesystem>
#include <string>
#include <vector>

#include "cli/commands.hpp"
#include "closure/graph/read_graph.hpp"

namespace closure::cli {

void add_bench_read_command(CLI::App& bench) {
  struct Options {
    std::vector<std::string> files;
    int repeat = 5;
    std::string format = "auto";
  };
  auto o = std::make_shared<Options>();
  auto* cmd = bench.add_subcommand("read", "Graph reading speed: MB/s per file, median of runs");
  cmd->add_option("files", o->files, "Graph files")->required();
  cmd->add_option("--repeat", o->repeat, "Runs per file (the median is reported)")
      ->check(CLI::Range(1, 1000));
  cmd->add_option("--input-format", o->format, "Input format (as for closure itself)");
  cmd->callback([o] {
    const InputFormat format = parse_input_format(o->format);
    std::printf("%-40s %12s %10s %10s %10s %10s\n", "file", "bytes", "vertices", "edges",
                "median s", "MB/s");
    for (const std::string& file : o->files) {
      const auto bytes = std::filesystem::file_size(file);
      std::vector<double> times;
      size_t n = 0, m = 0;
      for (int k = 0; k < o->repeat; ++k) {
        const auto t0 = std::chrono::steady_clock::now();
        const ReadResult r = read_graph(file, format);
        times.push_back(
            std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count());
        n = r.graph.vertex_count();
        m = r.graph.edge_count();
      }
      std::sort(times.begin(), times.end());
      const double median = times[times.size() / 2];
      std::printf("%-40s %12ju %10zu %10zu %10.3f %10.1f\n", file.c_str(), uintmax_t(bytes), n, m,
                  median, double(bytes) / 1e6 / median);
      std::fflush(stdout);
    }
  });
}

}  // namespace closure::cli
