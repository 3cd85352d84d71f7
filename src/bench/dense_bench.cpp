// Times one cubic product, one triangular product, triangular repeated squaring and the
// recursive closure on the same matrix.
#include "bench/dense_bench.hpp"

#include <algorithm>
#include <chrono>
#include <random>

#include "closure/algorithms/engine_algorithms.hpp"
#include "closure/engine/device_engine.hpp"
#include "closure/engine/host_engine.hpp"
#include "closure/engine/square.hpp"
#include "closure/errors.hpp"
#include "closure/util/available_memory.hpp"

namespace closure {
namespace {

// A random DAG already in topological order: each vertex gets about `degree` successors
// drawn uniformly from the vertices after it (so the matrix is strictly upper triangular).
// Draws per row are capped at the row's free columns: a huge degree then costs n^2 / 2
// draws at most, never degree * n.
BitMatrix random_upper_dag(size_t n, double degree, uint64_t seed, Padding padding) {
  BitMatrix m(n, n, padding);
  if (!(degree > 0)) return m;  // poisson_distribution needs a positive mean
  std::mt19937_64 rng(seed);
  std::poisson_distribution<long long> count(degree);
  for (size_t i = 0; i + 1 < n; ++i) {
    std::uniform_int_distribution<size_t> after(i + 1, n - 1);
    const size_t draws = std::min<size_t>(size_t(std::max(0LL, count(rng))), n - 1 - i);
    for (size_t k = draws; k > 0; --k) m.set(i, after(rng));
  }
  return m;
}

// Refuses (OutOfMemoryError, exit 4) an order whose matrices would not fit: the host keeps
// the adjacency and both closures, the host engine four more work matrices besides; the
// device about five, each a buffer of its own.
void check_fits(const ocl::Runtime* runtime, size_t s) {
  const double matrix = double(s) * double(s) / 8;
  const std::string what = "bench dense at n = " + std::to_string(s);
  const double host = (runtime ? 3 : 7) * matrix;
  if (host > double(available_host_memory()))
    throw OutOfMemoryError(what + " needs about " + format_bytes(host) + " of host memory; " +
                           format_bytes(double(available_host_memory())) + " is available");
  if (!runtime) return;
  const ocl::DeviceInfo& d = runtime->device();
  if (5 * matrix > 0.9 * double(d.global_mem_bytes) || matrix > double(d.max_alloc_bytes))
    throw OutOfMemoryError(what + " needs about " + format_bytes(5 * matrix) + " on " + d.name +
                           " (buffers of " + format_bytes(matrix) + "); it has " +
                           format_bytes(double(d.global_mem_bytes)) + " (largest allocation " +
                           format_bytes(double(d.max_alloc_bytes)) + ")");
}

template <class F>
double median_seconds(int repeat, F&& run) {
  run();  // warm-up (and, on the device, kernel builds)
  std::vector<double> t;
  for (int i = 0; i < std::max(repeat, 1); ++i) {
    const auto t0 = std::chrono::steady_clock::now();
    run();
    t.push_back(std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count());
  }
  std::sort(t.begin(), t.end());
  return (t[(t.size() - 1) / 2] + t[t.size() / 2]) / 2;  // median, even counts too
}

// `runtime`: the device's, or null on the host (for the memory check).
template <class Engine>
DenseBenchResult run(Engine& e, const ocl::Runtime* runtime, size_t n, double degree, int repeat,
                     size_t base, uint64_t seed) {
  DenseBenchResult r;
  r.n = n;
  r.edges_per_vertex = degree;
  const size_t s = round_up(n, e.tile_bits());
  check_fits(runtime, s);
  // Padded to whole tiles: the block below is the padded s x s square, which an unpadded
  // matrix (n not a multiple of the host's 64) does not have.
  const BitMatrix adjacency =
      random_upper_dag(n, degree, seed, {e.tile_bits(), words_for_bits(e.tile_bits())});
  auto a = e.from_host(adjacency);
  auto full = e.block(a, 0, 0, s, s);  // the padded square the algorithms work on

  auto c = e.zeros(s, s);
  const double product = median_seconds(repeat, [&] {
    e.multiply_or(c, full, full, false);
    e.finish();
  });
  const double tri_product = median_seconds(repeat, [&] {
    e.multiply_or(c, full, full, true);
    e.finish();
  });

  auto work = e.zeros(s, s);
  int square_products = 0;
  const double squaring = median_seconds(repeat, [&] {
    e.copy(work, full);
    square_products = square_in_place(e, work, true);
    e.finish();
  });
  const BitMatrix squared = e.to_host(work);

  RecursiveStats stats;
  const double recursive = median_seconds(repeat, [&] {
    e.copy(work, full);
    stats = {};
    recursive_in_place(e, work, s, base, stats);
    e.finish();
  });
  const BitMatrix rec = e.to_host(work);

  r.identical = rec == squared;
  r.closure_density = double(rec.popcount()) / (double(n) * double(n));
  r.rows = {
      {"one full product (cubic)", product, 1, 1.0},
      {"one triangular product", tri_product, 1, tri_product / product},
      {"closure: triangular repeated squaring", squaring, square_products, squaring / product},
      {"closure: blocked recursive", recursive, stats.products + stats.squaring_rounds,
       recursive / product}};
  return r;
}

}  // namespace

DenseBenchResult bench_dense_closure(ocl::Runtime* runtime, const BooleanParams& params, size_t n,
                                     double degree, int repeat, size_t base, uint64_t seed) {
  if (runtime) {
    DeviceEngine e(*runtime, params);
    return run(e, runtime, n, degree, repeat, base, seed);
  }
  HostEngine e;
  return run(e, nullptr, n, degree, repeat, base, seed);
}

}  // namespace closure
