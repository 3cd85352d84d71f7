// Host side of the Boolean kernels: device matrices in the packed layout, the cubic and
// triangular products, and the on-device helpers repeated squaring needs.
#pragma once

#include <CL/opencl.hpp>

#include "closure/bitmatrix.hpp"
#include "closure/kernels/boolean_params.hpp"
#include "closure/ocl/runtime.hpp"

namespace closure {

// A BitMatrix living in a device buffer, padded to the kernels' tiles: the same layout
// (column-major words, zero padding), and the only place its extents are derived.
struct DeviceBitMatrix {
  cl::Buffer buffer;
  size_t rows = 0, cols = 0;
  size_t rows_padded = 0, words_padded = 0;

  // The extents of a rows x cols matrix padded to `padding` (no buffer yet).
  static DeviceBitMatrix shaped(size_t rows, size_t cols, Padding padding) {
    return {{}, rows, cols, padded_rows(rows, padding), padded_words(cols, padding)};
  }
  // The extents of a host matrix, whose storage the buffer will hold as it is.
  static DeviceBitMatrix like(const BitMatrix& m) {
    return {{}, m.rows(), m.cols(), m.rows_padded(), m.words_padded()};
  }
  // The extents of this matrix's transpose, padded to whole words both ways.
  DeviceBitMatrix transposed_shape() const {
    return {{}, cols, rows, padded_cols(), words_for_bits(rows_padded)};
  }
  size_t padded_cols() const { return bits_in_words(words_padded); }  // bits of a padded row
  size_t word_count() const { return rows_padded * words_padded; }
  size_t bytes() const { return word_count() * sizeof(word_t); }
};

class BooleanKernels {
 public:
  BooleanKernels(ocl::Runtime& runtime, BooleanParams params);

  const BooleanParams& params() const { return params_; }
  ocl::Runtime& runtime() { return runtime_; }

  DeviceBitMatrix allocate(size_t rows, size_t cols);  // zero-filled
  DeviceBitMatrix upload(const BitMatrix& m);          // re-pads to the tiles if needed
  BitMatrix download(const DeviceBitMatrix& m);
  void copy(DeviceBitMatrix& dst, const DeviceBitMatrix& src);

  // C |= A * B over the Boolean semiring (shapes must agree). Returns the kernel's event.
  cl::Event cubic_mul(DeviceBitMatrix& c, const DeviceBitMatrix& a, const DeviceBitMatrix& b);
  // The same for upper-triangular square operands; tiles known to be zero are skipped.
  cl::Event utri_mul(DeviceBitMatrix& c, const DeviceBitMatrix& a, const DeviceBitMatrix& b);
  // True if a and b differ in any word; only one int is read back.
  bool differ(const DeviceBitMatrix& a, const DeviceBitMatrix& b);

 private:
  void check_shapes(const DeviceBitMatrix& c, const DeviceBitMatrix& a, const DeviceBitMatrix& b,
                    const char* what) const;
  cl::Event launch(cl::Kernel& kernel, const char* what, DeviceBitMatrix& c,
                   const DeviceBitMatrix& a, const DeviceBitMatrix& b);

  ocl::Runtime& runtime_;
  BooleanParams params_;
  cl::Kernel cubic_, utri_, differ_;
  cl::Buffer flag_;
};

}  // namespace closure
