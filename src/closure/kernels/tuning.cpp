// The tuning table. Entries come from `tools/gpu-bench.sh` / `closure bench bool` sweeps
// (docs/benchmarks.md); the first matching row wins.
#include "closure/kernels/tuning.hpp"

#include <cstdlib>
#include <string_view>

namespace closure {
namespace {

struct TuningRow {
  std::string_view device_substring;  // matched against the device name ("" = any)
  std::string_view vendor_substring;  // matched against the vendor ("" = any)
  BooleanParams params;
};

// {tile_n, tile_m, tile_w, tile_k}; docs/benchmarks.md has the sweeps behind them.
constexpr TuningRow kTable[] = {
    {"H200", "", {4, 4, 8, 4}},    // 3.9e14 MAC/s at n = 8192, 78% of the LOP3 ceiling
    {"", "NVIDIA", {4, 4, 8, 4}},  // same generation of integer pipes and local memory
    // PoCL's CPU device ("pthread-..." in PoCL 3, "cpu-..." in PoCL 5): 2.9e11 MAC/s at
    // n = 2048, 3x the old {2, 2}; the sweep's winner {2, 2, 16, 4} is 15% faster there
    // but pads every matrix to 1024 rows, which tiny graphs pay for in every product.
    {"pthread", "", {1, 2, 16, 4}},
    {"cpu-", "", {1, 2, 16, 4}},
    {"", "", {2, 2}},  // safe default for unknown devices
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
