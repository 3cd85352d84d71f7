// `closure FILE`: read, close, optionally verify and write; a summary on stderr (or JSON
// on stdout with --json).
#include <unistd.h>

#include <cstdio>
#include <memory>

#include "cli/commands.hpp"
#include "closure/tool/run_graph.hpp"

namespace closure::cli {
namespace {

struct RunFlags {
  std::string input, output, output_format = "edges";
  bool reflexive = false, json = false, verify = false, force = false;
  size_t verify_sources = 64;
  uint64_t max_output = 1000000000;
};

}  // namespace

Command add_run_command(CLI::App& app, CommonOptions& common) {
  auto flags = std::make_shared<RunFlags>();
  std::vector<CLI::Option*> own;
  own.push_back(
      app.add_option("graph", flags->input,
                     "Graph file (edge list, .gra, DIMACS, .mtx, .dot; .gz too; - for stdin)"));
  own.push_back(app.add_option("-o,--output", flags->output,
                               "Write the closure to this file (- for stdout)"));
  own.push_back(app.add_option("--output-format", flags->output_format,
                               "edges | matrix-market | json | binary")
                    ->check(CLI::IsMember({"edges", "matrix-market", "json", "binary"}))
                    ->capture_default_str());
  own.push_back(app.add_flag("--reflexive", flags->reflexive,
                             "Add every (v,v) to the closure (default: strict)"));
  own.push_back(app.add_flag("--json", flags->json, "Print the summary as JSON on stdout"));
  own.push_back(app.add_flag("--verify", flags->verify,
                             "Also compare with Boost.Graph's transitive_closure"));
  own.push_back(
      app.add_option(
             "--verify-sources", flags->verify_sources,
             "BFS sources for the sampled check when Boost's closure would not fit in memory")
          ->check(at_least_one_source())
          ->capture_default_str());
  own.push_back(app.add_flag("--force", flags->force, "Write outputs larger than --max-output"));
  own.push_back(app.add_option("--max-output", flags->max_output,
                               "Refuse (without --force) to write more bytes than this")
                    ->capture_default_str());
  Command cmd;
  cmd.app = &app;
  cmd.own_options = own;
  cmd.run = [flags, &common]() -> int {
    if (flags->input.empty()) {
      std::fprintf(stderr, "closure: no graph given (try closure --help)\n");
      return kExitUsage;
    }
    try {
      LazyRuntime runtime(common);
      RunOptions o;
      o.input = flags->input;
      o.input_format = input_format(common);
      o.compute = compute_options(common, runtime);
      o.output = flags->output;
      o.output_format = parse_output_format(flags->output_format);
      o.reflexive = flags->reflexive;
      o.force = flags->force;
      o.output_limit = flags->max_output;
      if (!common.quiet && ::isatty(STDERR_FILENO)) {
        const std::string name = flags->output;
        o.write_progress = [name](double share) {
          std::fprintf(stderr, "\rclosure: writing %s %3.0f%%%s", name.c_str(), 100 * share,
                       share >= 1.0 ? "\n" : "");
        };
      }
      o.verify = flags->verify;
      o.verify_memory = common.verify_memory;
      o.verify_sources = flags->verify_sources;
      const RunSummary s = run_graph(o);
      if (flags->json)
        std::fputs(summary_json(s).c_str(), stdout);
      else if (!common.quiet)
        std::fputs(summary_text(s).c_str(), stderr);
      return s.verify ? verdict_status(s.verify->verdict()) : kExitOk;
    } catch (const std::exception& e) {
      return report_failure(e);
    }
  };
  return cmd;
}

}  // namespace closure::cli
