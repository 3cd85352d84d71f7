// The dense methods' runs (square, condense, recursive): the memory check before anything
// is allocated, then repeated squaring or the recursive closure on the engine.
#include <algorithm>
#include <chrono>
#include <cstdint>

#include "closure/engine/method_runs.hpp"
#include "closure/engine/square.hpp"
#include "closure/util/available_memory.hpp"

namespace closure {
namespace {

// The adjacency matrix of CSR rows (successors of u: targets[offsets[u] .. offsets[u+1]))
// with vertex u placed at position[u]; strictly upper triangular when `position` is a
// topological numbering of a DAG.
BitMatrix placed_matrix(std::span<const uint64_t> offsets, std::span<const vertex_t> targets,
                        const std::vector<vertex_t>& position) {
  const size_t n = offsets.size() - 1;
  BitMatrix m(n, n);
  for (vertex_t u = 0; u < n; ++u)
    for (uint64_t e = offsets[u]; e < offsets[u + 1]; ++e) m.set(position[u], position[targets[e]]);
  return m;
}

// Bytes a dense method holds at its peak: host matrix + result copy, and on the device
// the matrix and its working copies (squaring: 2; recursive: about 3 at the top split).
// On the host engine those working copies are host memory too, with the engine's own copy
// of the input and a product's transposed operand: measured peak (`/usr/bin/time`, 12,000-
// and 30,000-vertex random DAGs) 7.8-7.9 matrices squaring or condensing, 5.9-6.0 recursive,
// where 2.5 had let a run start that ran out of memory partway.
struct DenseFootprint {
  double host_bytes, device_bytes, largest_buffer;
};
DenseFootprint dense_footprint(size_t n, Method m, const BooleanParams& p, const ocl::Runtime* rt) {
  const bool device_is_nvidia = rt && rt->device().vendor.find("NVIDIA") != std::string::npos;
  const double padded = double(round_up(std::max<size_t>(n, 1), size_t(p.tile_rows())));
  const double matrix = padded * padded / 8;
  // The tensor-core path (NVIDIA) keeps packed copies of its operands: two more.
  const double mma_scratch = device_is_nvidia ? 2.0 : 0.0;
  if (!rt) return {(m == Method::kRecursive ? 6.0 : 8.0) * matrix, 0, matrix};
  return {2.5 * matrix, ((m == Method::kRecursive ? 3.0 : 2.0) + mma_scratch) * matrix, matrix};
}

void check_device_fits(const DenseFootprint& f, const ocl::DeviceInfo& d, const std::string& what) {
  // The kernels index words with 32-bit ints (and so do their launch arguments).
  if (f.largest_buffer / sizeof(word_t) > double(INT32_MAX))
    throw OutOfMemoryError(what + " needs a matrix of " + format_bytes(f.largest_buffer) +
                               ", more than the 2^31 words the device kernels can index",
                           Advice::kSparseMethod);
  if (f.device_bytes > 0.9 * double(d.global_mem_bytes) ||
      f.largest_buffer > double(d.max_alloc_bytes))
    throw OutOfMemoryError(what + " needs about " + format_bytes(f.device_bytes) + " on " + d.name +
                               " (largest buffer " + format_bytes(f.largest_buffer) + "); it has " +
                               format_bytes(double(d.global_mem_bytes)) + " (largest allocation " +
                               format_bytes(double(d.max_alloc_bytes)) + ")",
                           Advice::kSparseMethod);
}

void check_fits(const MethodContext& c, size_t n, const BooleanParams& params) {
  const DenseFootprint f = dense_footprint(n, c.method, params, c.runtime);
  const double limit = host_limit(c.options);
  const std::string what =
      std::string(method_name(c.method)) + " on " + std::to_string(n) + " vertices";
  // A CPU device's buffers are host memory too, and PoCL aborts the process (its assertion,
  // exit 134) where one it allocates on first use fails: counted here with its own.
  const bool cpu_device = c.runtime && c.runtime->device().is_cpu;
  const double on_device =
      cpu_device ? f.device_bytes + double(cpu_device_reserve(c.runtime->device().compute_units))
                 : 0.0;
  if (f.host_bytes + on_device > limit)
    throw OutOfMemoryError(
        what + " needs about " + format_bytes(f.host_bytes + on_device) + " of host memory" +
            (cpu_device ? " (" + format_bytes(on_device) + " for the CPU device)" : std::string()) +
            "; " + format_bytes(limit) + " is available",
        Advice::kSparseMethod);
  if (c.runtime) check_device_fits(f, c.runtime->device(), what);
}

void fill_from_stats(ComputeReport& report, const DenseStats& stats) {
  report.rounds = stats.rounds;
  report.device = stats.engine;
  report.upload_s = stats.upload_s;
  report.compute_s = stats.compute_s;
  report.download_s = stats.download_s;
}

}  // namespace

Closure run_square(MethodContext& c) {
  // The seed method as it was: the whole graph's matrix, topologically relabelled and
  // triangular when the graph is a DAG, the cubic kernel otherwise.
  const Graph& g = c.graph;
  const size_t n = g.vertex_count();
  const BooleanParams params = dense_params(c.options, c.open_device());
  const auto t0 = std::chrono::steady_clock::now();
  auto order = topological_order(g);
  c.report.dag = order.has_value();
  // The summary's components are strongly connected components whatever the method
  // (square itself does not condense: its closure groups every vertex alone).
  c.report.components = c.report.dag ? n : strongly_connected_components(g).component_count();
  c.report.condense_s = seconds_since(t0);
  check_fits(c, n, params);
  std::vector<vertex_t> position(n);
  for (size_t i = 0; i < n; ++i) position[order ? (*order)[i] : i] = vertex_t(i);
  DenseStats stats;
  BitMatrix reach = dense_closure(placed_matrix(g.offsets(), g.targets(), position),
                                  DenseAlgorithm::kSquare, c.report.dag, c.runtime, params, &stats);
  fill_from_stats(c.report, stats);
  return order ? Closure::from_dense(std::move(position), std::vector<uint8_t>(n, 0),
                                     std::move(reach))
               : from_full_matrix(std::move(reach));
}

Closure run_condensed_dense(MethodContext& c) {
  // The condensation's matrix is strictly upper triangular.
  const BooleanParams params = dense_params(c.options, c.open_device());
  c.condense();  // auto's, when it condensed to plan: not done twice
  Condensation cond = std::move(*c.condensed);
  c.condensed.reset();
  c.report.condense_s = c.condense_s;
  const size_t k = cond.scc.component_count();
  c.report.components = k;
  c.report.dag = k == c.graph.vertex_count() && !any_cyclic(cond.scc.cyclic);
  check_fits(c, k, params);
  std::vector<vertex_t> identity(k);
  for (size_t i = 0; i < k; ++i) identity[i] = vertex_t(i);
  DenseStats stats;
  const auto algorithm =
      c.method == Method::kRecursive ? DenseAlgorithm::kRecursive : DenseAlgorithm::kSquare;
  BitMatrix reach = dense_closure(placed_matrix(cond.dag.offsets, cond.dag.targets, identity),
                                  algorithm, true, c.runtime, params, &stats);
  fill_from_stats(c.report, stats);
  return Closure::from_dense(std::move(cond.scc.component_of), std::move(cond.scc.cyclic),
                             std::move(reach));
}

}  // namespace closure
