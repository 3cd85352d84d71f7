// Context, queue and the two-level program cache (memory, then disk binaries).
#include "closure/ocl/runtime.hpp"

#include <unistd.h>

#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <sstream>

#include "closure/config.hpp"
#include "closure/io/content_hash.hpp"
#include "closure/ocl/error.hpp"
#include "closure/ocl/kernel_source.hpp"
#include "closure/ocl/program_cache_entry.hpp"
#include "closure/util/available_memory.hpp"

namespace closure::ocl {
namespace fs = std::filesystem;

std::string program_cache_dir() {
  if (const std::string d = config::text(config::kCacheDir); !d.empty())
    return d == "off" ? std::string() : d;
  return config::user_cache_dir();
}

// FNV-1a, 64 bits: a stable key across runs and compilers (std::hash is neither).
static uint64_t fnv1a(const std::string& text, uint64_t h = 1469598103934665603ull) {
  for (unsigned char c : text) h = (h ^ c) * 1099511628211ull;
  return h;
}

static uint64_t program_hash(const DeviceInfo& device, const std::string& options,
                             const std::string& source) {
  return fnv1a(device.platform + '\n' + device.name + '\n' + device.driver_version + '\n' +
               device.opencl_version + '\n' + options + '\n' + source);
}

std::string program_cache_key(const DeviceInfo& device, const std::string& options,
                              const std::string& source) {
  return hash_hex(program_hash(device, options, source));
}

Runtime::Runtime(DeviceInfo device) : device_(std::move(device)) {
  checked("creating the OpenCL context and queue", [&] {
    context_ = cl::Context(device_.device);
    queue_ = cl::CommandQueue(context_, device_.device, CL_QUEUE_PROFILING_ENABLE);
    return 0;
  });
}

void Runtime::refuse_compile_without_headroom() const {
  // PoCL compiles kernels with LLVM inside this process, and LLVM does not survive running
  // out of address space: under `ulimit -v` a cold compile hung (400 MB) or crashed with
  // SIGSEGV (800 MB) on the 2-core machine, where 900 MB and more compiled. So a compile on
  // a CPU device needs this much room left, or it is refused with the sizes (exit 4); a
  // program already in the disk cache needs none.
  constexpr size_t kCompileHeadroom = size_t{400} << 20;
  if (!device_.is_cpu) return;
  const size_t room = available_host_memory();
  if (room >= kCompileHeadroom) return;
  throw OutOfMemoryError("compiling OpenCL kernels for " + device_.name + " needs about " +
                             format_bytes(double(kCompileHeadroom)) + " of memory, and " +
                             format_bytes(double(room)) +
                             " is left (free memory, ulimit -v or a cgroup); raise the limit",
                         Advice::kHostDevice);
}

cl::Program Runtime::build(const std::string& source, const std::string& options) {
  const uint64_t key = program_hash(device_, options, source);
  const std::string dir = program_cache_dir();
  const std::string path = dir.empty() ? std::string() : dir + "/" + hash_hex(key) + ".bin";

  if (!path.empty() && fs::exists(path)) {
    // Only an entry whose header and checksum hold reaches the driver: PoCL crashes inside
    // clCreateProgramWithBinary on a truncated or partly zeroed binary.
    if (auto binary = read_cache_entry(path, key)) {
      try {
        cl::Program p(context_, {device_.device}, cl::Program::Binaries{*binary});
        p.build({device_.device}, options.c_str());
        ++stats_.disk_hits;
        return p;
      } catch (const std::exception&) {
        // Intact but refused (a driver update, say): rebuilt from source below.
      }
    }
    ++stats_.disk_rejected;
    std::error_code ignore;
    fs::remove(path, ignore);
  }

  refuse_compile_without_headroom();
  cl::Program p(context_, source);
  try {
    p.build({device_.device}, options.c_str());
  } catch (const cl::BuildError& e) {
    std::string log;
    for (const auto& [d, text] : e.getBuildLog()) log += text;
    throw Error("building OpenCL program for " + device_.name, e.err(), log, options);
  } catch (const cl::Error& e) {
    throw Error("building OpenCL program for " + device_.name, e.err(),
                p.getBuildInfo<CL_PROGRAM_BUILD_LOG>(device_.device), options);
  }
  ++stats_.compiles;

  if (!path.empty()) {
    const auto binaries = p.getInfo<CL_PROGRAM_BINARIES>();
    if (!binaries.empty() && !binaries.front().empty())
      write_cache_entry(path, key, binaries.front());  // best effort: a cache, not a result
  }
  return p;
}

cl::Program& Runtime::program(const std::string& file, const std::string& options) {
  const auto key = std::make_pair(file, options);
  std::lock_guard lock(programs_mutex_);
  if (auto it = programs_.find(key); it != programs_.end()) {
    ++stats_.memory_hits;
    return it->second;
  }
  return programs_.emplace(key, build(kernel_source(file), options)).first->second;
}

cl::Kernel Runtime::kernel(const std::string& file, const std::string& options, const char* name) {
  cl::Program& p = program(file, options);
  return checked("creating kernel", [&] { return cl::Kernel(p, name); });
}

double event_seconds(const cl::Event& e) {
  const auto start = e.getProfilingInfo<CL_PROFILING_COMMAND_START>();
  const auto end = e.getProfilingInfo<CL_PROFILING_COMMAND_END>();
  return double(end - start) * 1e-9;
}

}  // namespace closure::ocl
