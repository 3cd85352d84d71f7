// Each subcommand of `closure` registers itself on the CLI11 app; the callbacks call
// library functions and nothing more. `run` is the default subcommand: `closure FILE`
// is `closure run FILE` (cli/app.cpp inserts the name).
#pragma once

#include <CLI/CLI.hpp>
#include <functional>

#include "cli/common_options.hpp"
#include "closure/verify/boost_closure.hpp"

namespace closure::cli {

// Exit statuses scripts can rely on (report_failure maps failures onto them).
inline constexpr int kExitOk = 0;
inline constexpr int kExitMismatch = 1;      // verification found a difference
inline constexpr int kExitUsage = 2;         // bad command line, refused option or output target
inline constexpr int kExitInput = 3;         // unreadable or malformed input
inline constexpr int kExitFailure = 4;       // anything else (memory, device, I/O, internal error)
inline constexpr int kExitInconclusive = 5;  // a sampled verification compared too few pairs

// The exit status of a verification verdict.
int verdict_status(Verdict v);

// The text --help shows for them (every command's footer).
inline constexpr const char* kExitStatusHelp =
    "Exit status: 0 ok (also when the reader of a pipe output stops early), 1 verification\n"
    "mismatch, 2 usage (bad option, refused combination or output target), 3 bad input\n"
    "(FILE:LINE named), 4 anything else (memory, device, I/O, internal error), 5 verification\n"
    "inconclusive (a sampled check compared too few pairs). Never 128 or more, unless\n"
    "Ctrl-C or SIGTERM stops it: it then ends by that signal (130, 143 in a shell).";

// Builds the app, parses argv (inserting the default subcommand) and runs the command.
int run_cli(int argc, char** argv);

// Subcommands that read graphs: each adds its own options to `sub` (made by run_cli, with
// its name and description, which app.cpp's command table holds) and returns the runner
// that run_cli calls after parsing (so that failures map to exit statuses), within the
// command's Session (made from the shared options after parsing).
using Runner = std::function<int(Session&)>;
Runner add_run_command(CLI::App& sub, CommonOptions& common);
Runner add_query_command(CLI::App& sub, CommonOptions& common);
Runner add_verify_command(CLI::App& sub, CommonOptions& common);
Runner add_batch_command(CLI::App& sub, CommonOptions& common);
Runner add_index_command(CLI::App& sub, CommonOptions& common);
Runner add_reach_command(CLI::App& sub, CommonOptions& common);
Runner add_reduce_command(CLI::App& sub, CommonOptions& common);
Runner add_serve_command(CLI::App& sub, CommonOptions& common);

// What MPI ranks must agree on before running: the subcommand and the options it was given
// (the graph's path aside), as one text (cli/request_key.cpp).
std::string request_key(const CLI::App& sub);

// Maps a failure to its exit status and prints it (see closure/errors.hpp for the kinds).
int report_failure(const std::exception& e);
// Runs `body`, mapping any exception through report_failure.
int guarded(const std::function<int()>& body);

// devices and bench run in their callbacks; they too fill the `sub` run_cli made.
void add_devices_command(CLI::App& sub);
void add_bench_command(CLI::App& sub);
void add_bench_dense_command(CLI::App& bench);
void add_bench_closure_command(CLI::App& bench);
void add_bench_gemm_command(CLI::App& bench);
void add_bench_bool_command(CLI::App& bench);
void add_bench_propagate_command(CLI::App& bench);
void add_bench_read_command(CLI::App& bench);
void add_bench_chains_command(CLI::App& bench);
void add_bench_index_command(CLI::App& bench);
void add_bench_serve_command(CLI::App& bench);

}  // namespace closure::cli
