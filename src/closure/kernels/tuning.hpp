// Tuned kernel parameters per device, as data: device name, then vendor, then the safe
// default; CLOSURE_BOOL_PARAMS (e.g. "tile_n=4,tile_m=2") overrides at run time.
#pragma once

#include "closure/kernels/boolean_params.hpp"
#include "closure/ocl/device.hpp"

namespace closure {

inline constexpr const char* kBooleanParamsEnv = "CLOSURE_BOOL_PARAMS";

BooleanParams tuned_boolean_params(const ocl::DeviceInfo& device);

}  // namespace closure
