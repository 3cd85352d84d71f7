// The request agreement of request_agreement.hpp: rank 0's text to all, the lowest rank
// that differs by a minimum, then that rank's text to all for the one message.
#include "app/distributed/request_agreement.hpp"

#include <climits>

#include "closure/errors.hpp"

namespace closure {

void agree_on_request(Communicator& comm, const std::string& request) {
  const std::string root_request = comm.broadcast(request, 0);
  const int first = comm.min(request == root_request ? INT_MAX : comm.rank());
  if (first == INT_MAX) return;
  const std::string theirs = comm.broadcast(comm.rank() == first ? request : std::string(), first);
  throw UsageError("the " + std::to_string(comm.size()) +
                   " MPI ranks were not given the same command: rank " + std::to_string(first) +
                   " runs `" + theirs + "`, rank 0 `" + root_request +
                   "`; every rank must run the same command with the same options (only the "
                   "graph's path may differ)");
}

}  // namespace closure
