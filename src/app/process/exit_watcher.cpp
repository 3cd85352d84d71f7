// The watcher and its worker (exit_watcher.hpp).
#include "app/process/exit_watcher.hpp"

#include <fcntl.h>
#include <sys/prctl.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <csignal>
#include <initializer_list>

namespace closure {
namespace {

int report_fd = -1;     // the worker's end of the status pipe
pid_t worker_pid = -1;  // in the watcher

extern "C" void forward_to_worker(int sig) {
  if (worker_pid > 0) ::kill(worker_pid, sig);
}

// The signals a user or a script sends to stop a command; under nohup an ignored SIGHUP
// stays ignored.
void forward_signals() {
  for (int sig : {SIGINT, SIGTERM, SIGHUP, SIGQUIT, SIGUSR1, SIGUSR2}) {
    struct sigaction old {};
    if (::sigaction(sig, nullptr, &old) == 0 && old.sa_handler == SIG_IGN) continue;
    struct sigaction action {};
    action.sa_handler = forward_to_worker;
    sigemptyset(&action.sa_mask);
    action.sa_flags = SA_RESTART;
    ::sigaction(sig, &action, nullptr);
  }
}

[[noreturn]] void end_like_the_worker(pid_t worker) {
  int ws = 0;
  while (::waitpid(worker, &ws, 0) < 0 && errno == EINTR) {
  }
  if (WIFEXITED(ws)) ::_exit(WEXITSTATUS(ws));
  if (WIFSIGNALED(ws)) {
    const int sig = WTERMSIG(ws);
    const struct rlimit no_core { 0, 0 };
    ::setrlimit(RLIMIT_CORE, &no_core);  // the worker dumped its own core, if any
    ::signal(sig, SIG_DFL);
    sigset_t set;
    sigemptyset(&set);
    sigaddset(&set, sig);
    ::sigprocmask(SIG_UNBLOCK, &set, nullptr);
    ::raise(sig);
  }
  ::_exit(1);
}

[[noreturn]] void watch(int status_fd, pid_t worker) {
  worker_pid = worker;
  forward_signals();
  int status = 0;
  ssize_t got;
  do {
    got = ::read(status_fd, &status, sizeof status);
  } while (got < 0 && errno == EINTR);
  if (got == ssize_t(sizeof status)) ::_exit(status);
  end_like_the_worker(worker);  // it ended without a report: a crash, or another way out
}

}  // namespace

bool start_exit_watcher() {
  int fds[2];
  if (::pipe2(fds, O_CLOEXEC) != 0) return false;
  const pid_t watcher = ::getpid();
  const pid_t pid = ::fork();
  if (pid < 0) {
    ::close(fds[0]);
    ::close(fds[1]);
    return false;
  }
  if (pid > 0) {
    ::close(fds[1]);
    watch(fds[0], pid);
  }
  ::close(fds[0]);
  report_fd = fds[1];
  // A watcher killed outright (SIGKILL) takes the worker with it.
  ::prctl(PR_SET_PDEATHSIG, SIGKILL);
  if (::getppid() != watcher) ::_exit(1);
  return true;
}

bool exit_watched() {
  return report_fd >= 0;
}

void report_exit_status(int status) {
  if (report_fd < 0) return;
  ssize_t put;
  do {
    put = ::write(report_fd, &status, sizeof status);
  } while (put < 0 && errno == EINTR);
}

}  // namespace closure
