// failure_text and its inverse.
#include "closure/io/failure_text.hpp"

#include <new>

#include "closure/errors.hpp"
#include "closure/io/atomic_file.hpp"
#include "closure/util/cancel.hpp"

namespace closure {

std::string failure_text(const std::exception_ptr& failure) {
  try {
    std::rethrow_exception(failure);
  } catch (const std::bad_alloc&) {
    return std::string(1, char('0' + int(ErrorKind::kResource))) +
           "out of memory (an allocation failed)";
  } catch (const std::exception& e) {
    return std::string(1, char('0' + int(classify(e)))) + said_to(e, Audience::kCli);
  } catch (...) {
    return std::string(1, char('0' + int(ErrorKind::kInternal))) + "an unknown exception";
  }
}

void throw_failure_text(const std::string& text, const std::string& prefix) {
  const std::string message = text.size() > 1 ? text.substr(1) : "failed";
  int kind = text.empty() ? int(ErrorKind::kInternal) : text[0] - '0';
  if (kind < 0 || kind > int(ErrorKind::kOutputClosed)) kind = int(ErrorKind::kInternal);
  // Each kind comes back as its class, so that the receiver's catch clauses see what the
  // sender threw (InputError, of a later layer, as a plain Error of its kind).
  const std::string what = prefix + message;
  switch (ErrorKind(kind)) {
    case ErrorKind::kUsage:
      throw UsageError(what);
    case ErrorKind::kResource:
      throw ResourceError(what);
    case ErrorKind::kDevice:
      throw DeviceError(what);
    case ErrorKind::kInternal:
      throw InternalError(what);
    case ErrorKind::kCancelled:
      throw Cancelled();
    case ErrorKind::kOutputClosed:
      throw OutputClosedError(what);
    case ErrorKind::kInput:
      break;
  }
  throw Error(ErrorKind(kind), what);
}

}  // namespace closure
