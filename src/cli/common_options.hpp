// Options every graph-reading command shares (device, method, formats), registered once
// on the top-level app and seen by subcommands through CLI11's fallthrough.
#pragma once

#include <CLI/CLI.hpp>
#include <memory>
#include <mutex>
#include <string>

#include "closure/algorithms/compute.hpp"
#include "closure/graph/read_graph.hpp"
#include "closure/ocl/runtime.hpp"

namespace closure::cli {

struct CommonOptions {
  std::string device;  // --device; empty: CLOSURE_DEVICE, then the default
  std::string method = "auto";
  std::string input_format = "auto";
  std::string params;  // --kernel-params, e.g. "tile_n=4,tile_m=2"
  bool quiet = false;
  size_t verify_memory = 0;  // bytes Boost.Graph's closure may use; 0: a quarter of RAM
};

void add_common_options(CLI::App& app, CommonOptions& o);

// The runtime --device names, opened the first time a method needs it (so a graph that
// auto closes on the host never loads OpenCL). get() is null for the host path; when no
// OpenCL device exists at all it says so once on stderr (unless quiet). Thread-safe.
class LazyRuntime {
 public:
  explicit LazyRuntime(const CommonOptions& o) : options_(o) {}
  ocl::Runtime* get();

 private:
  const CommonOptions& options_;
  std::mutex mutex_;
  bool tried_ = false;
  std::unique_ptr<ocl::Runtime> runtime_;
};

// ComputeOptions from the flags, the device coming from `runtime` when needed. A device
// named by --device is opened at once (so a wrong name fails before any work) unless
// `open_named_device` is false: batch forks children, which must open it themselves.
ComputeOptions compute_options(const CommonOptions& o, LazyRuntime& runtime,
                               bool open_named_device = true);
InputFormat input_format(const CommonOptions& o);

// For --verify-sources / --sources: 0 sources would check nothing and must not say MATCH.
CLI::Validator at_least_one_source();

}  // namespace closure::cli
