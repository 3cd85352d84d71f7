// `closure batch PATHS... --out DIR`: many files, one summary table; a progress bar on a
// terminal, otherwise a line every 30 s at most; exit status 4 if any file failed, else 1 on a
// mismatch, else 5 when a sampled verification was inconclusive.
#include <unistd.h>

#include <cmath>
#include <cstdio>
#include <filesystem>
#include <memory>

#include "app/tool/batch.hpp"
#include "app/tool/isolated.hpp"
#include "cli/commands.hpp"
#include "closure/io/byte_size.hpp"
#include "closure/io/failure_text.hpp"
#include "closure/io/utf8.hpp"

namespace closure::cli {
namespace {

// Without a terminal (a log, CI), a line per file would bury the output of a large
// batch: a line only every kLogInterval seconds, so a long batch still shows it is alive,
// and a short one writes nothing to stderr (its summary line goes to stdout).
constexpr double kLogInterval = 30;

void print_progress(const BatchProgress& p, bool tty, double& last_logged_s) {
  const double eta = p.done ? p.elapsed_s / double(p.done) * double(p.total - p.done) : 0;
  if (tty) {
    const int width = 30, filled = int(width * p.done / std::max<size_t>(p.total, 1));
    std::fprintf(stderr, "\r[%.*s%*s] %zu/%zu  %-40.40s  ETA %3.0f s ", filled,
                 "##############################", width - filled, "", p.done, p.total,
                 p.current.c_str(), eta);
    if (p.done == p.total) std::fputc('\n', stderr);
  } else if (p.done < p.total && p.elapsed_s - last_logged_s >= kLogInterval) {
    last_logged_s = p.elapsed_s;
    std::fprintf(stderr, "closure batch: %zu/%zu files (%.0f s elapsed, about %.0f s left)\n",
                 p.done, p.total, p.elapsed_s, eta);
  }
}

// A device named by --device is checked before any file, as in the other commands (through
// the same chooser, so the same error kinds and exit statuses), but in a child process:
// OpenCL opened here would not survive the fork of the workers. The child sends back the
// failure as io/failure_text.hpp writes it.
void check_device_spec(const std::string& spec) {
  if (spec.empty()) return;
  const IsolatedOutcome probe = run_isolated([&spec] {
    try {
      choose_device(spec);
      return std::string();
    } catch (...) {
      return failure_text(std::current_exception());
    }
  });
  if (!probe.completed) throw DeviceError("checking --device " + spec + ": " + probe.failure);
  if (!probe.result.empty()) throw_failure_text(probe.result);
}

// What the command line gives: the runner keeps it beyond the parse.
struct BatchFlags {
  std::vector<std::string> paths, include, exclude;
  std::string out, output_format = "edges";
  unsigned jobs = 1;
  double time_limit = 0;
  bool resume = false, verify = false, no_closures = false, reflexive = false, force = false;
  size_t verify_sources = 64;
  std::string max_output = "1000000000";
};

// --file-time-limit's check: a finite number of seconds, 0 or more.
CLI::Validator seconds_validator() {
  return CLI::Validator(
      [](std::string& text) -> std::string {
        double seconds = 0;
        try {
          seconds = std::stod(text);
        } catch (const std::exception&) {
          return "not a number of seconds: " + text;
        }
        return std::isfinite(seconds) && seconds >= 0
                   ? std::string()
                   : "must be a finite number of seconds, 0 or more: " + text;
      },
      "SECONDS");
}

// The subcommand's arguments and options.
void add_batch_options(CLI::App& sub, BatchFlags& flags) {
  sub.add_option("paths", flags.paths, "Graph files and folders")->required();
  sub.add_option("--out", flags.out, "Output folder")->required();
  // One pattern per occurrence (allow_extra_args(false)): `--include '*.txt' DIR` must leave
  // DIR to the paths.
  sub.add_option("--include", flags.include,
                 "Glob on the file name of files found in folders (repeatable; default: the "
                 "graph extensions, .gz too: *.txt *.edges *.gra *.mtx *.dot *.csv ...)")
      ->allow_extra_args(false);
  sub.add_option("--exclude", flags.exclude,
                 "Glob on the file name: files found in folders that match are not read "
                 "(repeatable)")
      ->allow_extra_args(false);
  sub.add_option("-j,--jobs", flags.jobs, "Files processed in parallel")->capture_default_str();
  sub.add_flag("--resume", flags.resume,
               "Skip files whose record still matches (same input, options and closure file)");
  sub.add_option("--file-time-limit", flags.time_limit,
                 "Seconds a file may take before its worker is killed and it fails (0: none)")
      ->check(seconds_validator())
      ->capture_default_str();
  auto* verify = sub.add_flag("--verify", flags.verify, "Verify every closure against Boost.Graph");
  sub.add_flag("--summary-only", flags.no_closures, "Write only the summary table, no closures");
  sub.add_option("--output-format", flags.output_format, "One of: " + output_format_choices())
      ->transform(output_format_checked(/*dot_allowed=*/false));
  sub.add_flag("--reflexive", flags.reflexive, "Add every (v,v)");
  sub.add_flag("--force", flags.force, "Write closures larger than --max-output");
  sub.add_option("--max-output", flags.max_output,
                 "Refuse (without --force) closures larger than this many bytes (10G, 512MiB, ...)")
      ->capture_default_str();
  sub.add_option("--verify-sources", flags.verify_sources, "BFS sources of a sampled verification")
      ->check(at_least_one_source())
      ->needs(verify)
      ->capture_default_str();
}

// The library's options for the batch; each file's child opens the device of `children`.
BatchOptions batch_options(const BatchFlags& flags, const CommonOptions& common,
                           Session& children) {
  BatchOptions o;
  o.paths = flags.paths;
  o.out_dir = flags.out;
  o.names = {flags.include, flags.exclude};
  o.jobs = flags.jobs;
  o.threads = children.threads();  // --threads, else the hardware's: batch runs in no arena
  o.file_time_limit_s = flags.time_limit;
  o.resume = flags.resume;
  o.write_closures = !flags.no_closures;
  o.run.read_options = read_options(common);
  o.run.compute = compute_options(common, children, DeviceOpening::kInChildren);
  o.run.output_format = parse_output_format(flags.output_format);
  o.run.verify = flags.verify;
  o.run.verify_memory = verify_memory(common);
  o.run.reflexive = flags.reflexive;
  o.run.force = flags.force;
  o.run.output_limit =
      as_usage_error("--max-output", [&] { return parse_byte_size(flags.max_output); });
  o.run.verify_sources = flags.verify_sources;
  return o;
}

// The summary table on stdout, one row a file; the exit status the rows add up to. A failed
// file's error goes to stderr too, so a script that keeps only stderr (or a table sent to a
// file) still learns why the status is not 0.
int print_summary(const std::vector<BatchRow>& rows, const std::vector<std::string>& stale,
                  const std::string& out, bool summaries_written) {
  size_t failed = 0, mismatched = 0, inconclusive = 0, skipped = 0;
  std::printf("%-50s %9s %10s %4s %12s %-9s %9s %-12s %s\n", "file", "vertices", "edges", "DAG",
              "pairs", "method", "seconds", "verify", "error");
  for (const auto& r : rows) {
    // A failed file's facts are unknown: blank, not "0 ... no".
    auto fact = [&r](const std::string& v) { return r.facts_known ? v : std::string(); };
    // A name that is not UTF-8 shows U+FFFD, as the summaries do.
    std::printf("%-50.50s %9s %10s %4s %12s %-9s %9.3f %-12s %s%s\n", utf8_replaced(r.file).c_str(),
                fact(std::to_string(r.vertices)).c_str(), fact(std::to_string(r.edges)).c_str(),
                fact(r.dag ? "yes" : "no").c_str(), fact(std::to_string(r.pairs)).c_str(),
                fact(r.method).c_str(), r.seconds, r.verify.c_str(), r.error.c_str(),
                r.skipped ? "(resumed)" : "");
    failed += !r.error.empty();
    mismatched += r.error.empty() && r.verify == "MISMATCH";
    inconclusive += r.error.empty() && r.verify == "INCONCLUSIVE";
    skipped += r.skipped;
  }
  for (const auto& r : rows) {
    if (r.error.empty()) continue;
    // Most errors name their file already (a parse error, with its line); not twice.
    const bool named = r.error.compare(0, r.file.size(), r.file) == 0;
    std::fprintf(stderr, "closure batch: %s%s%s\n", named ? "" : r.file.c_str(), named ? "" : ": ",
                 r.error.c_str());
  }
  for (const auto& file : stale)
    std::printf("removed the record of %s: the input no longer exists\n", file.c_str());
  const std::string where =
      summaries_written ? "summary in " + (std::filesystem::path(out) / "summary.csv").string()
                        : "no summary written in " + out;  // results/ not results//summary.csv
  std::printf("%zu %s: %zu ok, %zu failed, %zu mismatched, %zu inconclusive, %zu resumed; %s\n",
              rows.size(), rows.size() == 1 ? "file" : "files",
              rows.size() - failed - mismatched - inconclusive, failed, mismatched, inconclusive,
              skipped, where.c_str());
  return failed         ? kExitFailure
         : mismatched   ? kExitMismatch
         : inconclusive ? kExitInconclusive
                        : kExitOk;
}

}  // namespace

Runner add_batch_command(CLI::App& command, CommonOptions& common) {
  auto flags = std::make_shared<BatchFlags>();
  auto* sub = &command;
  add_batch_options(*sub, *flags);
  return [flags, &common](Session&) -> int {
    refuse_verify_options_without_verify(common, flags->verify);
    check_device_spec(common.device);
    // Each file's child opens the device itself, quietly: the table names it.
    CommonOptions child_common = common;
    child_common.quiet = true;
    Session children(session_options(child_common));
    const BatchOptions o = batch_options(*flags, common, children);
    const bool tty = ::isatty(STDERR_FILENO);
    const bool quiet = common.quiet;
    double last_logged_s = 0;
    std::vector<std::string> stale;
    std::string summaries_failed;
    const auto rows = run_batch(
        o,
        [tty, quiet, &last_logged_s](const BatchProgress& p) {
          if (!quiet) print_progress(p, tty, last_logged_s);
        },
        &stale, &summaries_failed);
    const int status = print_summary(rows, stale, flags->out, summaries_failed.empty());
    // Every file's outcome is out first; then why the summaries are not (a full disk).
    if (summaries_failed.empty()) return status;
    std::fprintf(stderr, "closure batch: %s\n", summaries_failed.c_str());
    return kExitFailure;
  };
}

}  // namespace closure::cli
