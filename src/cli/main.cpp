// closure: transitive closure and reachability on directed graphs. The CLI is built and
// run in cli/app.cpp; the work is in the library.
#include <csignal>

#include "cli/commands.hpp"

int main(int argc, char** argv) {
  // A closed pipe is an EPIPE on write (a quiet stop), never a death by SIGPIPE (141).
  std::signal(SIGPIPE, SIG_IGN);
  return closure::cli::run_cli(argc, argv);
}
