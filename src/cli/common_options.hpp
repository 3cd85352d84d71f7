// Options every graph-reading command shares (device, method, formats, progress), added
// to each subcommand in one "Shared options" group so that each --help lists them; and
// the device opening every command (bench included) does the same way.
#pragma once

#include <CLI/CLI.hpp>
#include <memory>
#include <optional>
#include <string>
#include <string_view>

#include "app/tool/progress.hpp"
#include "app/tool/run_graph.hpp"
#include "closure/engine/compute.hpp"
#include "closure/graph/read_graph.hpp"
#include "closure/ocl/device.hpp"
#include "closure/ocl/runtime.hpp"
#include "closure/session/session.hpp"

namespace closure::cli {

struct CommonOptions {
  std::string device;  // --device; empty: CLOSURE_DEVICE, then the default
  std::string method = "auto";
  std::string input_format = "auto";
  bool header = false, no_header = false;  // --header, --no-header (neither: guessed)
  std::string delimiter;                   // --delimiter; empty: the format's own
  std::string params;                      // --kernel-params, e.g. "tile_n=4,tile_m=2"
  bool quiet = false;
  std::string verify_memory;  // bytes Boost.Graph's closure may use; empty: a quarter of RAM
  bool progress = false, no_progress = false;  // --progress, --no-progress (neither: auto)
  unsigned threads = 0;  // --threads: the host thread budget; 0: the hardware's threads
};

// The shared options a subcommand uses, so that its --help lists only those.
enum SharedOption : unsigned {
  kDeviceOption = 1u << 0,    // --device
  kMethodOption = 1u << 1,    // --method
  kFormatOption = 1u << 2,    // --input-format, --header, --no-header, --delimiter
  kParamsOption = 1u << 3,    // --kernel-params
  kVerifyOption = 1u << 4,    // --verify-memory
  kProgressOption = 1u << 5,  // --progress, --no-progress
  kThreadsOption = 1u << 6,   // --threads
  kQuietOption = 1u << 7,     // --quiet
  // What a command that computes a closure uses; one that only reads a graph uses the last.
  kClosureOptions =
      kDeviceOption | kMethodOption | kFormatOption | kParamsOption | kThreadsOption | kQuietOption,
  kReadOptions = kFormatOption | kThreadsOption | kQuietOption,
};
void add_common_options(CLI::App& sub, CommonOptions& o, unsigned which);
// --verify-memory says how a verification may run: refused (UsageError) without --verify,
// where nothing would read it.
void refuse_verify_options_without_verify(const CommonOptions& o, bool verify);
// --output-format with the one help text and choices (the writers' table): run and reduce.
CLI::Option* add_output_format_option(CLI::App& sub, std::string& format);
// A CLI11 validator from a library check that throws UsageError: a bad value is refused at
// parse time (exit 2, naming the option) with the check's own message.
CLI::Validator usage_checked(void (*check)(const std::string&), const std::string& name);
// --output-format's check: a format's name or alias in any case, kept as its canonical name
// (canonical_output_spec_name); "dot" too where `dot_allowed`.
CLI::Validator output_format_checked(bool dot_allowed);
// --device with the one help text; every command with a device uses it.
CLI::Option* add_device_option(CLI::App& sub, std::string& device);

// The device a --device value names (nullopt: the host), chosen by a session without opening
// it; failures as UsageError naming --device.
std::optional<DeviceFacts> choose_device(const std::string& spec);
// The session of a command that opens only a device (bench): its --device, quiet.
SessionOptions device_session_options(const std::string& spec);

// Calls `parse`, naming the option in the UsageError a library parser throws for a user's
// value (exit 2). Nothing else is translated: the library says a value is the user's fault
// by throwing UsageError, and anything else keeps its kind.
template <class F>
auto as_usage_error(const std::string& option, F&& parse) -> decltype(parse()) {
  try {
    return parse();
  } catch (const UsageError& e) {
    // A message that names its source already (--device X, $CLOSURE_DEVICE=X) as it is.
    const std::string_view what = e.what();
    if (what.starts_with(option) || what.starts_with('$')) throw;
    throw UsageError(option + ": " + e.what());
  }
}

// Flushes standard output and error; returns `status`, or 4 when standard output could not
// be written (say on a full disk).
int finish_output(int status);
// finish_output, then ends the process at once: the driver's teardown, a large part of a
// short GPU run, and a speculative opening still in progress are not waited for. Where
// may_skip_device_teardown() is false (sanitized builds, mpirun), returns the status instead, for a
// normal exit.
int exit_without_teardown(int status);

// The session the flags describe (device, threads, quiet); the process ends after it.
SessionOptions session_options(const CommonOptions& o);
// ComputeOptions from the flags (--method, --kernel-params checked now, so a typo fails
// before any work), the device coming from `session`, opened as `opening` says.
ComputeOptions compute_options(const CommonOptions& o, Session& session,
                               DeviceOpening opening = DeviceOpening::kNow);
// How to read the graph: --input-format, --header / --no-header and --delimiter, checked
// (UsageError naming the option).
ReadOptions read_options(const CommonOptions& o);

// A 64-bit unsigned option's text as written: decimal digits only, within range (CLI11's own
// conversion reads "-1" and any overflow as 2^64 - 1, and "010" as octal). For seeds.
CLI::Validator unsigned_decimal();
// For --verify-sources / --sources: 0 sources would check nothing and must not say MATCH.
CLI::Validator at_least_one_source();
size_t verify_memory(const CommonOptions& o);  // 0: the default budget
// The progress line for this run, or null when none is to be shown.
std::unique_ptr<ProgressLine> make_progress(const CommonOptions& o);

// Refuses --json beside an output that is standard output too: "-", or a name of the file
// or stream standard output is (/dev/stdout, /dev/fd/1, the file it is redirected to),
// where the closure and the summary would be mixed or one written over the other.
// `what`: "closure" or "reduction", for the message.
void refuse_json_beside_output(bool json, const std::string& output, const char* what);
// Refuses `output` before any work, as run does (check_output_target: a folder, the input
// itself, a hard-linked file, ...); an empty output is none.
void refuse_output_target(const std::string& input, const std::string& output);
// How a command that reads a graph without closing it (reach, reduce, index, index --append)
// reads it: a Request of `input` read as the flags say, the output its guard checks, and the
// progress line when one is shown, through the pipeline's read stage (read_input), which
// fills `summary`'s reading facts.
ReadResult read_command_input(const CommonOptions& o, const std::string& input,
                              const std::string& output, RunSummary& summary);

}  // namespace closure::cli
