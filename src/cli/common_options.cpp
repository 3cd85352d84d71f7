// Shared flags and the device opening that every command does the same way.
#include "cli/common_options.hpp"

#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <charconv>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <iostream>
#include <thread>

#include "app/process/exit_watcher.hpp"
#include "app/process/gpu_drivers_only.hpp"
#include "app/process/teardown_handoff.hpp"
#include "app/tool/closure_writer.hpp"
#include "closure/config.hpp"
#include "closure/executor.hpp"
#include "closure/io/byte_size.hpp"
#include "closure/kernels/boolean_params.hpp"
#include "closure/ocl/device.hpp"
#include "closure/session/communicator.hpp"
#include "closure/session/device_opener.hpp"
#include "closure/util/trace.hpp"

namespace closure::cli {
namespace {

std::string joined(const std::vector<std::string>& names) {
  std::string out;
  for (const auto& n : names) out += (out.empty() ? "" : " | ") + n;
  return out;
}

constexpr const char* kShared = "Shared options";

}  // namespace

CLI::Option* add_device_option(CLI::App& sub, std::string& device) {
  return sub.add_option(
      "--device", device,
      "OpenCL device: an index from `closure devices`, gpu, cpu, host, or part of its name "
      "(default: $CLOSURE_DEVICE, else the first GPU, else the first CPU device)");
}

void add_common_options(CLI::App& sub, CommonOptions& o, unsigned which) {
  if (which & kDeviceOption) add_device_option(sub, o.device)->group(kShared);
  if (which & kMethodOption)
    sub.add_option("-m,--method", o.method, "How to compute the closure:\n" + method_help())
        ->check(CLI::IsMember(method_names()))
        ->capture_default_str()
        ->group(kShared);
  if (which & kFormatOption)
    sub.add_option("-f,--input-format", o.input_format,
                   joined(input_format_names()) + " (auto: from the extension, then the content)")
        ->capture_default_str()
        ->group(kShared);
  if (which & kFormatOption) {
    auto* header = sub.add_flag("--header", o.header,
                                "The first row of a CSV, TSV or edge list is a header: skip it "
                                "(default: guessed from its words and the rows below)")
                       ->group(kShared);
    sub.add_flag("--no-header", o.no_header,
                 "The first row of a CSV, TSV or edge list is an edge, whatever its words")
        ->excludes(header)
        ->group(kShared);
    sub.add_option("--delimiter", o.delimiter,
                   "Read delimited text split on this character (',' ';' '|' ':' or tab; "
                   "default: ',' for CSV, tab for TSV, blanks for edge lists)")
        ->check(usage_checked([](const std::string& d) { parse_delimiter(d); }, "CHAR"))
        ->group(kShared);
  }
  if (which & kParamsOption)
    sub.add_option("--kernel-params", o.params,
                   "Boolean kernel parameters, e.g. tile_n=4,tile_m=2 (default: tuned per device)")
        ->group(kShared);
  if (which & kVerifyOption)
    sub.add_option("--verify-memory", o.verify_memory,
                   "Bytes (10G, 512MiB, ...) Boost.Graph's transitive_closure may use when "
                   "verifying; above it a sampled BFS check runs instead (default: a quarter of "
                   "physical memory)")
        ->group(kShared);
  if (which & kProgressOption) {
    auto* on = sub.add_flag("--progress", o.progress,
                            "Show progress on stderr for runs over a second (default: when "
                            "stderr is a terminal and not --quiet)")
                   ->group(kShared);
    sub.add_flag("--no-progress", o.no_progress, "Never show progress")
        ->group(kShared)
        ->excludes(on);
  }
  if (which & kThreadsOption)
    sub.add_option("--threads", o.threads,
                   "Host threads for everything: reading, products, propagation and batch jobs "
                   "share them (default: the hardware's threads)")
        ->check(CLI::Range(1u, 4096u))
        ->group(kShared);
  if (which & kQuietOption)
    sub.add_flag("-q,--quiet", o.quiet, "Print no summary or notes on stderr")->group(kShared);
}

std::optional<DeviceFacts> choose_device(const std::string& spec) {
  Session session(device_session_options(spec));
  return as_usage_error("--device", [&] { return session.chosen_device(); });
}

// A CLI process: one device spec for its life, ended without waiting for device teardown,
// and PoCL kept out of the loader when only a GPU will be opened.
SessionOptions cli_session_options() {
  SessionOptions s;
  s.process_ends_after = true;
  s.before_gpu_only_open = [] { ocl::load_gpu_drivers_only(); };
  return s;
}

SessionOptions device_session_options(const std::string& spec) {
  SessionOptions s = cli_session_options();
  s.device = spec;
  s.quiet = true;
  return s;
}

int finish_output(int status) {
  // Only this final flush is judged (std::cout shares stdout's buffer, synced with stdio,
  // so it is flushed here too): an earlier EPIPE (a reader that stopped, `| head`) leaves
  // ferror set and is a quiet stop, as everywhere else.
  errno = 0;
  const bool out_failed = std::fflush(stdout) != 0;
  const int err = errno;
  std::cout.flush();
  std::cerr.flush();
  std::fflush(stderr);
  if (out_failed && err != EPIPE && status == 0) {
    std::fprintf(stderr, "closure: cannot write standard output: %s\n", std::strerror(err));
    status = 4;
  }
  return status;
}

int exit_without_teardown(int status) {
  status = finish_output(status);
  trace("output flushed");
  if (exit_watched()) {
    // The watcher ends with the status now; this worker's own end is nobody's wait.
    status = close_standard_streams(status);
    report_exit_status(status);
    if (may_skip_device_teardown()) ::_exit(status);
    return status;
  }
  if (may_skip_device_teardown()) {
    // The kernel's release of a device context (slow on NVIDIA's driver) is not waited for.
    if (ocl::drivers_loaded()) exit_handing_off_teardown(status);
    ::_exit(status);
  }
  return status;
}

SessionOptions session_options(const CommonOptions& o) {
  SessionOptions s = cli_session_options();
  s.device = o.device;
  s.threads = o.threads;
  s.quiet = o.quiet;
  return s;
}

ComputeOptions compute_options(const CommonOptions& o, Session& session, DeviceOpening opening) {
  if (!o.params.empty())  // a typo fails before any work
    as_usage_error("--kernel-params", [&] { return parse_boolean_params(o.params); });
  ComputeOptions c = session.compute_options(parse_method(o.method), opening);
  c.params_override = o.params;
  if (!o.quiet)
    c.warn = [](const Warning& w) {
      std::fprintf(stderr, "closure: warning: %s\n", w.said_to(Audience::kCli).c_str());
    };
  return c;
}

void refuse_json_beside_output(bool json, const std::string& output, const char* what) {
  if (!json || output.empty()) return;
  struct stat out {
  }, named{};
  const bool same =
      output == "-" || (::fstat(STDOUT_FILENO, &out) == 0 && ::stat(output.c_str(), &named) == 0 &&
                        out.st_dev == named.st_dev && out.st_ino == named.st_ino);
  if (same)
    throw UsageError("--json and -o " + output + " would both write to standard output; write " +
                     "the " + what + " to another file or drop --json");
}

CLI::Validator unsigned_decimal() {
  return CLI::Validator(
      [](std::string& value) {
        uint64_t n = 0;
        const char* end = value.data() + value.size();
        const auto [at, ec] = std::from_chars(value.data(), end, n);
        return !value.empty() && value[0] != '+' && ec == std::errc() && at == end
                   ? std::string()
                   : "'" + value + "' is not a whole number from 0 to " +
                         std::to_string(UINT64_MAX);
      },
      "UINT");
}

CLI::Validator at_least_one_source() {
  // Decimal first: CLI11's conversion (strtoull) takes -1 as 2^64 - 1, "all sources".
  return CLI::Validator(
      [](std::string& value) {
        std::string bad = unsigned_decimal()(value);
        if (!bad.empty()) return bad;
        return value.find_first_not_of('0') == std::string::npos
                   ? std::string(
                         "must be at least 1: a sampled check from no source checks nothing")
                   : std::string();
      },
      "N>=1");
}

ReadOptions read_options(const CommonOptions& o) {
  ReadOptions r(
      as_usage_error("--input-format", [&] { return parse_input_format(o.input_format); }));
  r.header = o.header ? HeaderRow::kPresent : o.no_header ? HeaderRow::kAbsent : HeaderRow::kGuess;
  if (!o.delimiter.empty())
    r.delimiter = as_usage_error("--delimiter", [&] { return parse_delimiter(o.delimiter); });
  as_usage_error(!o.delimiter.empty() ? "--delimiter"
                 : o.no_header        ? "--no-header"
                                      : "--header",
                 [&] { return (check_read_options(r), 0); });
  return r;
}

CLI::Validator usage_checked(void (*check)(const std::string&), const std::string& name) {
  return CLI::Validator(
      [check](std::string& value) {
        try {
          check(value);
          return std::string();
        } catch (const UsageError& e) {
          return std::string(e.what());
        }
      },
      name);
}

CLI::Option* add_output_format_option(CLI::App& sub, std::string& format) {
  return sub
      .add_option("--output-format", format,
                  output_spec_choices() + " (default: from -o's extension, else edges)")
      ->transform(output_format_checked(/*dot_allowed=*/true));
}

CLI::Validator output_format_checked(bool dot_allowed) {
  return CLI::Validator(
      [dot_allowed](std::string& value) {
        try {
          value = canonical_output_spec_name(value, dot_allowed);
          return std::string();
        } catch (const UsageError& e) {
          return std::string(e.what());
        }
      },
      "FORMAT");
}

void refuse_verify_options_without_verify(const CommonOptions& o, bool verify) {
  if (!verify && !o.verify_memory.empty())
    throw UsageError("--verify-memory sets how --verify compares; it needs --verify");
}

size_t verify_memory(const CommonOptions& o) {
  if (o.verify_memory.empty()) return 0;  // the default: a quarter of physical memory
  const size_t bytes =
      size_t(as_usage_error("--verify-memory", [&] { return parse_byte_size(o.verify_memory); }));
  // 0 would read as the default, a full comparison: said, not taken silently.
  if (bytes == 0)
    throw UsageError("--verify-memory " + o.verify_memory +
                     ": Boost.Graph needs some memory; give at least 1 byte (1 forces the "
                     "sampled check), or leave it out for a quarter of physical memory");
  return bytes;
}

std::unique_ptr<ProgressLine> make_progress(const CommonOptions& o) {
  const ProgressMode mode = o.progress      ? ProgressMode::kOn
                            : o.no_progress ? ProgressMode::kOff
                                            : ProgressMode::kAuto;
  if (!progress_enabled(mode, ::isatty(STDERR_FILENO) != 0, o.quiet)) return nullptr;
  // CLOSURE_PROGRESS_DELAY (seconds) exists for tests: 0 shows every phase at once.
  double delay = 1.0;
  if (const std::string env = config::text(config::kProgressDelay); !env.empty())
    delay = std::atof(env.c_str());
  return std::make_unique<ProgressLine>(stderr, std::chrono::duration<double>(delay));
}

void refuse_output_target(const std::string& input, const std::string& output) {
  Request r;
  r.input = input;
  r.output = output;
  check_output_target(r);
}

ReadResult read_command_input(const CommonOptions& o, const std::string& input,
                              const std::string& output, RunSummary& summary) {
  Request r;
  r.input = input;
  r.read_options = read_options(o);
  r.output = output;
  auto progress = make_progress(o);
  r.progress = progress.get();
  return read_input(r, summary);  // the line is cleared (progress's end) before any output
}

}  // namespace closure::cli
