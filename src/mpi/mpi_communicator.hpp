// The Communicator over MPI (Open MPI), linked into the CLI when CMake finds MPI. MPI is
// started only in a process that mpirun (or another MPI launcher) started: a plain
// `closure G` never loads a network stack nor waits for one.
#pragma once

#include <memory>

#include "closure/session/communicator.hpp"

namespace closure::mpi {

// True when a launcher's environment is present (OMPI_COMM_WORLD_SIZE, PMIX_RANK, PMI_RANK).
bool launched_by_mpirun();

// MPI_Init_thread on construction, MPI_Finalize on destruction; the world communicator.
class MpiSession {
 public:
  MpiSession(int* argc, char*** argv);
  ~MpiSession();
  MpiSession(const MpiSession&) = delete;
  MpiSession& operator=(const MpiSession&) = delete;
  Communicator& world() { return *world_; }

 private:
  std::unique_ptr<Communicator> world_;
};

// A session when launched by mpirun, else null.
std::unique_ptr<MpiSession> start_if_launched(int* argc, char*** argv);

}  // namespace closure::mpi
