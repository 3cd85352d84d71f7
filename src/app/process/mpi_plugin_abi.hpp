// The two C entry points of closure's MPI support, a module (closure-mpi.so) that the CLI
// loads only in a process an MPI launcher started: a plain `closure G` neither maps Open
// MPI's six libraries nor pays for resolving their symbols (about 3 ms of each process's
// start on the 2-core machine, docs/benchmarks-startup.md, "A process's fixed cost").
#pragma once

namespace closure {
class Communicator;
}

extern "C" {
// MPI_Init_thread, then the world communicator (owned by the caller until finish).
using ClosureMpiStart = closure::Communicator* (*)(int* argc, char*** argv);
// Deletes the communicator, then MPI_Finalize.
using ClosureMpiFinish = void (*)(closure::Communicator* world);
}

namespace closure::process {
inline constexpr const char* kMpiStartSymbol = "closure_mpi_start";
inline constexpr const char* kMpiFinishSymbol = "closure_mpi_finish";
inline constexpr const char* kMpiModuleName = "closure-mpi.so";
}  // namespace closure::process
