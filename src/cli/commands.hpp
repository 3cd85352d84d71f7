// Each subcommand of `closure` registers itself on the CLI11 app; the callbacks call
// library functions and nothing more.
#pragma once

#include <CLI/CLI.hpp>
#include <functional>
#include <vector>

#include "cli/common_options.hpp"
#include "closure/verify/boost_closure.hpp"

namespace closure::cli {

// Exit statuses scripts can rely on.
inline constexpr int kExitOk = 0;
inline constexpr int kExitMismatch = 1;      // verification found a difference
inline constexpr int kExitUsage = 2;         // bad command line
inline constexpr int kExitInput = 3;         // unreadable or malformed input
inline constexpr int kExitFailure = 4;       // anything else (device, memory, I/O)
inline constexpr int kExitInconclusive = 5;  // a sampled verification compared too few pairs

// The exit status of a verification verdict.
int verdict_status(Verdict v);

// A command that reads graphs: its CLI11 app, and what to run when it was given.
struct Command {
  Command() = default;
  Command(CLI::App* a, std::function<int()> r) : app(a), run(std::move(r)) {}
  CLI::App* app = nullptr;
  std::function<int()> run;
  // Options of the default command that subcommands would otherwise accept through
  // fallthrough and silently ignore: main refuses them next to a subcommand.
  std::vector<CLI::Option*> own_options;
};

// `closure FILE ...`: the default action, registered on the top-level app itself.
Command add_run_command(CLI::App& app, CommonOptions& common);
Command add_query_command(CLI::App& app, CommonOptions& common);
Command add_verify_command(CLI::App& app, CommonOptions& common);
Command add_batch_command(CLI::App& app, CommonOptions& common);
Command add_index_command(CLI::App& app, CommonOptions& common);
Command add_reach_command(CLI::App& app, CommonOptions& common);
Command add_reduce_command(CLI::App& app, CommonOptions& common);

// Maps a failure to its exit status and prints it: input errors (with file and line),
// usage errors, memory refusals, device errors.
int report_failure(const std::exception& e);

void add_devices_command(CLI::App& app);
void add_bench_command(CLI::App& app);
void add_bench_dense_command(CLI::App& bench);
void add_bench_closure_command(CLI::App& bench);
void add_bench_gemm_command(CLI::App& bench);
void add_bench_bool_command(CLI::App& bench);
void add_bench_read_command(CLI::App& bench);
void add_bench_index_command(CLI::App& bench);

}  // namespace closure::cli
