// One piece of work run in a child process, so that whatever it does (a stack overflow,
// an abort, the OOM killer) ends that child, not the caller. The child sends one result
// string back through a pipe; the parent learns how the child ended. For many pieces of
// work, WorkerPool (worker_pool.hpp) keeps processes alive between them.
#pragma once

#include <sys/types.h>

#include <functional>
#include <string>

namespace closure {

struct IsolatedOutcome {
  bool completed = false;  // the child ran the work to its end and sent its result
  std::string result;      // what the work returned (completed only)
  std::string failure;     // otherwise: how the child ended, e.g. "crashed: signal 11 (...)"
};

// A child started by start_isolated; the parent reads its result with `fd`.
struct IsolatedChild {
  pid_t pid = -1;
  int fd = -1;
  std::string received;
};

// Forks a child that runs `work` and writes its result to the pipe, then _exit(0)s
// (no atexit handlers, no flushing of buffers inherited from the parent). Exceptions in
// `work` become a failed outcome. Throws std::runtime_error if no process can be started.
IsolatedChild start_isolated(const std::function<std::string()>& work);

// Reads what is available on child.fd (non-blocking); true at end of stream.
bool read_isolated(IsolatedChild& child);
// After read_isolated returned true: reaps the child and says how it ended.
IsolatedOutcome finish_isolated(IsolatedChild& child);

// start + read to the end + finish, for a single piece of work.
IsolatedOutcome run_isolated(const std::function<std::string()>& work);

}  // namespace closure
