// compute_closure: one entry point for every closure method. It asks the planner
// (planner.hpp) which method, gathers the facts the plan needs, opens the device when the
// method needs one and runs the method's registry entry (methods.hpp); the report says
// what ran, where, why, and how long each phase took.
#pragma once

#include <chrono>
#include <cmath>
#include <functional>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "closure/algorithms/closure.hpp"
#include "closure/algorithms/planner.hpp"
#include "closure/engine/device_propagation.hpp"
#include "closure/engine/methods.hpp"
#include "closure/errors.hpp"
#include "closure/graph/graph.hpp"
#include "closure/kernels/boolean_params.hpp"
#include "closure/ocl/runtime.hpp"
#include "closure/options.hpp"
#include "closure/util/available_memory.hpp"

namespace closure {

struct ComputeOptions {
  Method method = Method::kAuto;
  // The device. `runtime` if set; else `lazy_runtime` is called the first time a method
  // needs a device (auto on small graphs never does, so no OpenCL is loaded for them);
  // null from both means the host engine.
  ocl::Runtime* runtime = nullptr;
  std::function<ocl::Runtime*()> lazy_runtime;
  // Open the device before choosing a method, even one on the host: the CLI asks for it
  // when --device names a device and the method may not open it (auto, sparse), so a
  // wrong name is an error whatever auto chooses. Device methods open it when they need
  // it (propagate after condensing, which overlaps an opening begun while reading).
  bool open_device_first = false;
  // auto only: starts opening the first GPU (if any) on another thread. compute_closure
  // calls it before condensing when the graph as read could be worth a GPU
  // (gpu_may_win_as_read: a decision that needs no device), so the opening overlaps the
  // condensation; lazy_runtime then gives that GPU's runtime or null (no GPU), and auto
  // takes the GPU's description from it instead of listing devices. When auto keeps the
  // work on the host it calls release_unused_device, so the unused context is torn down
  // while the host computes rather than at exit.
  std::function<void()> speculate_gpu;
  std::function<void()> release_unused_device;
  // When the session started that opening, at the process's start already (a large input
  // file: kOpenGpuAtStartBytes); compute_closure then only keeps or releases it, and weighs
  // the start-up still to come.
  std::optional<std::chrono::steady_clock::time_point> gpu_opening_since;
  std::optional<BooleanParams> params;  // default: the tuned set for the device
  std::string params_override;          // "tile_n=4,..." applied on top of that
  // Memory the method may use; 0 = what the machine has (host: 80% of physical memory;
  // device: its global memory and largest allocation).
  size_t host_memory_limit = 0;
  // Slices and device budget of the propagate method (its rows_needed: whether an
  // output, verification or query will read rows of a closure too large for the device).
  DevicePropagationOptions propagate;
  // Told at once, before the work, what will likely fail: sparse's rows estimated larger
  // than the memory left for them (algorithms/row_estimate.hpp), with the way on without
  // the closure. Null: nobody is told (the budget still refuses when the rows reach it).
  std::function<void(const Warning&)> warn;
};

Closure compute_closure(const Graph& g, const ComputeOptions& options,
                        ComputeReport* report = nullptr);

// The Boolean kernel parameters the dense methods use on `runtime` (null: the host):
// options.params or the device's tuned set, options.params_override on top; DeviceError
// when the device cannot run them.
BooleanParams dense_params(const ComputeOptions& options, const ocl::Runtime* runtime);
// Bytes a method may use on the host: options.host_memory_limit, else what is left to
// this process (free memory, cgroup, ulimit -v), with a tenth kept for everything else.
// Where all the method could take, `most_needed` bytes, is under kUnprobedBytes, nothing is
// asked (the limit is then unbounded): the kernel's answers (meminfo, the cgroup, statm)
// cost a small graph's run about 50 us, and a process without 64 MiB to spare fails in its
// allocator anyway, which the error table reports as out of memory.
inline constexpr double kUnprobedBytes = double(64 << 20);
double host_limit(const ComputeOptions& options, double most_needed = HUGE_VAL);

}  // namespace closure
