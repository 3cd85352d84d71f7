// The tuning table. Entries come from `tools/gpu-bench.sh` / `closure bench bool` sweeps
// (docs/benchmarks.md); the first matching row wins.
#include "kernels/tuning.hpp"

#include <cstdlib>
#include <string_view>

namespace closure {
namespace {

struct TuningRow {
  std::string_view device_substring;  // matched against the device name ("" = any)
  std::string_view vendor_substring;  // matched against the vendor ("" = any)
  BooleanParams params;
};

constexpr TuningRow kTable[] = {
    {"H200", "", {4, 2}},
    {"", "NVIDIA", {4, 2}},
    {"pthread", "", {2, 2}},  // PoCL's CPU device
    {"", "", {2, 2}},         // safe default for unknown devices
};

}  // namespace

BooleanParams tuned_boolean_params(const ocl::DeviceInfo& device) {
  BooleanParams params;
  for (const auto& row : kTable)
    if (device.name.find(row.device_substring) != std::string::npos &&
        device.vendor.find(row.vendor_substring) != std::string::npos) {
      params = row.params;
      break;
    }
  if (const char* env = std::getenv(kBooleanParamsEnv); env && *env)
    params = parse_boolean_params(env, params);
  params.validate(device);
  return params;
}

}  // namespace closure
