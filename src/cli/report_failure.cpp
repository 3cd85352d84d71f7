// The one place that turns failures into messages and exit statuses.
#include <cstdio>

#include "cli/commands.hpp"
#include "closure/errors.hpp"
#include "closure/util/resource_failure.hpp"

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
  if (const ResourceFailure f = resource_failure_of(e); f != ResourceFailure::kNone) {
    char text[640];
    std::fprintf(stderr, "closure: %s\n",
                 resource_failure_text(e, f, Audience::kCli, text, sizeof text));
  } else
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
