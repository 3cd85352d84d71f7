// The one place that turns failures into messages and exit statuses.
#include <cstdio>
#include <new>
#include <system_error>

#include "cli/commands.hpp"
#include "closure/errors.hpp"

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
  if (dynamic_cast<const std::bad_alloc*>(&e))
    std::fprintf(stderr,
                 "closure: out of memory (an allocation failed; the limit may be the free memory, "
                 "ulimit -v or a cgroup; try --method sparse or a smaller graph)\n");
  else if (system && system->code() == std::errc::resource_unavailable_try_again)
    std::fprintf(stderr,
                 "closure: out of memory or threads: a thread could not start (%s); the limit "
                 "may be the free memory, ulimit -v, ulimit -u or a cgroup; try --threads 1\n",
                 e.what());
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
