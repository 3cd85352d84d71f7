// auto's cost model: host sparse propagation vs device propagation, from the closure's
// size (estimated by sampling reach sets) and constants fitted to measurements on the
// 2-core development machine and the H200 machine (docs/benchmarks.md, "GPU propagation").
#pragma once

#include <cstddef>
#include <string>

#include "closure/algorithms/scc.hpp"
#include "closure/ocl/device.hpp"

namespace closure {

struct CostInputs {
  size_t vertices = 0, edges = 0;
  size_t components = 0, condensed_edges = 0;
  double mean_reach = 0;  // components reached per component, sampled
};

// Mean number of components a component reaches, from BFS on the condensation from
// `samples` components spread evenly over the ids (fixed, so runs agree).
double sample_mean_reach(const CsrDag& dag, size_t samples = 16);

// Seconds, predicted. Host: sparse propagation (ragged rows: words ORed ~ closure bits /
// 32) plus the graph's linear passes. Device: OpenCL start-up and program load, the
// sweep (rows x per-row latency, the closure's words at the sweep's bandwidth) and the
// CSR upload; only GPUs are modelled (PoCL's sweep loses to the host everywhere).
double predict_host_sparse_s(const CostInputs& in);
double predict_device_propagate_s(const CostInputs& in, const ocl::DeviceInfo& device);
// The same for a GPU yet unseen: auto lists the devices (loading every OpenCL driver,
// about 0.13 s plus its unloading at exit with NVIDIA's) only when a GPU could win.
double predict_gpu_propagate_s(const CostInputs& in);

// Below this predicted host time auto does not even look for a device (its start-up
// alone costs more).
inline constexpr double kDeviceWorthLookingS = 0.3;

std::string describe_costs(const CostInputs& in, double host_s, double device_s);

}  // namespace closure
