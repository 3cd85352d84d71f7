// closure: transitive closure and reachability on directed graphs. The CLI is built and
// run in cli/app.cpp; the work is in the library.
#include <fcntl.h>
#include <unistd.h>

#include <csignal>
#include <cstdlib>

#include "app/process/allocator_policy.hpp"
#include "app/process/mpi_launch.hpp"
#include "cli/commands.hpp"
#include "closure/config.hpp"
#include "closure/session/communicator.hpp"
#include "closure/util/trace.hpp"

namespace {

// Under mpirun only rank 0 speaks (the summary, --json, -o -, messages, progress): the
// other ranks' stdout and stderr go to /dev/null, unless CLOSURE_MPI_ALL_OUTPUT is set.
void mute_unless_asked() {
  if (!closure::config::text(closure::config::kMpiAllOutput).empty()) return;
  const int null_fd = ::open("/dev/null", O_WRONLY | O_CLOEXEC);
  if (null_fd < 0) return;
  ::dup2(null_fd, STDOUT_FILENO);
  ::dup2(null_fd, STDERR_FILENO);
  ::close(null_fd);
}

}  // namespace

int main(int argc, char** argv) {
  closure::trace("main");
  // A closed pipe is an EPIPE on write (a quiet stop), never a death by SIGPIPE (141).
  std::signal(SIGPIPE, SIG_IGN);
  // A file-size limit (ulimit -f) reached is a write's EFBIG, said with its file (exit 4),
  // never a death by SIGXFSZ (153) that a script cannot tell from a crash.
  std::signal(SIGXFSZ, SIG_IGN);
  closure::process::keep_freed_memory_for_reuse();
  std::unique_ptr<closure::process::MpiSession> session;
  const int started = closure::cli::guarded([&] {
    session = closure::process::MpiSession::start_if_launched(&argc, &argv);
    return 0;
  });
  if (started != 0) return started;
  if (session) {
    closure::set_process_communicator(&session->world());
    if (session->world().rank() != 0) mute_unless_asked();
  }
  const int status = closure::cli::run_cli(argc, argv);
  closure::set_process_communicator(nullptr);
  if (session) return closure::cli::finish_output(status);  // MPI_Finalize in ~MpiSession
  closure::trace("main ends");
  return closure::cli::exit_without_teardown(status);  // all output is written and closed
}
