// fork + pipe + waitpid, with the child's end decoded into a sentence.
#include "app/tool/isolated.hpp"

#include <fcntl.h>
#include <poll.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <cstdio>
#include <cstring>
#include <stdexcept>

#include "closure/errors.hpp"
#include "closure/executor.hpp"

namespace closure {
namespace {

// The first byte of the stream says whether the work returned ('R') or threw ('E').
bool write_all(int fd, const std::string& bytes) {
  for (size_t done = 0; done < bytes.size();) {
    const ssize_t n = ::write(fd, bytes.data() + done, bytes.size() - done);
    if (n > 0)
      done += size_t(n);
    else if (!(n < 0 && errno == EINTR))
      return false;
  }
  return true;
}

}  // namespace

IsolatedChild start_isolated(const std::function<std::string()>& work) {
  int fds[2];
  if (::pipe2(fds, O_CLOEXEC) != 0)
    throw ResourceError(std::string("cannot create a pipe: ") + std::strerror(errno));
  // Whatever the parent has buffered must not be written twice (once by each process).
  std::fflush(nullptr);
  // The child runs library work: it must start threads of its own (executor.hpp).
  end_worker_threads_before_fork();
  const pid_t pid = ::fork();
  if (pid < 0) {
    const int err = errno;
    ::close(fds[0]);
    ::close(fds[1]);
    throw ResourceError(std::string("cannot start a process: ") + std::strerror(err));
  }
  if (pid == 0) {
    ::close(fds[0]);
    // A crashing input is an expected outcome here, not something to debug from a core
    // file; without this each one could leave a core dump of the whole process.
    const rlimit no_core{0, 0};
    ::setrlimit(RLIMIT_CORE, &no_core);
    std::string message;
    try {
      message = 'R' + work();
    } catch (const std::exception& e) {
      message = std::string("E") + said_to(e, Audience::kCli);
    } catch (...) {
      message = "Eunknown exception";
    }
    std::fflush(nullptr);  // the child's own prints
    ::_exit(write_all(fds[1], message) ? 0 : 3);
  }
  ::close(fds[1]);
  // Non-blocking, so that one driver loop can serve several children with poll().
  ::fcntl(fds[0], F_SETFL, ::fcntl(fds[0], F_GETFL) | O_NONBLOCK);
  IsolatedChild child;
  child.pid = pid;
  child.fd = fds[0];
  return child;
}

bool read_isolated(IsolatedChild& child) {
  char buf[65536];
  for (;;) {
    const ssize_t n = ::read(child.fd, buf, sizeof buf);
    if (n > 0) {
      child.received.append(buf, size_t(n));
      continue;
    }
    if (n < 0 && errno == EINTR) continue;
    if (n < 0 && (errno == EAGAIN || errno == EWOULDBLOCK)) return false;
    return true;  // end of stream, or an error that ends it
  }
}

IsolatedOutcome finish_isolated(IsolatedChild& child) {
  ::close(child.fd);
  child.fd = -1;
  int status = 0;
  while (::waitpid(child.pid, &status, 0) < 0 && errno == EINTR) {
  }
  IsolatedOutcome out;
  const std::string& got = child.received;
  if (WIFSIGNALED(status)) {
    const int sig = WTERMSIG(status);
    const char* name = ::strsignal(sig);
    out.failure =
        "crashed: killed by signal " + std::to_string(sig) + " (" + (name ? name : "unknown") + ")";
  } else if (WIFEXITED(status) && WEXITSTATUS(status) != 0) {
    out.failure = "the worker process exited with status " + std::to_string(WEXITSTATUS(status));
  } else if (got.empty()) {
    out.failure = "the worker process ended without a result";
  } else if (got[0] == 'E') {
    out.failure = got.substr(1);
  } else {
    out.completed = true;
    out.result = got.substr(1);
  }
  return out;
}

IsolatedOutcome run_isolated(const std::function<std::string()>& work) {
  IsolatedChild child = start_isolated(work);
  while (!read_isolated(child)) {
    pollfd p{child.fd, POLLIN, 0};
    ::poll(&p, 1, -1);
  }
  return finish_isolated(child);
}

}  // namespace closure
