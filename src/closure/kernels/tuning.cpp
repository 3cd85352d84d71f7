// Typed look-ups of the tuning database, one per kernel family, with the environment
// overrides.
#include "closure/kernels/tuning.hpp"

#include <cstdlib>
#include <stdexcept>

#include "closure/config.hpp"
#include "closure/errors.hpp"
#include "closure/kernels/tuning_database.hpp"

namespace closure {

namespace {

template <class P>
P with_env_override(P params, const char* env) {
  if (const std::string text = config::text(env); !text.empty()) {
    try {
      params = parse_params(text, params);
    } catch (const UsageError& e) {  // the user's setting, named
      throw UsageError(std::string(env) + ": " + e.what());
    }
  }
  return params;
}

}  // namespace

BooleanParams tuned_boolean_params(const ocl::DeviceInfo& device) {
  BooleanParams params = with_env_override(tuned_params<BooleanParams>(device), kBooleanParamsEnv);
  params.validate(device);
  return params;
}

MmaParams tuned_mma_params(const ocl::DeviceInfo& device) {
  return with_env_override(tuned_params<MmaParams>(device), kMmaParamsEnv);
}

}  // namespace closure
