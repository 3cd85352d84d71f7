// `closure query FILE u v` or `--pairs FILE`: reachability answers in the input's labels;
// the closure is computed once per run, unknown labels are reported per line.
#include <cerrno>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <memory>
#include <sstream>

#include "cli/commands.hpp"
#include "closure/graph/input_error.hpp"
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
    // The pairs file is checked before the graph is closed: a folder given by mistake
    // (which opens, then reads as empty) must fail, not answer nothing with exit 0.
    std::ifstream file;
    if (!flags->pairs.empty() && flags->pairs != "-") {
      std::error_code ec;
      if (std::filesystem::is_directory(flags->pairs, ec))
        throw InputError(flags->pairs, 0, "is a folder, not a file of 'u v' pairs");
      file.open(flags->pairs);
      if (!file)
        throw InputError(flags->pairs, 0, std::string("cannot open: ") + std::strerror(errno));
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
    std::istream* in = flags->pairs == "-" ? &std::cin : &file;
    const QueryBatchStats stats = answer_pairs(index, *in, flags->pairs, std::cout);
    if (in->bad()) throw InputError(flags->pairs, 0, "read error");
    if (!common.quiet)
      std::fprintf(stderr,
                   "closure query: %zu answered (%zu reachable), %zu unknown labels, %zu "
                   "malformed lines\n",
                   stats.answered, stats.reachable, stats.unknown, stats.malformed);
    return stats.unknown || stats.malformed ? kExitInput : kExitOk;
  };
}

}  // namespace closure::cli
