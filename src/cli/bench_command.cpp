// `closure bench ...`: benchmarks that print figures (never pass/fail).
#include "cli/commands.hpp"

namespace closure::cli {

void add_bench_command(CLI::App& app) {
  auto* bench = app.add_subcommand("bench", "Benchmarks: Boolean products, float GEMM, closures");
  bench->require_subcommand(1);
}

}  // namespace closure::cli
