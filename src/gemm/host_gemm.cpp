// Host matrix products: the book's loops, the double reference, error measure.
#include "gemm/host_gemm.hpp"

#include <algorithm>
#include <climits>
#include <cmath>
#include <limits>
#include <random>
#include <stdexcept>
#include <string>

#include "closure/errors.hpp"

namespace closure {

void GemmShape::validate() const {
  if (m == 0 || k == 0 || n == 0)
    throw UsageError("GEMM shape " + std::to_string(m) + "x" + std::to_string(k) + "x" +
                     std::to_string(n) + " has a zero dimension");
  // The kernels index with int, as their sources do.
  const size_t limit = size_t(INT_MAX);
  if (m * k > limit || k * n > limit || m * n > limit)
    throw UsageError("GEMM shape " + std::to_string(m) + "x" + std::to_string(k) + "x" +
                     std::to_string(n) + " has a matrix of more than 2^31-1 elements");
}

const char* order_name(StorageOrder order) {
  return order == StorageOrder::kRowMajor ? "row-major" : "column-major";
}

std::vector<float> random_matrix(size_t count, uint64_t seed) {
  // mt19937_64 is fully specified by the standard; the distributions are not, so the
  // mapping to [-1, 1) is done here: 24 random bits, exact in float.
  std::mt19937_64 rng(seed);
  std::vector<float> x(count);
  for (auto& v : x) v = float(int64_t(rng() >> 40) - (int64_t(1) << 23)) * 0x1p-23f;
  return x;
}

std::vector<float> reorder(const std::vector<float>& x, size_t rows, size_t cols, StorageOrder from,
                           StorageOrder to) {
  if (from == to) return x;
  std::vector<float> y(x.size());
  for (size_t r = 0; r < rows; ++r)
    for (size_t c = 0; c < cols; ++c) {
      if (from == StorageOrder::kRowMajor)
        y[c * rows + r] = x[r * cols + c];
      else
        y[r * cols + c] = x[c * rows + r];
    }
  return y;
}

GemmReference reference_gemm(GemmShape s, const std::vector<float>& a_in,
                             const std::vector<float>& b_in, StorageOrder order) {
  if (a_in.size() != s.a_count() || b_in.size() != s.b_count())
    throw InternalError("reference_gemm: operand sizes do not match the shape");
  const auto a = reorder(a_in, s.m, s.k, order, StorageOrder::kRowMajor);
  const auto b = reorder(b_in, s.k, s.n, order, StorageOrder::kRowMajor);
  GemmReference ref{s, std::vector<double>(s.c_count()), std::vector<double>(s.c_count())};
  // The definition, loop order i-k-j only so that B and C stream by rows; in double, whose
  // error (about K * 2^-53) is far below the float tolerance being tested.
  for (size_t i = 0; i < s.m; ++i)
    for (size_t k = 0; k < s.k; ++k) {
      const double aik = a[i * s.k + k];
      double* c = &ref.c[i * s.n];
      double* bound = &ref.bound[i * s.n];
      const float* brow = &b[k * s.n];
      for (size_t j = 0; j < s.n; ++j) {
        c[j] += aik * brow[j];
        bound[j] += std::fabs(aik * brow[j]);
      }
    }
  return ref;
}

template <class T>
double max_relative_error(const std::vector<T>& got, StorageOrder order, const GemmReference& ref) {
  const GemmShape& s = ref.shape;
  if (got.size() != s.c_count())
    throw InternalError("max_relative_error: result size does not match the shape");
  double worst = 0;
  for (size_t i = 0; i < s.m; ++i)
    for (size_t j = 0; j < s.n; ++j) {
      const double g = order == StorageOrder::kRowMajor ? got[i * s.n + j] : got[j * s.m + i];
      const double diff = std::fabs(g - ref.at(i, j));
      if (diff == 0) continue;
      const double bound = ref.bound[i * s.n + j];
      // NaN compares false everywhere: report it as infinitely wrong.
      const double e =
          bound > 0 && !std::isnan(diff) ? diff / bound : std::numeric_limits<double>::infinity();
      worst = std::max(worst, e);
    }
  return worst;
}

template double max_relative_error(const std::vector<float>&, StorageOrder, const GemmReference&);
template double max_relative_error(const std::vector<double>&, StorageOrder, const GemmReference&);

GemmSampleReference sample_reference_gemm(GemmShape s, const std::vector<float>& a,
                                          const std::vector<float>& b, StorageOrder order,
                                          size_t random_count, uint64_t seed) {
  if (a.size() != s.a_count() || b.size() != s.b_count())
    throw InternalError("sample_reference_gemm: operand sizes do not match the shape");
  GemmSampleReference ref{s, {}, {}, {}, {}};
  auto add = [&](size_t i, size_t j) {
    ref.row.push_back(i);
    ref.col.push_back(j);
  };
  for (size_t j = 0; j < s.n; ++j) {
    add(0, j);
    if (s.m > 1) add(s.m - 1, j);
  }
  for (size_t i = 1; i + 1 < s.m; ++i) {
    add(i, 0);
    if (s.n > 1) add(i, s.n - 1);
  }
  std::mt19937_64 rng(seed);
  for (size_t r = 0; r < random_count; ++r) add(rng() % s.m, rng() % s.n);
  // A by rows and B by columns, so that each sampled element is one contiguous dot product
  // (two O(n^2) copies; strided reads instead would miss the cache on every term).
  const auto ar = reorder(a, s.m, s.k, order, StorageOrder::kRowMajor);
  const auto bc = reorder(b, s.k, s.n, order, StorageOrder::kColumnMajor);
  for (size_t e = 0; e < ref.row.size(); ++e) {
    const float* arow = &ar[ref.row[e] * s.k];
    const float* bcol = &bc[ref.col[e] * s.k];
    double c = 0, bound = 0;
    for (size_t k = 0; k < s.k; ++k) {
      const double p = double(arow[k]) * double(bcol[k]);
      c += p;
      bound += std::fabs(p);
    }
    ref.c.push_back(c);
    ref.bound.push_back(bound);
  }
  return ref;
}

template <class T>
double max_relative_error(const std::vector<T>& got, StorageOrder order,
                          const GemmSampleReference& ref) {
  const GemmShape& s = ref.shape;
  if (got.size() != s.c_count())
    throw InternalError("max_relative_error: result size does not match the shape");
  double worst = 0;
  for (size_t e = 0; e < ref.row.size(); ++e) {
    const size_t i = ref.row[e], j = ref.col[e];
    const double g = order == StorageOrder::kRowMajor ? got[i * s.n + j] : got[j * s.m + i];
    const double diff = std::fabs(g - ref.c[e]);
    if (diff == 0) continue;
    const double bound = ref.bound[e];
    const double err =
        bound > 0 && !std::isnan(diff) ? diff / bound : std::numeric_limits<double>::infinity();
    worst = std::max(worst, err);
  }
  return worst;
}

template double max_relative_error(const std::vector<float>&, StorageOrder,
                                   const GemmSampleReference&);
template double max_relative_error(const std::vector<double>&, StorageOrder,
                                   const GemmSampleReference&);

// --- The book's loops. Fixed in all four: the book indexes A[i*Ndim+k], B[k*Pdim+j] and
// C[i*Ndim+j], right only for square matrices; the row strides are Pdim for A and Mdim for
// B and C. The loop bodies are otherwise the book's.

void seq_mat_mul(int Mdim, int Ndim, int Pdim, const float* A, const float* B, float* C) {
  int i, j, k;
  float tmp;
  for (i = 0; i < Ndim; i++) {
    for (j = 0; j < Mdim; j++) {
      tmp = 0.0f;
      for (k = 0; k < Pdim; k++) {
        // C[i][j] += A[i][k] * B[k][j];
        tmp += *(A + (i * Pdim + k)) * *(B + (k * Mdim + j));
      }
      *(C + (i * Mdim + j)) = tmp;
    }
  }
}

void mat_mul_ijk(int Mdim, int Ndim, int Pdim, const double* A, const double* B, double* C) {
  int i, j, k;
  for (i = 0; i < Ndim; i++) {
    for (j = 0; j < Mdim; j++) {
      for (k = 0; k < Pdim; k++) {
        /* C(i,j) = sum(over k) A(i,k) * B(k,j) */
        C[i * Mdim + j] += A[i * Pdim + k] * B[k * Mdim + j];
      }
    }
  }
}

void mat_mul_ikj(int Mdim, int Ndim, int Pdim, const double* A, const double* B, double* C) {
  int i, j, k;
  for (i = 0; i < Ndim; i++) {
    for (k = 0; k < Pdim; k++) {
      for (j = 0; j < Mdim; j++) {
        /* C[i][j] += sum(over k) A[i][k] * B[k][j] */
        C[i * Mdim + j] += A[i * Pdim + k] * B[k * Mdim + j];
      }
    }
  }
}

void mat_mul_kij(int Mdim, int Ndim, int Pdim, const double* A, const double* B, double* C) {
  int i, j, k;
  for (k = 0; k < Pdim; k++) {
    for (i = 0; i < Ndim; i++) {
      for (j = 0; j < Mdim; j++) {
        /* C[i][j] += sum(over k) A[i][k] * B[k][j] */
        C[i * Mdim + j] += A[i * Pdim + k] * B[k * Mdim + j];
      }
    }
  }
}

const char* host_loop_name(HostLoop loop) {
  switch (loop) {
    case HostLoop::kSeq:
      return "seq";
    case HostLoop::kIjk:
      return "ijk";
    case HostLoop::kIkj:
      return "ikj";
    case HostLoop::kKij:
      return "kij";
  }
  return "?";
}

bool host_loop_is_double(HostLoop loop) {
  return loop != HostLoop::kSeq;
}

HostGemm::HostGemm(GemmShape shape, const std::vector<float>& a, const std::vector<float>& b)
    : shape_(shape), af_(a), bf_(b), ad_(a.begin(), a.end()), bd_(b.begin(), b.end()) {
  shape_.validate();
  if (a.size() != shape.a_count() || b.size() != shape.b_count())
    throw InternalError("HostGemm: operand sizes do not match the shape");
  cf_.assign(shape.c_count(), 0.0f);
  cd_.assign(shape.c_count(), 0.0);
}

void HostGemm::run(HostLoop loop) {
  const int Ndim = int(shape_.m), Pdim = int(shape_.k), Mdim = int(shape_.n);
  if (!host_loop_is_double(loop)) {
    seq_mat_mul(Mdim, Ndim, Pdim, af_.data(), bf_.data(), cf_.data());
    return;
  }
  std::fill(cd_.begin(), cd_.end(), 0.0);
  switch (loop) {
    case HostLoop::kIjk:
      mat_mul_ijk(Mdim, Ndim, Pdim, ad_.data(), bd_.data(), cd_.data());
      break;
    case HostLoop::kIkj:
      mat_mul_ikj(Mdim, Ndim, Pdim, ad_.data(), bd_.data(), cd_.data());
      break;
    case HostLoop::kKij:
      mat_mul_kij(Mdim, Ndim, Pdim, ad_.data(), bd_.data(), cd_.data());
      break;
    case HostLoop::kSeq:
      break;
  }
}

std::vector<double> HostGemm::result(HostLoop loop) const {
  if (host_loop_is_double(loop)) return cd_;
  return std::vector<double>(cf_.begin(), cf_.end());
}

}  // namespace closure
