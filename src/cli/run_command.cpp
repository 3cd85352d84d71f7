// `closure run FILE` (the default: `closure FILE`): read, close, optionally verify and
// write; a summary on stderr (or JSON on stdout with --json).
#include <unistd.h>

#include <cstdio>
#include <memory>

#include "app/tool/run_graph.hpp"
#include "cli/commands.hpp"
#include "closure/io/byte_size.hpp"

namespace closure::cli {
namespace {

struct RunFlags {
  std::string input, output, output_format, max_output = "1000000000";
  bool reflexive = false, json = false, verify = false, force = false;
  size_t verify_sources = 64;
  CLI::Option* output_option = nullptr;
};

// The output flags checked together: what each alone cannot tell.
void check_output_flags(const RunFlags& f) {
  const bool has_output = f.output_option->count() > 0;
  if (has_output && f.output.empty())
    throw UsageError("-o was given an empty path (use - for standard output)");
  if (!f.output_format.empty() && !has_output)
    throw UsageError("--output-format needs -o (the summary's format is --json)");
  refuse_json_beside_output(f.json, f.output, "closure");
}

}  // namespace

Runner add_run_command(CLI::App& command, CommonOptions& common) {
  auto flags = std::make_shared<RunFlags>();
  auto* sub = &command;
  sub->add_option("graph", flags->input,
                  "Graph file (edge list, .gra, DIMACS, .mtx, .dot; .gz too; - for stdin)");
  flags->output_option = sub->add_option(
      "-o,--output", flags->output,
      "Write the closure to this file (- for stdout). The format follows the extension: .mtx "
      "Matrix Market, .json JSON, .bin binary, .csv/.tsv, .dot/.gv a Graphviz drawing, anything "
      "else an edge list; .gz on top "
      "compresses. A pipe, FIFO or device is written directly; a file is replaced atomically");
  add_output_format_option(*sub, flags->output_format);
  sub->add_flag("--reflexive", flags->reflexive,
                "Add every (v,v) to the closure (default: strict)");
  sub->add_flag("--json", flags->json, "Print the summary as JSON on stdout");
  auto* verify = sub->add_flag("--verify", flags->verify,
                               "Also compare with Boost.Graph's transitive_closure");
  sub->add_option("--verify-sources", flags->verify_sources,
                  "BFS sources for the sampled check when Boost's closure would not fit in memory")
      ->check(at_least_one_source())
      ->needs(verify)
      ->capture_default_str();
  sub->add_flag("--force", flags->force, "Write outputs larger than --max-output");
  sub->add_option("--max-output", flags->max_output,
                  "Refuse (without --force) to write a file larger than this many bytes (10G, "
                  "512MiB, ...; exact size, before compression; pipes and stdout are not limited)")
      ->capture_default_str();
  return [flags, &common](Session& session) -> int {
    if (flags->input.empty()) {
      std::fprintf(stderr, "closure: no graph given (try closure --help)\n");
      return kExitUsage;
    }
    check_output_flags(*flags);
    refuse_verify_options_without_verify(common, flags->verify);
    Request o;  // Work::kClosure: written with -o, else counted
    o.input = flags->input;
    o.read_options = read_options(common);
    o.compute = compute_options(common, session, DeviceOpening::kWhileReading);
    session.speculate_gpu_for_auto(o.compute, o.input);
    o.output = flags->output;
    if (!o.output.empty()) {
      const OutputSpec spec = requested_output_spec(o.output, flags->output_format);
      o.output_format = spec.format;
      o.output_gzip = spec.gzip;
      o.output_dot = spec.dot;
    }
    o.reflexive = flags->reflexive;
    o.force = flags->force;
    o.output_limit =
        as_usage_error("--max-output", [&] { return parse_byte_size(flags->max_output); });
    o.verify = flags->verify;
    o.verify_memory = verify_memory(common);
    o.verify_sources = flags->verify_sources;
    auto progress = make_progress(common);
    o.progress = progress.get();
    const RunSummary s = run_graph(o);  // across the ranks under mpirun -np 2 or more
    progress.reset();                   // the line is cleared before the summary
    if (flags->json)
      std::fputs(summary_json(s).c_str(), stdout);
    else if (!common.quiet)
      std::fputs(summary_text(s).c_str(), stderr);
    return s.verify ? verdict_status(s.verify->verdict()) : kExitOk;
  };
}

}  // namespace closure::cli
