// The dense closure driver over any engine (host_engine.hpp, device_engine.hpp): what
// dense_closure runs, and what benchmarks run on engines of their own.
#pragma once

#include <algorithm>
#include <chrono>

#include "closure/algorithms/engine_algorithms.hpp"
#include "closure/engine/square.hpp"

namespace closure {

inline double seconds_since(std::chrono::steady_clock::time_point t0) {
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
}

// Moves `adjacency` to the engine, runs the algorithm, brings the closure back; the
// phases are timed apart (compute_s: the algorithm alone, with the matrix on the engine).
template <class Engine>
BitMatrix dense_closure_on(Engine& e, const BitMatrix& adjacency, DenseAlgorithm algorithm,
                           bool upper, size_t base_bits, DenseStats& stats) {
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

}  // namespace closure
