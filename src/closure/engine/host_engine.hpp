// HostEngine: the Boolean matrix operations the closure algorithms are written against,
// on the host (C++ threads). DeviceEngine offers the same names on an OpenCL device, so
// each algorithm is written once (a template over the engine).
#pragma once

#include <string>

#include "closure/bitmatrix.hpp"

namespace closure {

class HostEngine {
 public:
  using Matrix = BitMatrix;

  // Block boundaries the algorithms may split at (bits); the host needs whole words.
  size_t tile_bits() const { return bits_in_words(1); }
  std::string name() const { return "host"; }

  size_t rows(const Matrix& m) const { return m.rows(); }
  size_t cols(const Matrix& m) const { return m.cols(); }
  Matrix from_host(const BitMatrix& m) { return m; }
  BitMatrix to_host(const Matrix& m) { return m; }
  Matrix zeros(size_t rows, size_t cols) { return BitMatrix(rows, cols); }
  Matrix block(const Matrix& m, size_t r0, size_t c0, size_t rows, size_t cols) {
    return m.block(r0, word_of(c0), rows, words_for_bits(cols));
  }
  void put_block(Matrix& m, size_t r0, size_t c0, const Matrix& b) {
    m.put_block(r0, word_of(c0), b);
  }
  void copy(Matrix& dst, const Matrix& src) { dst = src; }
  // C |= A * B; `upper` promises upper-triangular square operands (no saving on the host).
  void multiply_or(Matrix& c, const Matrix& a, const Matrix& b, bool /*upper*/ = false) {
    host_multiply_or(c, a, b);
  }
  bool differ(const Matrix& a, const Matrix& b) { return !(a == b); }
  void finish() {}
};

}  // namespace closure
