// Dense closure drivers: move the matrix to the engine, run the algorithm, time phases.
#include "closure/square.hpp"

#include <chrono>
#include <stdexcept>

#include "closure/engine_algorithms.hpp"
#include "engine/device_engine.hpp"
#include "engine/host_engine.hpp"

namespace closure {
namespace {

double seconds_since(std::chrono::steady_clock::time_point t0) {
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
}

template <class Engine>
BitMatrix run(Engine& e, const BitMatrix& adjacency, DenseAlgorithm algorithm, bool upper,
              size_t base_bits, DenseStats& stats) {
  stats.engine = e.name();
  auto t0 = std::chrono::steady_clock::now();
  auto m = e.from_host(adjacency);
  e.finish();
  stats.upload_s = seconds_since(t0);

  t0 = std::chrono::steady_clock::now();
  if (algorithm == DenseAlgorithm::kSquare) {
    stats.rounds = square_in_place(e, m, upper);
  } else {
    // Work on the whole padded square so every split falls on a tile boundary.
    const size_t s = round_up(std::max<size_t>(adjacency.rows(), 1), e.tile_bits());
    auto full = e.block(m, 0, 0, s, s);
    RecursiveStats rs;
    recursive_in_place(e, full, s, base_bits, rs);
    e.put_block(m, 0, 0, full);
    stats.rounds = rs.products + rs.squaring_rounds;
  }
  e.finish();
  stats.compute_s = seconds_since(t0);

  t0 = std::chrono::steady_clock::now();
  BitMatrix result = e.to_host(m);
  stats.download_s = seconds_since(t0);
  return result;
}

}  // namespace

BitMatrix dense_closure(const BitMatrix& adjacency, DenseAlgorithm algorithm, bool upper_triangular,
                        ocl::Runtime* runtime, const BooleanParams& params, DenseStats* stats_out,
                        size_t base_bits) {
  if (adjacency.rows() != adjacency.cols())
    throw std::invalid_argument("dense_closure: the matrix must be square");
  if (algorithm == DenseAlgorithm::kRecursive && !upper_triangular)
    throw std::invalid_argument(
        "dense_closure: the recursive closure needs a DAG in topological order");
  DenseStats stats;
  BitMatrix result;
  if (runtime) {
    DeviceEngine engine(*runtime, params);
    result = run(engine, adjacency, algorithm, upper_triangular, base_bits, stats);
  } else {
    HostEngine engine;
    // The host engine splits on words; pad to whole words so blocks line up.
    result = run(engine, adjacency.repadded({kWordBits, 1}), algorithm, upper_triangular, base_bits,
                 stats);
  }
  if (stats_out) *stats_out = stats;
  return result;
}

}  // namespace closure
