// myGEMM_tuned's look-ups of the tuning database (its "sgemm" rows are the float GEMM
// family's own, gemm/gemm_tables.cpp); here, beside the float GEMM code, so that the
// library's tuning code knows nothing of float GEMM.
#include "closure/kernels/tuning_database.hpp"
#include "gemm/gemm_tables.hpp"
#include "gemm/sgemm_tuned_params.hpp"

namespace closure {

namespace {

SgemmTunedParams builtin_sgemm_params(const char* match_text) {
  use_gemm_tables();
  return parse_params(builtin_tuning_row(ParamTable<SgemmTunedParams>::family, match_text).params,
                      SgemmTunedParams{});
}

}  // namespace

const SgemmTunedParams& sgemm_tuned_gpu_default() {
  static const SgemmTunedParams params = builtin_sgemm_params("type=gpu");
  return params;
}

const SgemmTunedParams& sgemm_tuned_cpu_default() {
  static const SgemmTunedParams params = builtin_sgemm_params("type=cpu");
  return params;
}

SgemmTunedParams sgemm_tuned_params_for(const ocl::DeviceInfo& device) {
  use_gemm_tables();
  return tuned_params<SgemmTunedParams>(device, kSgemmTunedMinimal);
}

}  // namespace closure
