// `closure bench chains FILE...`: the count by chains' preparation (generation ids, cover,
// live rows) and count on each file's condensation, in one pass and in stretches on threads
// (chain_count.hpp), with the chains each needs, as docs/benchmarks-gpu.md quotes them.
#include <algorithm>
#include <chrono>
#include <cstdio>
#include <optional>
#include <string>
#include <vector>

#include "cli/bench_timing.hpp"
#include "cli/commands.hpp"
#include "cli/figure_text.hpp"
#include "closure/algorithms/chain_count.hpp"
#include "closure/algorithms/scc.hpp"
#include "closure/executor.hpp"
#include "closure/graph/read_graph.hpp"

namespace closure::cli {

namespace {

struct BenchChainsOptions {
  std::vector<std::string> files;
  std::vector<size_t> stretches{1};
  int repeat = 3;
  unsigned threads = 0;
};

void bench_chains(const BenchChainsOptions& o) {
  // Pairs between components (each weighed by its vertices), as the count by chains sums
  // them; "stopped" where the cover gave up (chains past its pass's work).
  std::printf("%-32s %10s %9s %8s %8s %11s %9s %18s\n", "file", "components", "stretches", "chains",
              "slots", "prepare s", "count s", "cross pairs");
  for (const std::string& file : o.files) {
    const Condensation c = condense(read_graph(file).graph);
    const std::vector<uint32_t> sizes = weighted_sizes(c.scc);
    // Unbounded, so that every stretch count is covered and compared.
    const size_t most = c.component_count() + 1;
    for (const size_t stretches : o.stretches) {
      std::vector<double> prepare, count;
      std::string chains = "stopped", slots = "-", pairs = "-";
      for (int k = 0; k < o.repeat; ++k) {
        auto t0 = std::chrono::steady_clock::now();
        const std::optional<ChainCounting> p = prepare_chain_count(c.dag, sizes, most, stretches);
        prepare.push_back(seconds_since(t0));
        if (!p) continue;
        t0 = std::chrono::steady_clock::now();
        pairs = std::to_string(count_closure_by_chains(*p));
        count.push_back(seconds_since(t0));
        chains = std::to_string(p->cover.chains());
        slots = std::to_string(p->slots.slots);
      }
      std::printf("%-32s %10zu %9zu %8s %8s %11.3f %9s %18s\n", file.c_str(), c.component_count(),
                  stretches, chains.c_str(), slots.c_str(), median(prepare),
                  figure(median(count), "%.3f").c_str(), pairs.c_str());
      std::fflush(stdout);
    }
  }
}

}  // namespace

void add_bench_chains_command(CLI::App& bench) {
  auto o = std::make_shared<BenchChainsOptions>();
  auto* cmd = bench.add_subcommand(
      "chains", "The count by chains: its preparation and count in one pass and in stretches");
  cmd->add_option("files", o->files, "Graph files")->required();
  cmd->add_option("--stretches", o->stretches,
                  "Stretches of ids to cover on threads, one or more (1: the one pass)")
      ->delimiter(',')
      ->check(CLI::Range(size_t{1}, size_t{4096}));
  cmd->add_option("--repeat", o->repeat, "Runs each (the medians are reported)")
      ->check(CLI::Range(1, 1000));
  cmd->add_option("--threads", o->threads, "Threads (default: the hardware's)")
      ->check(CLI::Range(1u, 4096u));
  cmd->callback([o] { with_thread_budget(o->threads, [&] { bench_chains(*o); }); });
}

}  // namespace closure::cli
