// `closure bench index`: the reachability index on generated graphs and graph files, one
// markdown table row per graph (docs/benchmarks-queries.md).
#include <chrono>
#include <cstdio>
#include <memory>

#include "app/tool/batch.hpp"
#include "bench/index_bench.hpp"
#include "bench/index_generators.hpp"
#include "cli/commands.hpp"
#include "closure/graph/read_graph.hpp"

namespace closure::cli {
namespace {

// Pair counts past this would take gigabytes of pairs (and their copies for the batched
// queries), not a benchmark's figure.
constexpr size_t kMostPairs = 100'000'000;

}  // namespace

void add_bench_index_command(CLI::App& bench) {
  struct Flags {
    std::vector<std::string> paths, generated;
    IndexBenchOptions o;
  };
  auto flags = std::make_shared<Flags>();
  auto* sub = bench.add_subcommand(
      "index", "Reachability index: build time, size, query time, share without search, vs BFS");
  sub->add_option("paths", flags->paths, "Graph files or folders (e.g. tests/data/grail)");
  sub->add_option("--generated", flags->generated,
                  "Generated graphs: random-dag:N:M, power-law:N:M (N >= 2), commits:N (1M = "
                  "10^6)")
      ->delimiter(',')
      ->check(usage_checked(check_index_bench_spec, "GRAPH"));
  sub->add_option("--random-pairs", flags->o.random_pairs, "Uniform random pairs timed")
      ->check(CLI::Range(size_t{0}, kMostPairs))
      ->capture_default_str();
  sub->add_option("--reachable-pairs", flags->o.reachable_pairs,
                  "Pairs drawn from what BFS sources reach, timed")
      ->check(CLI::Range(size_t{0}, kMostPairs))
      ->capture_default_str();
  sub->add_option("--sources", flags->o.sources, "BFS sources for reachable pairs and checks")
      ->check(CLI::Range(size_t{1}, size_t{1'000'000}))
      ->capture_default_str();
  sub->add_option("--checked-per-source", flags->o.checked_random_per_source,
                  "Random targets per source checked against BFS")
      ->check(CLI::Range(size_t{0}, size_t{1'000'000}))
      ->capture_default_str();
  sub->add_option("--bfs-queries", flags->o.bfs_queries, "Pairs per set timed with per-query BFS")
      ->check(CLI::Range(size_t{0}, kMostPairs))
      ->capture_default_str();
  sub->add_option("--repeat", flags->o.repeats, "Timed passes over the pairs (median)")
      ->check(CLI::Range(1, 1000))
      ->capture_default_str();
  sub->add_option("--index-dir", flags->o.index_dir,
                  "Write the index file here, then time loading (read + checks) and query it")
      ->check(CLI::ExistingDirectory);  // refused before any graph is built
  sub->callback([flags] {
    std::fputs(index_bench_header().c_str(), stdout);
    auto run = [&](const std::string& name, const Graph& g) {
      const IndexBenchRow row = bench_index(name, g, flags->o);
      std::fputs(format_index_bench_row(row).c_str(), stdout);
      if (!flags->o.index_dir.empty())
        std::printf(
            "<!-- %s: file written in %.2f s, loaded (map or read + checksum + checks) in %.2f s "
            "-->\n",
            name.c_str(), row.write_s, row.load_s);
      std::fflush(stdout);
    };
    if (!flags->paths.empty())
      for (const auto& file : collect_batch_files(flags->paths))
        run(file.substr(file.find_last_of('/') + 1), read_graph(file).graph);
    for (const auto& spec : flags->generated) {
      const auto t0 = std::chrono::steady_clock::now();
      Graph g = index_bench_graph(spec);
      std::fprintf(stderr, "bench index: generated %s in %.1f s\n", spec.c_str(),
                   std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count());
      run(spec, g);
    }
  });
}

}  // namespace closure::cli
