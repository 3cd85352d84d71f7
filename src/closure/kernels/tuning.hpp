// Tuned kernel parameters per device, from the tuning database (closure/kernels/
// tuning_database.hpp), with the run-time overrides of each family's environment variable
// (e.g. CLOSURE_BOOL_PARAMS="tile_n=4,tile_m=2").
#pragma once

#include "closure/config.hpp"
#include "closure/kernels/boolean_mma.hpp"
#include "closure/kernels/boolean_params.hpp"
#include "closure/ocl/device.hpp"

namespace closure {

inline constexpr const char* kBooleanParamsEnv = config::kBoolParams;

// The database's row, then CLOSURE_BOOL_PARAMS; validated (std::invalid_argument).
BooleanParams tuned_boolean_params(const ocl::DeviceInfo& device);

}  // namespace closure
