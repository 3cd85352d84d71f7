// MPI for the CLI, only in a process that mpirun (or another MPI launcher) started: the
// module with MPI (mpi_plugin_abi.hpp) is loaded from beside the executable (the build
// tree) or from the installed library folder, never from a search path.
#pragma once

#include <memory>
#include <string>

#include "closure/session/communicator.hpp"

namespace closure::process {

// True when a launcher's environment is present (OMPI_COMM_WORLD_SIZE, PMIX_RANK, PMI_RANK,
// PMI_SIZE).
bool launched_by_mpirun();

// MPI started through the module on construction, finished on destruction.
class MpiSession {
 public:
  ~MpiSession();
  MpiSession(const MpiSession&) = delete;
  MpiSession& operator=(const MpiSession&) = delete;
  Communicator& world() { return *world_; }

  // A session when launched by a launcher, else null. A launched process whose module is
  // missing or broken gets a ResourceError that names the module's path and why.
  static std::unique_ptr<MpiSession> start_if_launched(int* argc, char*** argv);

 private:
  MpiSession() = default;
  void* module_ = nullptr;
  Communicator* world_ = nullptr;
  void (*finish_)(Communicator*) = nullptr;
};

// Where the module is looked for, in order, for an executable at `executable`: its own
// folder, then the installed library folder relative to it (empty when not installed).
std::string mpi_module_beside(const std::string& executable);
std::string mpi_module_installed(const std::string& executable);

}  // namespace closure::process
