// Each subcommand of `closure` registers itself on the CLI11 app; the callbacks call
// library functions and nothing more.
#pragma once

#include <CLI/CLI.hpp>

namespace closure::cli {

// Exit statuses scripts can rely on.
inline constexpr int kExitOk = 0;
inline constexpr int kExitMismatch = 1;  // verification found a difference
inline constexpr int kExitUsage = 2;     // bad command line
inline constexpr int kExitInput = 3;     // unreadable or malformed input
inline constexpr int kExitFailure = 4;   // anything else (device, memory, I/O)

void add_devices_command(CLI::App& app);
void add_bench_command(CLI::App& app);

}  // namespace closure::cli
