// The one place that turns failures into messages and exit statuses.
#include <cstdio>
#include <new>

#include "cli/commands.hpp"
#include "closure/errors.hpp"
#include "closure/io/atomic_file.hpp"

namespace closure::cli {
namespace {

int status_of(ErrorKind kind) {
  switch (kind) {
    case ErrorKind::kUsage:
      return kExitUsage;
    case ErrorKind::kInput:
      return kExitInput;
    case ErrorKind::kResource:
    case ErrorKind::kDevice:
    case ErrorKind::kInternal:
      return kExitFailure;
  }
  return kExitFailure;
}

}  // namespace

int verdict_status(Verdict v) {
  return v == Verdict::kMatch      ? kExitOk
         : v == Verdict::kMismatch ? kExitMismatch
                                   : kExitInconclusive;
}

int report_failure(const std::exception& e) {
  // The reader of a pipe went away (`closure G -o - | head`): stop quietly, like cat.
  if (dynamic_cast<const OutputClosedError*>(&e)) return kExitOk;
  const ErrorKind kind = classify(e);
  if (dynamic_cast<const std::bad_alloc*>(&e))
    std::fprintf(stderr,
                 "closure: out of memory (an allocation failed; the limit may be the free memory, "
                 "ulimit -v or a cgroup; try --method sparse or a smaller graph)\n");
  else
    std::fprintf(stderr, "closure: %s%s\n", kind == ErrorKind::kInternal ? "internal error: " : "",
                 e.what());
  return status_of(kind);
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
