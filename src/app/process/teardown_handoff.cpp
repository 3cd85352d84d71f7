// See teardown_handoff.hpp.
#include "app/process/teardown_handoff.hpp"

#include <sched.h>
#include <signal.h>
#include <sys/prctl.h>
#include <unistd.h>

#include <cerrno>
#include <csignal>

namespace closure {
namespace {

// The child's stack: it shares the parent's memory, and runs a few system calls only.
alignas(64) char child_stack[16 * 1024];
pid_t parent_pid = 0;

int hold_until_parent_exits(void*) {
  // Killed when the parent ends (or at once if it already has); until then it only waits.
  // Its exit is the last reference to the memory and the files: the teardown happens here.
  ::prctl(PR_SET_PDEATHSIG, SIGKILL);
  if (::getppid() != parent_pid) ::_exit(0);
  for (;;) ::pause();
}

}  // namespace

int close_standard_streams(int status) {
  if (::close(STDOUT_FILENO) != 0 && errno != EBADF && status == 0) status = 4;
  ::close(STDIN_FILENO);
  ::close(STDERR_FILENO);
  return status;
}

void exit_handing_off_teardown(int status) {
  status = close_standard_streams(status);
  parent_pid = ::getpid();
  // SIGCHLD is not asked for: nobody waits for the child; init (or a subreaper) reaps it.
  (void)::clone(hold_until_parent_exits, child_stack + sizeof child_stack, CLONE_VM | CLONE_FILES,
                nullptr);
  ::_exit(status);  // with no child (clone failed) the teardown is simply paid here
}

}  // namespace closure
