// Runtime: one OpenCL context and profiling queue on one device, with its programs cached
// in memory per (kernel file, build options) and on disk as binaries.
#pragma once

#include <CL/opencl.hpp>
#include <map>
#include <mutex>
#include <string>
#include <utility>

#include "closure/ocl/device.hpp"

namespace closure::ocl {

// Where program binaries are kept: $CLOSURE_CACHE_DIR, else $XDG_CACHE_HOME/closure, else
// ~/.cache/closure. CLOSURE_CACHE_DIR=off disables the disk cache.
std::string program_cache_dir();

// The disk cache's key of a program: 16 hex digits of FNV-1a over platform, device,
// driver, OpenCL version, options and source.
std::string program_cache_key(const DeviceInfo& device, const std::string& options,
                              const std::string& source);

struct ProgramCacheStats {
  int memory_hits = 0, disk_hits = 0, compiles = 0, disk_rejected = 0;
};

class Runtime {
 public:
  explicit Runtime(DeviceInfo device);

  const DeviceInfo& device() const { return device_; }
  cl::Context& context() { return context_; }
  cl::CommandQueue& queue() { return queue_; }

  // The program built from kernels/<file> with `options`; built once per runtime, and
  // loaded from the disk cache when a binary for this exact platform, device, driver,
  // options and source exists. A bad cache entry is rebuilt silently.
  cl::Program& program(const std::string& file, const std::string& options);
  cl::Kernel kernel(const std::string& file, const std::string& options, const char* name);

  const ProgramCacheStats& cache_stats() const { return stats_; }

 private:
  cl::Program build(const std::string& source, const std::string& options);
  // OutOfMemoryError when a compile on a CPU device (PoCL: LLVM in this process) would run
  // out of address space, which LLVM does not survive.
  void refuse_compile_without_headroom() const;

  DeviceInfo device_;
  cl::Context context_;
  cl::CommandQueue queue_;
  std::mutex programs_mutex_;  // batch --jobs shares one runtime between threads
  std::map<std::pair<std::string, std::string>, cl::Program> programs_;
  ProgramCacheStats stats_;
};

// Seconds between an event's start and end (the queue has profiling on).
double event_seconds(const cl::Event& e);

}  // namespace closure::ocl
