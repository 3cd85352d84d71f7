// A pool of worker processes: each piece of work (an index) runs in one of `workers`
// long-lived child processes, so a crash ends that worker, not the caller, and the work
// it held gets a failed outcome naming the signal; a new worker replaces it. Workers live
// across many tasks because a fresh process per task repays every first-touch cost
// (page faults, lazy initialisation) each time, many times the work of a tiny file.
//
// Why processes at all: a stack overflow or SIGSEGV cannot be recovered from inside the
// process that suffered it. fork() is safe because the caller starts no threads and opens
// no OpenCL device before the workers exist (each worker opens what it needs itself).
#pragma once

#include <sys/types.h>

#include <chrono>
#include <cstddef>
#include <functional>
#include <string>
#include <utility>
#include <vector>

#include "app/tool/isolated.hpp"

namespace closure {

class WorkerPool {
 public:
  // `work(i)` runs in a worker; exceptions it throws become failed outcomes. A task that
  // runs longer than `time_limit_s` (0: no limit) has its worker killed and fails with
  // "timed out".
  WorkerPool(size_t workers, std::function<std::string(size_t)> work, double time_limit_s = 0);
  ~WorkerPool();  // ends the workers and reaps them
  WorkerPool(const WorkerPool&) = delete;
  WorkerPool& operator=(const WorkerPool&) = delete;

  bool has_idle_worker() const;
  size_t busy() const;
  // Hands task `index` to an idle worker (starting one if needed). Throws
  // std::runtime_error if no worker process can be started.
  void submit(size_t index);
  // Blocks until at least one submitted task ends; returns those that did.
  std::vector<std::pair<size_t, IsolatedOutcome>> wait();

 private:
  struct Worker {
    pid_t pid = -1;
    int fd = -1;         // socketpair end: task indices out, framed results in
    long task = -1;      // index in progress, or -1
    std::string buffer;  // result bytes received so far
    std::chrono::steady_clock::time_point started;
    bool timed_out = false;
  };
  Worker start_worker();
  IsolatedOutcome reap(Worker& w);  // after its end of stream: how it ended

  size_t size_;
  std::function<std::string(size_t)> work_;
  double time_limit_s_;
  std::vector<Worker> workers_;
};

}  // namespace closure
