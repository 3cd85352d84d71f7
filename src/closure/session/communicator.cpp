// The process-wide communicator and the fail-together agreement.
#include "closure/session/communicator.hpp"

#include <climits>
#include <exception>
#include <new>

#include "closure/errors.hpp"
#include "closure/io/failure_text.hpp"

namespace closure {
namespace {

Communicator* g_communicator = nullptr;

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
      comm.broadcast(comm.rank() == first ? failure_text(failure) : std::string(), first);
  if (comm.rank() == first) std::rethrow_exception(failure);
  throw_failure_text(told,
                     "rank " + std::to_string(first) + " of " + std::to_string(comm.size()) + ": ");
}

}  // namespace closure
