// closure: transitive closure and reachability on directed graphs. Builds the CLI and
// maps failures to exit statuses; the work is in the library.
#include <cstdio>
#include <string>
#include <vector>

#include "cli/commands.hpp"
#include "version.hpp"

int main(int argc, char** argv) {
  CLI::App app{
      "closure: transitive closure and reachability on directed graphs, on any OpenCL device\n"
      "(a GPU, or the CPU through PoCL) or on the host."};
  app.set_version_flag("--version", std::string("closure ") + CLOSURE_VERSION);
  app.require_subcommand(1);
  closure::cli::add_devices_command(app);
  closure::cli::add_bench_command(app);
  try {
    app.parse(argc, argv);
  } catch (const CLI::ParseError& e) {
    return app.exit(e) == 0 ? closure::cli::kExitOk : closure::cli::kExitUsage;
  } catch (const std::exception& e) {
    std::fprintf(stderr, "closure: %s\n", e.what());
    return closure::cli::kExitFailure;
  }
  return closure::cli::kExitOk;
}
