// Repeated squaring with change detection on the device: one int read back per round.
#include "closure/square.hpp"

#include <bit>
#include <chrono>
#include <stdexcept>

#include "kernels/boolean_kernels.hpp"

namespace closure {

int max_squaring_rounds(size_t n) { return n <= 1 ? 1 : std::bit_width(n - 1); }

static double seconds_since(std::chrono::steady_clock::time_point t0) {
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
}

static BitMatrix square_on_host(const BitMatrix& adjacency, SquareStats& stats) {
  BitMatrix r = adjacency;
  const auto t0 = std::chrono::steady_clock::now();
  for (int round = 0; round < max_squaring_rounds(adjacency.rows()); ++round) {
    BitMatrix next = r;
    host_multiply_or(next, r, r);
    ++stats.rounds;
    const bool changed = !(next == r);
    r = std::move(next);
    if (!changed) break;
  }
  stats.compute_s = seconds_since(t0);
  return r;
}

BitMatrix square_closure(const BitMatrix& adjacency, bool upper_triangular, ocl::Runtime* runtime,
                         const BooleanParams& params, SquareStats* stats_out) {
  if (adjacency.rows() != adjacency.cols())
    throw std::invalid_argument("square_closure: the matrix must be square");
  SquareStats stats;
  if (!runtime) {
    BitMatrix r = square_on_host(adjacency, stats);
    if (stats_out) *stats_out = stats;
    return r;
  }
  BooleanKernels kernels(*runtime, params);
  auto t0 = std::chrono::steady_clock::now();
  DeviceBitMatrix r = kernels.upload(adjacency);
  DeviceBitMatrix next = kernels.allocate(r.rows, r.cols);
  runtime->queue().finish();
  stats.upload_s = seconds_since(t0);

  t0 = std::chrono::steady_clock::now();
  for (int round = 0; round < max_squaring_rounds(adjacency.rows()); ++round) {
    kernels.copy(next, r);
    if (upper_triangular)
      kernels.utri_mul(next, r, r);
    else
      kernels.cubic_mul(next, r, r);
    ++stats.rounds;
    const bool changed = kernels.differ(next, r);
    std::swap(r, next);
    if (!changed) break;
  }
  runtime->queue().finish();
  stats.compute_s = seconds_since(t0);

  t0 = std::chrono::steady_clock::now();
  BitMatrix result = kernels.download(r);
  stats.download_s = seconds_since(t0);
  if (stats_out) *stats_out = stats;
  return result;
}

}  // namespace closure
