// DeviceEngine: the engine operations (see host_engine.hpp) on an OpenCL device, over
// device-resident matrices padded to the kernels' tiles.
#pragma once

#include <string>

#include "closure/kernels/boolean_kernels.hpp"
#include "closure/kernels/boolean_mma.hpp"

namespace closure {

class DeviceEngine {
 public:
  using Matrix = DeviceBitMatrix;

  // The 1-bit tensor-core product is used wherever BooleanMma finds it available (NVIDIA,
  // self-checked; CLOSURE_MMA=off disables it); elsewhere the portable kernels run.
  // `tensor_cores` false keeps the portable kernels even where the MMA path exists (for
  // benchmarks that compare the two).
  DeviceEngine(ocl::Runtime& runtime, const BooleanParams& params, bool tensor_cores = true)
      : kernels_(runtime, params), mma_(runtime), use_mma_(tensor_cores && mma_.available()) {}

  size_t tile_bits() const { return size_t(kernels_.params().tile_rows()); }
  std::string name() {
    return kernels_.runtime().device().name + (use_mma_ ? " (1-bit tensor cores)" : "");
  }
  bool tensor_cores() const { return use_mma_; }
  BooleanKernels& kernels() { return kernels_; }

  size_t rows(const Matrix& m) const { return m.rows; }
  size_t cols(const Matrix& m) const { return m.cols; }
  Matrix from_host(const BitMatrix& m) { return kernels_.upload(m); }
  BitMatrix to_host(const Matrix& m) { return kernels_.download(m); }
  Matrix zeros(size_t rows, size_t cols) { return kernels_.allocate(rows, cols); }
  // Blocks start on tile boundaries (r0, c0 multiples of tile_bits()).
  Matrix block(const Matrix& m, size_t r0, size_t c0, size_t rows, size_t cols);
  void put_block(Matrix& m, size_t r0, size_t c0, const Matrix& b);
  void copy(Matrix& dst, const Matrix& src) { kernels_.copy(dst, src); }
  void multiply_or(Matrix& c, const Matrix& a, const Matrix& b, bool upper = false) {
    if (use_mma_)
      mma_.multiply_or(c, a, b, upper);
    else if (upper)
      kernels_.utri_mul(c, a, b);
    else
      kernels_.cubic_mul(c, a, b);
  }
  bool differ(const Matrix& a, const Matrix& b) { return kernels_.differ(a, b); }
  void finish() { kernels_.runtime().queue().finish(); }

 private:
  BooleanKernels kernels_;
  BooleanMma mma_;
  bool use_mma_;
};

}  // namespace closure
