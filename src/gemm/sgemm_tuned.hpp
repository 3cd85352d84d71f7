// Host side of myGEMM_tuned (kernels/sgemm_tuned.cl): compile one parameter set, zero-pad
// awkward shapes to whole tiles, launch, and report each step's event for timing.
#pragma once

#include <CL/opencl.hpp>
#include <vector>

#include "closure/ocl/runtime.hpp"
#include "gemm/host_gemm.hpp"
#include "gemm/sgemm_tuned_params.hpp"

namespace closure {

// The events of one product, in enqueue order on the runtime's in-order queue.
struct SgemmTunedRun {
  std::vector<cl::Event> pads;    // sgemm_pad of A and/or B: none when both are whole tiles
  cl::Event gemm;                 // myGEMM_tuned
  std::vector<cl::Event> unpads;  // sgemm_unpad of C: none when C is whole tiles
  bool padded() const { return !pads.empty() || !unpads.empty(); }
  const cl::Event& last() const { return unpads.empty() ? gemm : unpads.back(); }
  // Kernel time from profiling events (wait for last() first).
  double gemm_seconds() const;
  double pad_seconds() const;  // the pads and the unpad together
  double seconds() const { return gemm_seconds() + pad_seconds(); }
};

class SgemmTuned {
 public:
  // Validates the parameters against the device, builds kernels/sgemm_tuned.cl with them
  // (cached by the runtime), and checks the compiled kernel's own work-group limit.
  SgemmTuned(ocl::Runtime& runtime, SgemmTunedParams params);

  const SgemmTunedParams& params() const { return params_; }

  // C = A * B on column-major device buffers (A m x k, B k x n, C m x n); C's other
  // contents are left alone. Operands whose dimensions are not whole tiles are copied
  // into zero-padded scratch buffers, kept for the next call (safe because the queue is
  // in order); the others are used in place.
  SgemmTunedRun multiply(GemmShape shape, const cl::Buffer& a, const cl::Buffer& b,
                         const cl::Buffer& c);

 private:
  cl::Buffer& scratch(int slot, size_t floats);
  cl::Event pad(const cl::Buffer& src, size_t rows, size_t cols, const cl::Buffer& dst,
                size_t prows, size_t pcols);
  cl::NDRange copy_local() const;

  ocl::Runtime& runtime_;
  SgemmTunedParams params_;
  cl::Kernel gemm_, pad_, unpad_;
  cl::Buffer scratch_[3];  // padded A, B, C
  size_t scratch_floats_[3] = {0, 0, 0};
};

}  // namespace closure
