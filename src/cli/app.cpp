// The CLI11 app: the default subcommand `run` plus the others, each with the shared
// option group; parsing, then the chosen command's runner under report_failure.
#include <sys/stat.h>

#include <algorithm>
#include <cerrno>
#include <cstdio>
#include <cstring>
#include <sstream>
#include <string>
#include <vector>

#include "app/distributed/request_agreement.hpp"
#include "app/process/exit_watcher.hpp"
#include "cli/commands.hpp"
#include "closure/config.hpp"
#include "closure/ocl/device.hpp"
#include "closure/session/communicator.hpp"
#include "closure/session/device_opener.hpp"
#include "closure/util/input_registry.hpp"
#include "closure/version.hpp"

namespace closure::cli {
namespace {

constexpr const char* kDescription =
    "closure: transitive closure and reachability on directed graphs, on any OpenCL device\n"
    "(a GPU, or the CPU through PoCL) or on the host, checked against Boost.Graph.\n\n"
    "  closure graph.txt                  closure summary (vertices, SCCs, pairs, method, times)\n"
    "  closure graph.txt -o closure.txt   also write the closure in the input's labels\n"
    "  closure query graph.txt u v        does u reach v?\n"
    "  closure index graph.txt -o g.idx   reachability index; closure query g.idx u v\n"
    "  closure reach graph.txt u          what u reaches (--ancestors: what reaches u)\n"
    "  closure reduce graph.txt -o r.txt  transitive reduction\n"
    "  closure verify graph.txt           compare with Boost.Graph's transitive_closure\n"
    "  closure batch dags/ --out results/ many files, one summary table\n\n"
    "`closure FILE ...` is `closure run FILE ...`: run is the default subcommand.";

// Every command, in the order `closure --help` lists them. Only the command a command line
// names (and run, the default, whose options tell a graph's name from a command's) is built
// with its options: building all of them was a fifth of a small graph's instructions.
struct Command {
  const char* name;
  const char* description;
  Runner (*add)(CLI::App& sub, CommonOptions& common);  // a command run in a Session
  void (*add_plain)(CLI::App& sub);                     // one that runs in its callback
  unsigned shared;                                      // add_common_options's groups
  // Its work runs in processes it forks (batch's workers): its runner runs outside the
  // session's thread arena, since TBB can be ended before a fork only outside every arena
  // (inside one, `--threads 1` crashed at the end of the batch), and it shares the budget
  // out among its workers itself.
  bool forks_workers = false;
};
struct CommandRunner {
  CLI::App* sub;
  Runner run;
  bool forks_workers;
};
const Command kCommands[] = {
    {"run", "Close a graph (the default command: `closure FILE` is `closure run FILE`)",
     add_run_command, nullptr, kClosureOptions | kVerifyOption | kProgressOption},
    {"query", "Answer reachability questions: does u reach v?", add_query_command, nullptr,
     kClosureOptions | kProgressOption},
    {"verify",
     "Compare the closure with Boost.Graph's transitive_closure; exit 1 on any mismatch, 5 when "
     "a sampled check compared too few pairs to say (INCONCLUSIVE)",
     add_verify_command, nullptr, kClosureOptions | kVerifyOption},
    {"batch",
     "Close many graph files (folders recursively), each in a worker process; summary.csv and "
     "summary.json in --out. Exit 4 if a file failed, else 1 on a mismatch, else 5 if a "
     "verification was inconclusive",
     add_batch_command, nullptr, kClosureOptions | kVerifyOption, /*forks_workers=*/true},
    {"index", "Build a reachability index file for fast queries (closure query FILE.idx u v)",
     add_index_command, nullptr, kReadOptions},
    {"reach", "List the vertices u reaches (descendants), or with --ancestors those reaching u",
     add_reach_command, nullptr, kReadOptions},
    {"reduce", "Transitive reduction: the fewest edges with the same reachability",
     add_reduce_command, nullptr, kReadOptions},
    {"serve",
     "Answer reachability over HTTP/JSON from a long-lived process; appends go to a journal "
     "beside the index, held while it runs: one service an index, and no closure index written "
     "onto it (docs/formats.md, \"closure serve\")",
     add_serve_command, nullptr, kReadOptions},
    {"devices", "List OpenCL devices (the index is what --device takes)", nullptr,
     add_devices_command, 0},
    {"bench",
     "Benchmarks that print figures: gemm, bool, dense, closure, propagate, read, chains, index, "
     "serve",
     nullptr, add_bench_command, 0},
};

// Edits (insertions, deletions, substitutions, swaps of neighbours) from a to b.
size_t edit_distance(const std::string& a, const std::string& b) {
  std::vector<std::vector<size_t>> d(a.size() + 1, std::vector<size_t>(b.size() + 1));
  for (size_t i = 0; i <= a.size(); ++i) d[i][0] = i;
  for (size_t j = 0; j <= b.size(); ++j) d[0][j] = j;
  for (size_t i = 1; i <= a.size(); ++i)
    for (size_t j = 1; j <= b.size(); ++j) {
      d[i][j] = std::min(
          {d[i - 1][j] + 1, d[i][j - 1] + 1, d[i - 1][j - 1] + (a[i - 1] == b[j - 1] ? 0 : 1)});
      if (i > 1 && j > 1 && a[i - 1] == b[j - 2] && a[i - 2] == b[j - 1])
        d[i][j] = std::min(d[i][j], d[i - 2][j - 2] + 1);
    }
  return d[a.size()][b.size()];
}

// `closure runn g.txt` is a mistyped command, not the graph "runn": refused with the command
// meant when the word names no file and is a typo or two away from a command's name.
void refuse_mistyped_command(const std::string& word) {
  struct stat st {};
  if (word.size() < 3 || word.find_first_of("/.") != std::string::npos ||
      ::stat(word.c_str(), &st) == 0)
    return;
  for (const Command& c : kCommands) {
    const std::string name = c.name;
    if (edit_distance(word, name) <= std::min<size_t>(2, name.size() / 2))
      throw UsageError("unknown command '" + word + "'; did you mean `closure " + name +
                       "`? (no graph file of that name exists either)");
  }
}

// The command of the table named `word` (null: none).
const Command* command_named(const std::string& word) {
  for (const Command& c : kCommands)
    if (word == c.name) return &c;
  return nullptr;
}

// `closure FILE ...` means `closure run FILE ...`: the name is inserted unless the first
// word that is not an option (or an option's value) already names a subcommand, or the
// command line only asks for --help or --version. Shared options given before a
// subcommand's name (`closure -q batch dir`) are moved after it, where they are defined.
std::vector<std::string> with_default_subcommand(CLI::App& run, int argc, char** argv) {
  std::vector<std::string> args(argv + 1, argv + argc);
  bool other_options = args.empty();  // bare `closure`: run says "no graph given"
  for (size_t i = 0; i < args.size(); ++i) {
    const std::string& a = args[i];
    if (a == "--") break;
    if (a.size() > 1 && a[0] == '-') {
      if (a != "-h" && a != "--help" && a != "--version") other_options = true;
      // An option of run's that needs a value consumes the next word (unless --opt=value);
      // a flag (expected_min 0, though its type size is 1: `--quiet=false`) does not.
      const CLI::Option* o = run.get_option_no_throw(a);
      if (o && o->get_expected_min() > 0 && a.find('=') == std::string::npos) ++i;
      continue;
    }
    if (command_named(a)) {
      std::rotate(args.begin(), args.begin() + long(i), args.begin() + long(i) + 1);
      return args;
    }
    refuse_mistyped_command(a);
    other_options = true;
    break;
  }
  if (other_options) args.insert(args.begin(), "run");
  return args;
}

// Under mpirun -np 2 or more only the closure pipeline runs (run, verify: run_graph() shares
// the work among the ranks); every rank refuses the rest.
int refuse_distributed(const std::string& command) {
  std::fprintf(stderr,
               "closure: `closure %s` does not run on %d MPI ranks; only the closure itself "
               "(`closure FILE`, `closure verify FILE`) is distributed. Run it as one "
               "process\n",
               command.c_str(), distributed_communicator()->size());
  return kExitUsage;
}

// `closure run` ends in its watcher (app/process/exit_watcher.hpp) as soon as its output is closed,
// not after a GPU driver's threads have died: where a GPU may be present and the run may
// open one (run_may_open_gpu: not for a small plain file under auto, whose fork would cost
// more than its run), unless CLOSURE_EXIT_WATCHER says otherwise. Never under mpirun (mpirun
// waits for its ranks), nor by default in sanitized builds (their leak check runs at the
// worker's exit, after the watcher has ended; "on" forces it there too, for its own tests).
bool wants_exit_watcher(const CommonOptions& common, const CLI::App& run) {
  if (distributed_communicator()) return false;
  const std::string forced = config::text(config::kExitWatcher);
  if (forced == "on" || forced == "off") return forced == "on";
  if (!may_skip_device_teardown() || !ocl::gpu_may_be_present()) return false;
  const CLI::Option* graph = run.get_option_no_throw("graph");
  const std::string input = graph && graph->count() ? graph->as<std::string>() : "";
  try {
    return run_may_open_gpu(session_options(common), parse_method(common.method), input);
  } catch (const UsageError&) {
    return false;  // the run refuses the method before any device is opened
  }
}

// Under mpirun, before any collective: kExitOk when every rank was given `request`, else the
// usage status after the one message (app/distributed/request_agreement.hpp).
int agree_under_mpi(Communicator* ranks, const std::string& request) {
  if (!ranks) return kExitOk;
  return guarded([&] {
    agree_on_request(*ranks, request);
    return kExitOk;
  });
}

// Adds command `c` with its options to its shell `sub`: a runner for the commands that
// run in a Session (appended to `runners`).
// `bench gem`: the benchmark named back with the ones there are (CLI11 says only "A
// subcommand is required").
void refuse_unknown_benchmark(CLI::App& app, const std::vector<std::string>& args) {
  if (args.size() < 2 || args[1].rfind('-', 0) == 0) return;
  std::string names;
  bool known = false;
  for (const CLI::App* b : app.get_subcommand("bench")->get_subcommands({})) {
    known = known || b->get_name() == args[1];
    names += (names.empty() ? "" : ", ") + b->get_name();
  }
  if (!known)
    throw UsageError("bench: unknown benchmark '" + args[1] + "'; the benchmarks: " + names);
}

void build_command(const Command& c, CLI::App& sub, CommonOptions& common,
                   std::vector<CommandRunner>& runners) {
  if (!c.add) return c.add_plain(sub);
  Runner r = c.add(sub, common);
  add_common_options(sub, common, c.shared);
  sub.footer(kExitStatusHelp);
  runners.push_back({&sub, std::move(r), c.forks_workers});
}

// What CLI11 prints for a parse's end (--help, --version, a usage error), its exit status:
// the help written in one checked write, as a closure is. Through std::cout, a failure
// past stdio's 4 KiB buffer (the run command's help into /dev/full) left only ferror set,
// and the final flush, the one judged (finish_output), found nothing left to fail: exit 0.
int print_parse_exit(CLI::App& app, const CLI::ParseError& e) {
  std::ostringstream out;
  const int code = app.exit(e, out, std::cerr);
  const std::string text = out.str();
  errno = 0;
  if (std::fwrite(text.data(), 1, text.size(), stdout) < text.size() && errno != EPIPE) {
    std::fprintf(stderr, "closure: cannot write standard output: %s\n", std::strerror(errno));
    return kExitFailure;
  }
  return code == 0 ? kExitOk : kExitUsage;
}

}  // namespace

int run_cli(int argc, char** argv) {
  CLI::App app{kDescription, "closure"};
  app.footer(kExitStatusHelp);
  app.set_version_flag("--version", std::string("closure ") + CLOSURE_VERSION);
  app.require_subcommand(0, 1);
  CommonOptions common;
  std::vector<CommandRunner> runners;
  CLI::App* run = app.add_subcommand(kCommands[0].name, kCommands[0].description);
  CLI::App* verify = nullptr;
  build_command(kCommands[0], *run, common, runners);

  // CLI11's own messages speak with the tool's prefix, as every other message does.
  app.failure_message([](const CLI::App* a, const CLI::Error& e) {
    return "closure: " + CLI::FailureMessage::simple(a, e);
  });
  std::vector<std::string> args;
  try {
    args = with_default_subcommand(*run, argc, argv);
  } catch (const std::exception& e) {
    return report_failure(e);
  }
  // The command named first (with_default_subcommand puts it there), with its options; where
  // none is (--help or --version alone), every command's shell, for the help's list. Each
  // shell costs the process start a few microseconds, so a run builds none but its own.
  const Command* named = args.empty() ? nullptr : command_named(args.front());
  for (const Command& c : kCommands) {
    if (&c == &kCommands[0] || (named && named != &c)) continue;
    CLI::App* sub = app.add_subcommand(c.name, c.description);
    if (named != &c) continue;
    build_command(c, *sub, common, runners);
    if (std::string(c.name) == "verify") verify = sub;
  }
  try {
    if (!args.empty() && args[0] == "bench") refuse_unknown_benchmark(app, args);
  } catch (const std::exception& e) {
    return report_failure(e);
  }
  Communicator* ranks = distributed_communicator();
  // bench runs inside the parse (its subcommands' callbacks): refused before it, once the
  // ranks agree that they were all given bench.
  if (!args.empty() && args.front() == "bench" && ranks) {
    const int status = agree_under_mpi(ranks, "bench");
    return status != kExitOk ? status : refuse_distributed("bench");
  }
  std::reverse(args.begin(), args.end());  // CLI11 takes them last-first
  try {
    app.parse(args);
  } catch (const CLI::ParseError& e) {
    // Under mpirun the ranks still agree first: one that cannot parse its command line
    // must not leave the others waiting in a collective.
    const int status = agree_under_mpi(
        ranks, std::string("(a command line that does not parse: ") + e.what() + ")");
    if (status != kExitOk) return status;
    return print_parse_exit(app, e);
  } catch (const std::exception& e) {
    return report_failure(e);
  }
  const InputScope command_inputs;  // no output of this command may replace its inputs
  for (auto& [sub, runner, forks_workers] : runners)
    if (sub->parsed()) {
      // Before any collective: every rank runs this request, or every rank stops.
      if (const int status = agree_under_mpi(ranks, request_key(*sub)); status != kExitOk)
        return status;
      if (sub != run && sub != verify && ranks) return refuse_distributed(sub->get_name());
      if (sub == run && wants_exit_watcher(common, *run)) start_exit_watcher();
      return guarded([&, &runner = runner, forks_workers = forks_workers] {
        Session session(session_options(common));
        if (forks_workers) return runner(session);
        return session.run([&] { return runner(session); });
      });
    }
  return kExitOk;
}

}  // namespace closure::cli
