// Under mpirun every rank runs the same request: the same command with the same options,
// only the graph's path may differ (the graph itself is compared by hash after reading).
// A rank given another command line would otherwise wait forever in a collective the
// others never enter, or exchange messages of another shape.
#pragma once

#include <string>

#include "closure/session/communicator.hpp"

namespace closure {

// Compares every rank's `request` (a canonical text of its command and options) with rank
// 0's, before any other collective. When any differs, every rank throws the same
// UsageError naming the lowest such rank, its request and rank 0's.
void agree_on_request(Communicator& comm, const std::string& request);

}  // namespace closure
