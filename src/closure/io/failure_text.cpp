// failure_text and its inverse.
#include "closure/io/failure_text.hpp"

#include <new>

#include "closure/errors.hpp"
#include "closure/io/atomic_file.hpp"

namespace closure {

std::string failure_text(const std::exception_ptr& failure) {
  try {
    std::rethrow_exception(failure);
  } catch (const OutputClosedError& e) {
    return std::string(1, 'c') + said_to(e, Audience::kCli);
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
  if (!text.empty() && text[0] == 'c') throw OutputClosedError(message);
  int kind = text.empty() ? int(ErrorKind::kInternal) : text[0] - '0';
  if (kind < 0 || kind > int(ErrorKind::kInternal)) kind = int(ErrorKind::kInternal);
  throw Error(ErrorKind(kind), prefix + message);
}

}  // namespace closure
