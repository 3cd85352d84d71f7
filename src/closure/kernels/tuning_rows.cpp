// The built-in tuning rows, as data in the overlay's format (closure/kernels/
// tuning_database.hpp). Rows come from `closure bench bool --sweep` / `closure bench gemm
// --sweep` (tools/gpu-bench.sh; the figures are in docs/benchmarks.md): copy a row of the
// overlay file here to make it everyone's default. No C++ changes for a new row.
namespace closure {

extern const char* const kBuiltinTuningRows;
const char* const kBuiltinTuningRows = R"rows(
# Portable Boolean kernels (kernels/boolean_mul.cl).
# H200: 3.9e14 MAC/s at n = 8192, 78% of the LOP3 ceiling; other NVIDIA GPUs share its
# generation of integer pipes and local memory.
boolean     device=H200       tile_n=4,tile_m=4,tile_w=8,tile_k=4
boolean     vendor=NVIDIA     tile_n=4,tile_m=4,tile_w=8,tile_k=4
# PoCL's CPU device ("pthread-..." in PoCL 3, "cpu-..." in PoCL 5): 2.9e11 MAC/s at
# n = 2048, 3x the old default; the sweep's winner tile_n=2,tile_m=2,tile_w=16,tile_k=4 is
# 15% faster there but pads every matrix to 1024 rows, which tiny graphs pay in every product.
boolean     device=pthread    tile_n=1,tile_m=2,tile_w=16,tile_k=4
boolean     device=cpu-       tile_n=1,tile_m=2,tile_w=16,tile_k=4
boolean     default           tile_n=2,tile_m=2

# Tensor-core Boolean product (kernels/boolean_mma.cl): 128 x 128 blocks of four 64 x 64
# warps, two K blocks a stage through registers: 2.3e15 MAC/s at n = 16384 in the sweep,
# 2.45e15 at 32768 (58% of mma.sync's peak).
mma         device=H200       warp_m=64,warp_n=64,warps_m=2,warps_n=2,k_steps=2,group_m=16,stages=0
mma         default           warp_m=64,warp_n=64,warps_m=2,warps_n=2,k_steps=2,group_m=16,stages=0

# myGEMM_tuned (kernels/sgemm_tuned.cl).
# GPUs: the winner of the H200 sweep at n = 8192: 26.8 ms, 41.0 TFLOP/s, 81% of PyTorch's
# fp32 matmul with TF32 off (the previous 128 x 128 x 16, 8 x 8 default ran 37.6 ms).
sgemm       type=gpu          tsm=64,tsn=128,tsk=32,wptm=4,wptn=8,vwm=4,vwk=4,padb=4,prf=1
# CPUs (PoCL): 53 GFLOPS at n = 1024, twice the GPU set's 25 and ahead of every other set
# of the sweep grid (docs/kernels.md); also the default for any other device.
sgemm       type=cpu          tsm=64,tsn=64,tsk=16,wptm=8,wptn=8,vwm=4,vwk=4,padb=0,prf=0
sgemm       default           tsm=64,tsn=64,tsk=16,wptm=8,wptn=8,vwm=4,vwk=4,padb=0,prf=0
)rows";

}  // namespace closure
