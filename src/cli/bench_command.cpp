// `closure bench ...`: benchmarks that print figures (never pass/fail). Each benchmark
// registers itself from its own file.
#include "cli/commands.hpp"

namespace closure::cli {

void add_bench_command(CLI::App& bench_app) {
  auto* bench = &bench_app;
  bench->require_subcommand(1);
  add_bench_gemm_command(*bench);
  add_bench_bool_command(*bench);
  add_bench_dense_command(*bench);
  add_bench_closure_command(*bench);
  add_bench_propagate_command(*bench);
  add_bench_read_command(*bench);
  add_bench_chains_command(*bench);
  add_bench_index_command(*bench);
  add_bench_serve_command(*bench);
}

}  // namespace closure::cli
