// `mpirun -np P closure G [options]`: the run pipeline (src/app/tool/run_graph.*)
// shared by P ranks. Every rank reads the graph and condenses it (both deterministic),
// computes the closure of its range of target columns (partition_columns) on its device
// or on the host, and the pair count is a sum over ranks. When an output or a
// verification needs rows, rank 0 gathers the slices and writes the file exactly as one
// process would. A failure on any rank stops every rank with that rank's message.
#pragma once

#include "app/tool/run_graph.hpp"
#include "closure/session/communicator.hpp"

namespace closure {

// The summary is complete on rank 0 (times are the slowest rank's); other ranks return
// theirs for nothing to print. Methods: auto, sparse (host) and propagate (device, the
// host without one) divide the propagation by columns; square, condense and recursive
// square the condensation over column panels (panel_squaring.hpp) on each rank's device
// or host.
RunSummary run_graph_distributed(const Request& options, Communicator& comm);

}  // namespace closure
