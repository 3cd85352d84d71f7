// Host matrix products: the OpenCL book's CPU loops (seq, ijk, ikj, kij) and the naive
// double-precision reference that every float kernel and loop is checked against.
#pragma once

#include <cstddef>
#include <cstdint>
#include <vector>

namespace closure {

// C (m x n) = A (m x k) * B (k x n).
struct GemmShape {
  size_t m = 0, k = 0, n = 0;
  size_t a_count() const { return m * k; }
  size_t b_count() const { return k * n; }
  size_t c_count() const { return m * n; }
  double flops() const { return 2.0 * double(m) * double(k) * double(n); }
  // Throws std::invalid_argument for a zero dimension or one the kernels' int indices
  // cannot address.
  void validate() const;
};

// Row-major: element (r, c) of an R x C matrix at [r*C + c]; column-major: at [c*R + r].
enum class StorageOrder { kRowMajor, kColumnMajor };
const char* order_name(StorageOrder order);  // "row-major" / "column-major"

// Uniform in [-1, 1), from a fixed seed; every value is exact in float (24-bit fraction).
std::vector<float> random_matrix(size_t count, uint64_t seed);
// A rows x cols matrix stored in `from` order, rewritten in `to` order.
std::vector<float> reorder(const std::vector<float>& x, size_t rows, size_t cols, StorageOrder from,
                           StorageOrder to);

// The naive product in double, and beside each element the bound sum_k |a_ik|*|b_kj|
// that scales its rounding error: a float dot product of K terms is off by at most about
// K * 2^-24 times this bound, whatever the order of summation.
struct GemmReference {
  GemmShape shape;
  std::vector<double> c, bound;  // row-major
  double at(size_t i, size_t j) const { return c[i * shape.n + j]; }
};
GemmReference reference_gemm(GemmShape shape, const std::vector<float>& a,
                             const std::vector<float>& b, StorageOrder order);

// max over elements of |got - exact| / bound (0 where got is exact; infinite where bound
// is 0 and got is not). `got` is stored in `order`.
template <class T>
double max_relative_error(const std::vector<T>& got, StorageOrder order, const GemmReference& ref);

// The same for a sample of C's elements, for products too large for reference_gemm (at
// n = 8192 the full double product takes the host minutes): the first and last row and
// column in full, where the tiles' edges are, plus `random_count` random elements.
struct GemmSampleReference {
  GemmShape shape;
  std::vector<size_t> row, col;  // the sampled elements
  std::vector<double> c, bound;  // as in GemmReference, one per sampled element
};
GemmSampleReference sample_reference_gemm(GemmShape shape, const std::vector<float>& a,
                                          const std::vector<float>& b, StorageOrder order,
                                          size_t random_count, uint64_t seed);
template <class T>
double max_relative_error(const std::vector<T>& got, StorageOrder order,
                          const GemmSampleReference& ref);

// --- The book's loops (Listings 21.1 and 21.7), row-major, in the book's names: A is
// Ndim x Pdim, B is Pdim x Mdim, C is Ndim x Mdim (so M x K times K x N is Ndim = M,
// Pdim = K, Mdim = N). Their index algebra is fixed as in kernels/book_mmul.cl.

// Listing 21.1: C = A * B in float, the dot product per element (the book's 167 MFLOPS).
void seq_mat_mul(int Mdim, int Ndim, int Pdim, const float* A, const float* B, float* C);
// Listing 21.7: C += A * B in double (the book switched to double and -O3 for these),
// the three loop orders.
void mat_mul_ijk(int Mdim, int Ndim, int Pdim, const double* A, const double* B, double* C);
void mat_mul_ikj(int Mdim, int Ndim, int Pdim, const double* A, const double* B, double* C);
void mat_mul_kij(int Mdim, int Ndim, int Pdim, const double* A, const double* B, double* C);

enum class HostLoop { kSeq, kIjk, kIkj, kKij };
inline constexpr HostLoop kHostLoops[] = {HostLoop::kSeq, HostLoop::kIjk, HostLoop::kIkj,
                                          HostLoop::kKij};
const char* host_loop_name(HostLoop loop);  // "seq", "ijk", "ikj", "kij"
bool host_loop_is_double(HostLoop loop);    // seq is float, the other three double

// Row-major operands converted once (float and double), so that timing run() sees the
// loop alone.
class HostGemm {
 public:
  HostGemm(GemmShape shape, const std::vector<float>& a, const std::vector<float>& b);
  // C = A * B with one loop; C is zeroed first (the double loops accumulate, as the book's).
  void run(HostLoop loop);
  std::vector<double> result(HostLoop loop) const;  // row-major, of the last run of `loop`
  const GemmShape& shape() const { return shape_; }

 private:
  GemmShape shape_;
  std::vector<float> af_, bf_, cf_;
  std::vector<double> ad_, bd_, cd_;
};

}  // namespace closure
