#include "app/process/mpi_launch.hpp"

#include <dlfcn.h>
#include <unistd.h>

#include <filesystem>
#include <system_error>

#include "app/process/mpi_plugin_abi.hpp"
#include "closure/config.hpp"
#include "closure/errors.hpp"

namespace closure::process {
namespace {

std::string executable_path() {
  std::error_code ec;
  const auto path = std::filesystem::read_symlink("/proc/self/exe", ec);
  return ec ? std::string() : path.string();
}

// The first of the two places that holds the module; "" when neither does.
std::string find_module(const std::string& executable) {
  for (const std::string& path : {mpi_module_beside(executable), mpi_module_installed(executable)})
    if (!path.empty() && ::access(path.c_str(), F_OK) == 0) return path;
  return "";
}

[[noreturn]] void refuse(const std::string& why) {
  throw ResourceError("an MPI launcher started this process, but " + why +
                      "; run closure without mpirun, or build it with Open MPI's development "
                      "files (libopenmpi-dev) present");
}

}  // namespace

bool launched_by_mpirun() {
  for (const char* v : {"OMPI_COMM_WORLD_SIZE", "PMIX_RANK", "PMI_RANK", "PMI_SIZE"})
    if (!config::text(v).empty()) return true;
  return false;
}

std::string mpi_module_beside(const std::string& executable) {
  if (executable.empty()) return "";
  return (std::filesystem::path(executable).parent_path() / kMpiModuleName).string();
}

std::string mpi_module_installed(const std::string& executable) {
#ifdef CLOSURE_MPI_MODULE_FROM_BIN
  if (executable.empty()) return "";
  return (std::filesystem::path(executable).parent_path() / CLOSURE_MPI_MODULE_FROM_BIN)
      .lexically_normal()
      .string();
#else
  (void)executable;
  return "";
#endif
}

std::unique_ptr<MpiSession> MpiSession::start_if_launched(int* argc, char*** argv) {
  if (!launched_by_mpirun()) return nullptr;
  const std::string path = find_module(executable_path());
  if (path.empty())
    refuse(std::string("this closure has no MPI support (no ") + kMpiModuleName +
           " beside it or in its library folder)");
  void* module = ::dlopen(path.c_str(), RTLD_NOW | RTLD_LOCAL);
  if (!module) refuse("its MPI support " + path + " cannot be loaded: " + ::dlerror());
  auto start = reinterpret_cast<ClosureMpiStart>(::dlsym(module, kMpiStartSymbol));
  auto finish = reinterpret_cast<ClosureMpiFinish>(::dlsym(module, kMpiFinishSymbol));
  if (!start || !finish) {
    ::dlclose(module);
    refuse(path + " is not closure's MPI support (it lacks " + kMpiStartSymbol + ")");
  }
  std::unique_ptr<MpiSession> session(new MpiSession());
  session->module_ = module;
  session->finish_ = finish;
  session->world_ = start(argc, argv);
  return session;
}

// The module stays mapped: Open MPI's own exit handlers may still run after this.
MpiSession::~MpiSession() {
  if (finish_ && world_) finish_(world_);
}

}  // namespace closure::process
