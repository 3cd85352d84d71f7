// Worker processes over Unix socket pairs (send with MSG_NOSIGNAL: a worker that died
// does not kill the caller with SIGPIPE). Protocol: the caller sends an 8-byte task index;
// the worker answers with an 8-byte length and that many bytes: 'R' + result, or
// 'E' + an exception's message.
#include "app/tool/worker_pool.hpp"

#include <poll.h>
#include <signal.h>
#include <sys/prctl.h>
#include <sys/resource.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <stdexcept>

#include "closure/errors.hpp"
#include "closure/executor.hpp"

namespace closure {
namespace {

bool send_all(int fd, const void* data, size_t size) {
  auto p = static_cast<const char*>(data);
  for (size_t done = 0; done < size;) {
    const ssize_t n = ::send(fd, p + done, size - done, MSG_NOSIGNAL);
    if (n > 0)
      done += size_t(n);
    else if (!(n < 0 && errno == EINTR))
      return false;
  }
  return true;
}

bool recv_all(int fd, void* data, size_t size) {
  auto p = static_cast<char*>(data);
  for (size_t done = 0; done < size;) {
    const ssize_t n = ::recv(fd, p + done, size - done, 0);
    if (n > 0)
      done += size_t(n);
    else if (!(n < 0 && errno == EINTR))
      return false;
  }
  return true;
}

[[noreturn]] void worker_loop(int fd, const std::function<std::string(size_t)>& work,
                              pid_t parent) {
  // A worker never outlives the batch: when the driver dies (SIGTERM, SIGKILL, a crash) the
  // kernel kills its workers, so none keeps writing into --out after the batch is gone.
  ::prctl(PR_SET_PDEATHSIG, SIGKILL);
  if (::getppid() != parent) ::_exit(1);  // it died before the line above took effect
  // A crashing input is an expected outcome here, not something to debug from a core
  // file; without this each one could leave a core dump of the whole process.
  const rlimit no_core{0, 0};
  ::setrlimit(RLIMIT_CORE, &no_core);
  // If a file exhausts memory, the kernel's OOM killer should take this worker, whose
  // death is one failed record, rather than the driver that holds the whole batch.
  if (std::FILE* f = std::fopen("/proc/self/oom_score_adj", "w")) {
    std::fputs("500", f);
    std::fclose(f);
  }
  for (uint64_t index; recv_all(fd, &index, sizeof index);) {
    std::string message;
    try {
      message = 'R' + work(size_t(index));
    } catch (const std::exception& e) {
      message = std::string("E") + said_to(e, Audience::kCli);
    } catch (...) {
      message = "Eunknown exception";
    }
    std::fflush(nullptr);  // the worker's own prints, before the caller moves on
    const uint64_t length = message.size();
    if (!send_all(fd, &length, sizeof length) || !send_all(fd, message.data(), message.size()))
      break;
  }
  ::_exit(0);  // no atexit handlers, no flushing of buffers inherited from the caller
}

}  // namespace

WorkerPool::WorkerPool(size_t workers, std::function<std::string(size_t)> work, double time_limit_s)
    : size_(std::max<size_t>(1, workers)), work_(std::move(work)), time_limit_s_(time_limit_s) {}

WorkerPool::~WorkerPool() {
  for (Worker& w : workers_) {
    ::close(w.fd);  // the worker's recv ends: it exits
    int status;
    while (::waitpid(w.pid, &status, 0) < 0 && errno == EINTR) {
    }
  }
}

WorkerPool::Worker WorkerPool::start_worker() {
  int fds[2];
  if (::socketpair(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0, fds) != 0)
    throw ResourceError(std::string("cannot create a socket pair: ") + std::strerror(errno));
  std::fflush(nullptr);  // what the caller buffered must not be written by both processes
  const pid_t parent = ::getpid();
  // The child runs library work: it must start threads of its own (executor.hpp).
  end_worker_threads_before_fork();
  const pid_t pid = ::fork();
  if (pid < 0) {
    const int err = errno;
    ::close(fds[0]);
    ::close(fds[1]);
    throw ResourceError(std::string("cannot start a worker process: ") + std::strerror(err));
  }
  if (pid == 0) {
    ::close(fds[0]);
    for (const Worker& w : workers_) ::close(w.fd);  // other workers' ends are not ours
    worker_loop(fds[1], work_, parent);
  }
  ::close(fds[1]);
  Worker w;
  w.pid = pid;
  w.fd = fds[0];
  return w;
}

bool WorkerPool::has_idle_worker() const {
  if (workers_.size() < size_) return true;
  for (const Worker& w : workers_)
    if (w.task < 0) return true;
  return false;
}

size_t WorkerPool::busy() const {
  size_t n = 0;
  for (const Worker& w : workers_) n += w.task >= 0;
  return n;
}

void WorkerPool::submit(size_t index) {
  Worker* idle = nullptr;
  for (Worker& w : workers_)
    if (w.task < 0) idle = &w;
  if (!idle) {
    workers_.push_back(start_worker());
    idle = &workers_.back();
  }
  idle->task = long(index);
  idle->buffer.clear();
  idle->started = std::chrono::steady_clock::now();
  const uint64_t i = index;
  // A worker that died while idle fails this send; its end of stream then reports the
  // task as failed in wait(), like any other death.
  send_all(idle->fd, &i, sizeof i);
}

IsolatedOutcome WorkerPool::reap(Worker& w) {
  ::close(w.fd);
  w.fd = -1;
  int status = 0;
  while (::waitpid(w.pid, &status, 0) < 0 && errno == EINTR) {
  }
  IsolatedOutcome out;
  if (w.timed_out) {
    char limit[32];
    std::snprintf(limit, sizeof limit, "%g", time_limit_s_);
    out.failure = std::string("timed out after ") + limit + " s (the worker was killed)";
  } else if (WIFSIGNALED(status)) {
    const int sig = WTERMSIG(status);
    const char* name = ::strsignal(sig);
    out.failure =
        "crashed: killed by signal " + std::to_string(sig) + " (" + (name ? name : "unknown") + ")";
  } else {
    out.failure = "the worker process ended (status " +
                  std::to_string(WIFEXITED(status) ? WEXITSTATUS(status) : -1) +
                  ") without a result";
  }
  return out;
}

std::vector<std::pair<size_t, IsolatedOutcome>> WorkerPool::wait() {
  std::vector<std::pair<size_t, IsolatedOutcome>> done;
  while (done.empty() && busy() > 0) {
    std::vector<pollfd> fds;
    std::vector<size_t> which;
    for (size_t k = 0; k < workers_.size(); ++k)
      if (workers_[k].task >= 0) {
        fds.push_back({workers_[k].fd, POLLIN, 0});
        which.push_back(k);
      }
    // With a time limit, wake up when the oldest task reaches it and kill its worker; its
    // end of stream then reports the task like any other death.
    int timeout_ms = -1;
    if (time_limit_s_ > 0) {
      const auto now = std::chrono::steady_clock::now();
      double soonest = time_limit_s_;
      for (Worker& w : workers_) {
        if (w.task < 0 || w.timed_out) continue;
        const double left = time_limit_s_ - std::chrono::duration<double>(now - w.started).count();
        if (left <= 0) {
          w.timed_out = true;
          ::kill(w.pid, SIGKILL);
        } else {
          soonest = std::min(soonest, left);
        }
      }
      timeout_ms = int(soonest * 1000) + 1;
    }
    if (::poll(fds.data(), fds.size(), timeout_ms) < 0) {
      if (errno == EINTR) continue;
      throw ResourceError(std::string("poll failed: ") + std::strerror(errno));
    }
    std::vector<size_t> dead;
    for (size_t f = 0; f < fds.size(); ++f) {
      if (!fds[f].revents) continue;
      Worker& w = workers_[which[f]];
      char buf[65536];
      const ssize_t n = ::recv(w.fd, buf, sizeof buf, MSG_DONTWAIT);
      if (n < 0 && (errno == EINTR || errno == EAGAIN || errno == EWOULDBLOCK)) continue;
      if (n <= 0) {  // end of stream: the worker died with this task
        done.emplace_back(size_t(w.task), reap(w));
        dead.push_back(which[f]);
        continue;
      }
      w.buffer.append(buf, size_t(n));
      uint64_t length = 0;
      if (w.buffer.size() < sizeof length) continue;
      std::memcpy(&length, w.buffer.data(), sizeof length);
      if (w.buffer.size() < sizeof length + length) continue;
      IsolatedOutcome out;
      const std::string message = w.buffer.substr(sizeof length, length);
      if (!message.empty() && message[0] == 'R') {
        out.completed = true;
        out.result = message.substr(1);
      } else {
        out.failure = message.empty() ? "empty result" : message.substr(1);
      }
      done.emplace_back(size_t(w.task), std::move(out));
      w.task = -1;
      w.buffer.clear();
    }
    std::sort(dead.rbegin(), dead.rend());
    for (size_t k : dead) workers_.erase(workers_.begin() + std::ptrdiff_t(k));
  }
  return done;
}

}  // namespace closure
