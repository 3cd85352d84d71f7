// `closure query FILE u v` or `--pairs FILE`: reachability answers in the input's labels;
// the closure is computed once per run, unknown labels are reported per line.
#include <cstdio>
#include <fstream>
#include <iostream>
#include <memory>
#include <sstream>

#include "cli/commands.hpp"
#include "closure/tool/reachability_queries.hpp"
#include "closure/tool/run_graph.hpp"

namespace closure::cli {

Runner add_query_command(CLI::App& app, CommonOptions& common) {
  struct Flags {
    std::string input, u, v, pairs;
    bool reflexive = false;
  };
  auto flags = std::make_shared<Flags>();
  auto* sub = app.add_subcommand("query", "Answer reachability questions: does u reach v?");
  sub->add_option("graph", flags->input, "Graph file")->required();
  sub->add_option("u", flags->u, "Source vertex label");
  sub->add_option("v", flags->v, "Target vertex label");
  sub->add_option("--pairs", flags->pairs, "File of 'u v' lines to answer (- for stdin)");
  sub->add_flag("--reflexive", flags->reflexive, "Every vertex reaches itself");
  return [flags, &common]() -> int {
    if (flags->pairs.empty() == flags->v.empty() || flags->u.empty() != flags->v.empty()) {
      std::fprintf(stderr, "closure query: give either U V or --pairs FILE\n");
      return kExitUsage;
    }
    LazyRuntime runtime(common);
    RunOptions o;
    o.input = flags->input;
    o.input_format = input_format(common);
    o.compute = compute_options(common, runtime);
    const ClosedGraph closed = read_and_close(o);
    const ReachabilityIndex index(closed.graph.graph, closed.closure, flags->reflexive);
    if (flags->pairs.empty()) {
      const QueryAnswer a = index.answer(flags->u, flags->v);
      std::printf("%s\n", a.text.c_str());
      return a.status == QueryAnswer::kUnknownLabel ? kExitInput : kExitOk;
    }
    std::ifstream file;
    std::istream* in = &std::cin;
    if (flags->pairs != "-") {
      file.open(flags->pairs);
      if (!file) throw std::runtime_error("cannot read " + flags->pairs);
      in = &file;
    }
    const QueryBatchStats stats = answer_pairs(index, *in, flags->pairs, std::cout);
    if (!common.quiet)
      std::fprintf(stderr,
                   "closure query: %zu answered (%zu reachable), %zu unknown labels, %zu "
                   "malformed lines\n",
                   stats.answered, stats.reachable, stats.unknown, stats.malformed);
    return stats.unknown || stats.malformed ? kExitInput : kExitOk;
  };
}

}  // namespace closure::cli
