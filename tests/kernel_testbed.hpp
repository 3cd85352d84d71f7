// The kernel testbed (after CUTLASS's): one reference product, the awkward sizes
// (test_support.hpp), a comparison that dumps the failing case, and a clear skip when the
// device lacks a feature. Every kernel test checks its products through it.
#pragma once

#include <gtest/gtest.h>

#include <cctype>
#include <filesystem>
#include <fstream>
#include <string>

#include "closure/bitmatrix.hpp"
#include "test_support.hpp"

namespace closure::testing {

// C | A*B by definition for small sizes; the threaded host product (itself checked
// against the naive one in test_bitmatrix.cpp) where the naive one is too slow.
inline BitMatrix reference_product(BitMatrix c, const BitMatrix& a, const BitMatrix& b) {
  if (a.rows() * a.cols() * b.cols() <= (1u << 22))
    naive_multiply_or(c, a, b);
  else
    host_multiply_or(c, a, b);
  return c;
}

namespace detail {

inline void dump_matrix(std::ostream& out, const char* name, const BitMatrix& m) {
  out << name << " " << m.rows() << " x " << m.cols() << "\n";
  for (size_t r = 0; r < m.rows(); ++r) {
    for (size_t c = 0; c < m.cols(); ++c) out << (m.get(r, c) ? '1' : '0');
    out << "\n";
  }
}

}  // namespace detail

// Whether `got` equals reference_product(c0, a, b). On a mismatch the message names the
// first differing bit and a file holding the whole case (C0, A, B, the product expected
// and the one got, as rows of 0 and 1) under GoogleTest's temporary folder, so that the
// case can be replayed and looked at.
inline ::testing::AssertionResult matches_reference(const BitMatrix& got, const BitMatrix& c0,
                                                    const BitMatrix& a, const BitMatrix& b,
                                                    const std::string& what) {
  const BitMatrix want = reference_product(c0, a, b);
  if (got == want) return ::testing::AssertionSuccess();
  auto result = ::testing::AssertionFailure() << what << ": ";
  if (got.rows() != want.rows() || got.cols() != want.cols())
    return result << got.rows() << " x " << got.cols() << " where " << want.rows() << " x "
                  << want.cols() << " was expected";
  size_t row = 0, col = 0;
  for (bool found = false; row < want.rows() && !found; row += found ? 0 : 1)
    for (col = 0; col < want.cols() && !found; col += found ? 0 : 1)
      found = got.get(row, col) != want.get(row, col);
  std::string name = "closure-failed-" + what;
  for (char& ch : name)
    if (!std::isalnum(static_cast<unsigned char>(ch)) && ch != '-') ch = '_';
  const std::filesystem::path file = std::filesystem::path(::testing::TempDir()) / (name + ".txt");
  std::ofstream out(file);
  detail::dump_matrix(out, "C0", c0);
  detail::dump_matrix(out, "A", a);
  detail::dump_matrix(out, "B", b);
  detail::dump_matrix(out, "expected", want);
  detail::dump_matrix(out, "got", got);
  return result << "bit (" << row << ", " << col << ") is " << got.get(row, col) << ", expected "
                << want.get(row, col) << "; the case is in " << file.string();
}

}  // namespace closure::testing

// Skips (with the reason) a test that needs a device feature this device lacks.
#define CLOSURE_REQUIRE_DEVICE_FEATURE(available, reason) \
  if (!(available)) GTEST_SKIP() << reason
