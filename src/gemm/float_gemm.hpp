// Host side of the float GEMM kernels (kernels/float_gemm.cl, kernels/book_mmul.cl,
// kernels/sgemm_tuned.cl): one entry per kernel, C = A * B for A m x k and B k x n, in
// each kernel's storage order.
#pragma once

#include <CL/opencl.hpp>
#include <memory>
#include <optional>
#include <vector>

#include "closure/ocl/runtime.hpp"
#include "gemm/float_params.hpp"
#include "gemm/host_gemm.hpp"
#include "gemm/sgemm_tuned.hpp"

namespace closure {

// Storage orders: the myGEMM family is column-major, as its source; MatrixMulKernel and
// the book's mmul kernels are row-major, as theirs.
enum class GemmVariant {
  kMyGemm1,              // myGEMM1: one element per work-item, global memory
  kMyGemm1b,             // myGEMM1b: the same with dimensions swapped (uncoalesced)
  kMyGemm2,              // myGEMM2: TS x TS tiles in local memory
  kMatrixMulKernel,      // tiled CUDA kernel: TILE_WIDTH x TILE_WIDTH tiles
  kMmulElement,          // book 21.2: one element per work-item
  kMmulRow,              // book 21.4: one row of C per work-item
  kMmulRowPrivate,       // book 21.5: ... with A's row in private memory
  kMmulRowPrivateLocal,  // book 21.6: ... and B's column in local memory
  kMyGemmTuned,          // myGEMM_tuned: 2D register blocking, vector loads (sgemm_tuned.cl)
};
inline constexpr GemmVariant kGemmVariants[] = {
    GemmVariant::kMyGemm1,        GemmVariant::kMyGemm1b,
    GemmVariant::kMyGemm2,        GemmVariant::kMatrixMulKernel,
    GemmVariant::kMmulElement,    GemmVariant::kMmulRow,
    GemmVariant::kMmulRowPrivate, GemmVariant::kMmulRowPrivateLocal,
    GemmVariant::kMyGemmTuned};

const char* variant_name(GemmVariant v);  // the kernel's name, e.g. "myGEMM2"
StorageOrder variant_order(GemmVariant v);

class FloatKernels {
 public:
  // Validates the three parameter sets against the device before compiling, then builds
  // the three programs (cached by the runtime, keyed by the parameters' build options).
  // `tuned` left out: sgemm_tuned_params_for(the device).
  FloatKernels(ocl::Runtime& runtime, FloatGemmParams gemm = {}, BookMmulParams book = {},
               std::optional<SgemmTunedParams> tuned = std::nullopt);

  const FloatGemmParams& gemm_params() const { return gemm_; }
  const BookMmulParams& book_params() const { return book_; }
  const SgemmTunedParams& tuned_params() const { return tuned_->params(); }
  // myGEMM_tuned itself, for the events of its padding steps (SgemmTunedRun).
  SgemmTuned& tuned() { return *tuned_; }
  ocl::Runtime& runtime() { return runtime_; }

  // C = A * B on device buffers stored in variant_order(v); returns the kernel's event
  // (for myGEMM_tuned, the last of its steps: see SgemmTuned::multiply). The buffers must
  // hold at least the shape's element counts; C's other contents are left alone.
  cl::Event multiply(GemmVariant v, GemmShape shape, const cl::Buffer& a, const cl::Buffer& b,
                     const cl::Buffer& c);
  // myAdd: C = A + B on m x n column-major buffers.
  cl::Event add(size_t m, size_t n, const cl::Buffer& a, const cl::Buffer& b, const cl::Buffer& c);

  // The same from and to host vectors (upload, run, wait, download).
  std::vector<float> multiply(GemmVariant v, GemmShape shape, const std::vector<float>& a,
                              const std::vector<float>& b);
  std::vector<float> add(size_t m, size_t n, const std::vector<float>& a,
                         const std::vector<float>& b);

  cl::Buffer upload(const std::vector<float>& x);
  std::vector<float> download(const cl::Buffer& buffer, size_t count);

 private:
  cl::Kernel& kernel(GemmVariant v);

  ocl::Runtime& runtime_;
  FloatGemmParams gemm_;
  BookMmulParams book_;
  std::unique_ptr<SgemmTuned> tuned_;
  cl::Kernel add_;
  std::vector<cl::Kernel> kernels_;  // indexed by GemmVariant; empty for myGEMM_tuned
};

}  // namespace closure
