// The one place that turns failures into messages and exit statuses.
#include <sys/resource.h>

#include <cstdio>
#include <new>
#include <string_view>
#include <system_error>

#include "cli/commands.hpp"
#include "closure/errors.hpp"
#include "closure/util/available_memory.hpp"

namespace closure::cli {
namespace {

static_assert(info_of(ErrorKind::kUsage).exit_status == kExitUsage &&
                  info_of(ErrorKind::kInput).exit_status == kExitInput &&
                  info_of(ErrorKind::kResource).exit_status == kExitFailure &&
                  info_of(ErrorKind::kDevice).exit_status == kExitFailure &&
                  info_of(ErrorKind::kInternal).exit_status == kExitFailure &&
                  info_of(ErrorKind::kCancelled).exit_status == kExitFailure &&
                  info_of(ErrorKind::kOutputClosed).exit_status == kExitOk,
              "the exit statuses of commands.hpp are the error table's");

// The memory this process may still take (the memory guard's figure), for the messages of
// failures that carry no size of their own; in `buf`, since memory may have run out (an
// allocation failing here would end the process where a message was due).
const char* memory_left(char (&buf)[64]) {
  try {
    std::snprintf(buf, sizeof buf, "%s", format_bytes(double(available_host_memory())).c_str());
  } catch (...) {
    std::snprintf(buf, sizeof buf, "too little memory to say how much");
  }
  return buf;
}

// " (N processes)" where ulimit -u sets a limit, in `buf`.
const char* process_limit(char (&buf)[64]) {
  rlimit rl{};
  buf[0] = '\0';
  if (::getrlimit(RLIMIT_NPROC, &rl) == 0 && rl.rlim_cur != RLIM_INFINITY)
    std::snprintf(buf, sizeof buf, " (%llu processes)",
                  static_cast<unsigned long long>(rl.rlim_cur));
  return buf;
}

// TBB's failure to start a worker: a std::runtime_error of its own wording (its
// handle_perror), not a std::system_error.
bool thread_start_failed(const std::exception& e) {
  return std::string_view(e.what()).starts_with("pthread_create has failed");
}

}  // namespace

int verdict_status(Verdict v) {
  return v == Verdict::kMatch      ? kExitOk
         : v == Verdict::kMismatch ? kExitMismatch
                                   : kExitInconclusive;
}

int report_failure(const std::exception& e) {
  const ErrorKind kind = classify(e);
  // A kind the table keeps quiet (the reader of `closure G -o - | head` went away): the
  // status alone, like cat.
  if (!info_of(kind).reported) return info_of(kind).exit_status;
  const auto* system = dynamic_cast<const std::system_error*>(&e);
  char left[64], processes[64];
  if (dynamic_cast<const std::bad_alloc*>(&e))
    std::fprintf(stderr,
                 "closure: out of memory (an allocation failed with %s left to this process; the "
                 "limit may be the free memory, ulimit -v or a cgroup; try --method sparse or a "
                 "smaller graph)\n",
                 memory_left(left));
  else if ((system && system->code() == std::errc::resource_unavailable_try_again) ||
           thread_start_failed(e))
    std::fprintf(stderr,
                 "closure: out of memory or threads: a thread could not start (%s) with %s left "
                 "to this process; the limit may be the free memory, ulimit -v, ulimit -u%s or a "
                 "cgroup; try --threads 1\n",
                 e.what(), memory_left(left), process_limit(processes));
  else
    std::fprintf(stderr, "closure: %s%s\n", kind == ErrorKind::kInternal ? "internal error: " : "",
                 said_to(e, Audience::kCli).c_str());
  return info_of(kind).exit_status;
}

int guarded(const std::function<int()>& body) {
  try {
    return body();
  } catch (const std::exception& e) {
    return report_failure(e);
  } catch (...) {
    std::fprintf(stderr, "closure: internal error: an unknown exception\n");
    return kExitFailure;
  }
}

}  // namespace closure::cli
