// closure: transitive closure and reachability on directed graphs. Builds the CLI and
// maps failures to exit statuses; the work is in the library.
#include <cstdio>
#include <string>
#include <vector>

#include "cli/commands.hpp"
#include "closure/version.hpp"

int main(int argc, char** argv) {
  using namespace closure::cli;
  CLI::App app{
      "closure: transitive closure and reachability on directed graphs, on any OpenCL device\n"
      "(a GPU, or the CPU through PoCL) or on the host, checked against Boost.Graph.\n\n"
      "  closure graph.txt                  closure summary (vertices, SCCs, pairs, method, "
      "times)\n"
      "  closure graph.txt -o closure.txt   also write the closure in the input's labels\n"
      "  closure query graph.txt u v        does u reach v?\n"
      "  closure index graph.txt -o g.idx   reachability index; closure query g.idx u v\n"
      "  closure reach graph.txt u          what u reaches (--ancestors: what reaches u)\n"
      "  closure reduce graph.txt -o r.txt  transitive reduction\n"
      "  closure verify graph.txt           compare with Boost.Graph's transitive_closure\n"
      "  closure batch dags/ --out results/ many files, one summary table\n\n"
      "Exit status: 0 ok, 1 verification mismatch, 2 usage, 3 bad input, 4 other failure,\n"
      "5 verification inconclusive (a sampled check compared too few pairs)."};
  app.set_version_flag("--version", std::string("closure ") + CLOSURE_VERSION);
  app.require_subcommand(0, 1);
  app.fallthrough();
  CommonOptions common;
  add_common_options(app, common);
  std::vector<Command> commands{add_run_command(app, common),    add_query_command(app, common),
                                add_verify_command(app, common), add_batch_command(app, common),
                                add_index_command(app, common),  add_reach_command(app, common),
                                add_reduce_command(app, common)};
  add_devices_command(app);
  add_bench_command(app);
  try {
    app.parse(argc, argv);
  } catch (const CLI::ParseError& e) {
    return app.exit(e) == 0 ? kExitOk : kExitUsage;
  } catch (const std::exception& e) {
    return report_failure(e);
  }
  for (size_t i = 1; i < commands.size(); ++i) {
    if (!commands[i].app->parsed()) continue;
    for (const CLI::Option* o : commands[0].own_options)
      if (o->count() > 0) {
        std::fprintf(stderr, "closure %s: %s applies to `closure FILE`, not to this command\n",
                     commands[i].app->get_name().c_str(), o->get_name().c_str());
        return kExitUsage;
      }
    return commands[i].run();
  }
  if (app.get_subcommands().empty()) return commands[0].run();
  return kExitOk;
}
