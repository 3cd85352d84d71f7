// Dense closure drivers: move the matrix to the engine, run the algorithm, time phases.
#include "closure/engine/square.hpp"

#include <stdexcept>

#include "closure/engine/dense_driver.hpp"
#include "closure/engine/with_engine.hpp"
#include "closure/errors.hpp"

namespace closure {
BitMatrix dense_closure(const BitMatrix& adjacency, DenseAlgorithm algorithm, bool upper_triangular,
                        ocl::Runtime* runtime, const BooleanParams& params, DenseStats* stats_out,
                        size_t base_bits) {
  if (adjacency.rows() != adjacency.cols())
    throw InternalError("dense_closure: the matrix must be square");
  if (algorithm == DenseAlgorithm::kRecursive && !upper_triangular)
    throw InternalError("dense_closure: the recursive closure needs a DAG in topological order");
  DenseStats stats;
  BitMatrix result = with_engine(runtime, params, [&](auto& engine) {
    // The host engine splits on words; pad to whole words so blocks line up.
    if constexpr (is_host_engine<decltype(engine)>)
      return dense_closure_on(engine, adjacency.repadded({bits_in_words(1), 1}), algorithm,
                              upper_triangular, base_bits, stats);
    else
      return dense_closure_on(engine, adjacency, algorithm, upper_triangular, base_bits, stats);
  });
  if (stats_out) *stats_out = stats;
  return result;
}

}  // namespace closure
