#include "gemm/gemm_tables.hpp"

#include "closure/kernels/tuning_database.hpp"
#include "closure/ocl/kernel_source.hpp"
#include "gemm/embedded_gemm_kernels.hpp"

namespace closure {
namespace {

// Rows come from `closure bench gemm --sweep` (tools/gpu-bench.sh; the figures are in
// docs/benchmarks.md), in the overlay's format (closure/kernels/tuning_database.hpp).
const char* const kGemmTuningRows = R"rows(
# myGEMM_tuned (kernels/sgemm_tuned.cl).
# GPUs: the winner of the H200 sweep at n = 8192: 26.8 ms, 41.0 TFLOP/s, 81% of PyTorch's
# fp32 matmul with TF32 off (the previous 128 x 128 x 16, 8 x 8 default ran 37.6 ms).
sgemm       type=gpu          tsm=64,tsn=128,tsk=32,wptm=4,wptn=8,vwm=4,vwk=4,padb=4,prf=1
# CPUs (PoCL): 53 GFLOPS at n = 1024, twice the GPU set's 25 and ahead of every other set
# of the sweep grid (docs/kernels.md); also the default for any other device.
sgemm       type=cpu          tsm=64,tsn=64,tsk=16,wptm=8,wptn=8,vwm=4,vwk=4,padb=0,prf=0
sgemm       default           tsm=64,tsn=64,tsk=16,wptm=8,wptn=8,vwm=4,vwk=4,padb=0,prf=0
)rows";

}  // namespace

void use_gemm_tables() {
  ocl::add_kernel_table(embedded::kGemmKernels);
  add_builtin_tuning_rows(kGemmTuningRows, "gemm/gemm_tables.cpp");
}

}  // namespace closure
