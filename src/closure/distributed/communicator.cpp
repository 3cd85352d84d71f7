// The process-wide communicator and the fail-together agreement.
#include "closure/distributed/communicator.hpp"

#include <climits>
#include <exception>
#include <new>

#include "closure/errors.hpp"
#include "closure/io/atomic_file.hpp"

namespace closure {
namespace {

Communicator* g_communicator = nullptr;

// What the peers of a failed rank are told: the kind as one character, then the message.
std::string describe_failure(const std::exception_ptr& failure) {
  try {
    std::rethrow_exception(failure);
  } catch (const OutputClosedError& e) {
    return std::string(1, 'c') + e.what();
  } catch (const std::bad_alloc&) {
    return std::string(1, char('0' + int(ErrorKind::kResource))) +
           "out of memory (an allocation failed)";
  } catch (const std::exception& e) {
    return std::string(1, char('0' + int(classify(e)))) + e.what();
  } catch (...) {
    return std::string(1, char('0' + int(ErrorKind::kInternal))) + "an unknown exception";
  }
}

}  // namespace

Communicator* process_communicator() {
  return g_communicator;
}
void set_process_communicator(Communicator* communicator) {
  g_communicator = communicator;
}
Communicator* distributed_communicator() {
  return g_communicator && g_communicator->size() > 1 ? g_communicator : nullptr;
}

void collectively(Communicator& comm, const std::function<void()>& body) {
  std::exception_ptr failure;
  try {
    body();
  } catch (...) {
    failure = std::current_exception();
  }
  const int first = comm.min(failure ? comm.rank() : INT_MAX);
  if (first == INT_MAX) return;
  const std::string told =
      comm.broadcast(comm.rank() == first ? describe_failure(failure) : std::string(), first);
  if (comm.rank() == first) std::rethrow_exception(failure);
  const std::string message = told.size() > 1 ? told.substr(1) : "failed";
  if (!told.empty() && told[0] == 'c') throw OutputClosedError(message);
  int kind = told.empty() ? int(ErrorKind::kInternal) : told[0] - '0';
  if (kind < 0 || kind > int(ErrorKind::kInternal)) kind = int(ErrorKind::kInternal);
  throw Error(ErrorKind(kind), "rank " + std::to_string(first) + " of " +
                                   std::to_string(comm.size()) + ": " + message);
}

}  // namespace closure
