// The built-in tuning rows of the product's kernels, as data in the overlay's format
// (closure/kernels/tuning_database.hpp; the float GEMM family keeps its own in
// src/gemm/gemm_tables.cpp). Rows come from `closure bench bool --sweep` (tools/gpu-bench.sh;
// the figures are in docs/benchmarks.md): copy a row of the overlay file here to make it
// everyone's default. No C++ changes for a new row.
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
)rows";

}  // namespace closure
