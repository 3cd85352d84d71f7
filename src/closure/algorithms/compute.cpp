// Method dispatch: condensation, the memory check, auto's choice and the engines.
#include "closure/algorithms/compute.hpp"

#include <unistd.h>

#include <chrono>
#include <cmath>
#include <cstdint>
#include <cstdio>

#include "closure/algorithms/cost_model.hpp"
#include "closure/algorithms/device_propagation.hpp"
#include "closure/algorithms/host_closure.hpp"
#include "closure/algorithms/memory_budget.hpp"
#include "closure/algorithms/scc.hpp"
#include "closure/algorithms/square.hpp"
#include "closure/kernels/tuning.hpp"

namespace closure {
namespace {

double seconds_since(std::chrono::steady_clock::time_point t0) {
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
}

// The adjacency matrix of g with vertex v placed at position[v]; strictly upper
// triangular when `position` is a topological numbering of a DAG.
BitMatrix placed_matrix(const Graph& g, const std::vector<vertex_t>& position) {
  const size_t n = g.vertex_count();
  BitMatrix m(n, n);
  for (vertex_t u = 0; u < n; ++u)
    for (vertex_t v : g.successors(u)) m.set(position[u], position[v]);
  return m;
}

// Bytes a dense method holds at its peak: host matrix + result copy, and on the device
// the matrix and its working copies (squaring: 2; recursive: about 3 at the top split).
struct DenseFootprint {
  double host_bytes, device_bytes, largest_buffer;
};
DenseFootprint dense_footprint(size_t n, Method m, const BooleanParams& p, const ocl::Runtime* rt) {
  const bool device = rt != nullptr;
  const bool device_is_nvidia = rt && rt->device().vendor.find("NVIDIA") != std::string::npos;
  const double padded = double(round_up(std::max<size_t>(n, 1), size_t(p.tile_rows())));
  const double matrix = padded * padded / 8;
  // The tensor-core path (NVIDIA) keeps packed copies of its operands: two more.
  const double mma_scratch = device_is_nvidia ? 2.0 : 0.0;
  return {2.5 * matrix, device ? ((m == Method::kRecursive ? 3.0 : 2.0) + mma_scratch) * matrix : 0,
          matrix};
}

// Bytes the sparse method holds besides its reach rows, for n vertices and m edges (every
// component counted as a vertex): SCC arrays and Tarjan's stacks (~30n), the
// condensation's CSR (8n + 8m while deduplicating), the rows' headers and the threaded
// path's dependency arrays (~41n + 4m), the Closure's member lists (8n).
double sparse_fixed_bytes(size_t n, size_t m) {
  return 88.0 * double(n) + 12.0 * double(m);
}

void check_fits(const DenseFootprint& f, const ComputeOptions& o, size_t n, Method m) {
  const double host_limit = closure::host_limit(o);
  const std::string what = std::string(method_name(m)) + " on " + std::to_string(n) + " vertices";
  if (f.host_bytes > host_limit)
    throw OutOfMemoryError(what + " needs about " + format_bytes(f.host_bytes) +
                           " of host memory; " + format_bytes(host_limit) +
                           " is available (try --method sparse)");
  if (o.runtime) {
    // The kernels index words with 32-bit ints (and so do their launch arguments).
    if (f.largest_buffer / sizeof(word_t) > double(INT32_MAX))
      throw OutOfMemoryError(what + " needs a matrix of " + format_bytes(f.largest_buffer) +
                             ", more than the 2^31 words the device kernels can index "
                             "(try --method sparse)");
    const auto& d = o.runtime->device();
    if (f.device_bytes > 0.9 * double(d.global_mem_bytes) ||
        f.largest_buffer > double(d.max_alloc_bytes))
      throw OutOfMemoryError(what + " needs about " + format_bytes(f.device_bytes) + " on " +
                             d.name + " (largest buffer " + format_bytes(f.largest_buffer) +
                             "); it has " + format_bytes(double(d.global_mem_bytes)) +
                             " (largest allocation " + format_bytes(double(d.max_alloc_bytes)) +
                             ") (try --method sparse)");
  }
}

// auto's rule (issue 8): sparse propagation on the host was the fastest method end to
// end on every small and shallow graph measured (all 17 GRAIL graphs, the issue-4
// graphs); on large graphs with large closures, such as commit histories, propagation
// on a GPU wins by 10-20x (docs/benchmarks.md). The cost model decides between them;
// the dense methods remain for callers that ask.

void fill_from_stats(ComputeReport& report, const DenseStats& stats) {
  report.rounds = stats.rounds;
  report.device = stats.engine;
  report.upload_s = stats.upload_s;
  report.compute_s = stats.compute_s;
  report.download_s = stats.download_s;
}

}  // namespace

constexpr Method kMethods[] = {Method::kAuto,      Method::kSparse,   Method::kPropagate,
                               Method::kRecursive, Method::kCondense, Method::kSquare};

std::vector<std::string> method_names() {
  std::vector<std::string> out;
  for (Method m : kMethods) out.emplace_back(method_name(m));
  return out;
}

Method parse_method(std::string_view name) {
  for (Method m : kMethods)
    if (method_name(m) == name) return m;
  std::string names;
  for (const auto& n : method_names()) names += (names.empty() ? "" : ", ") + n;
  throw UsageError("unknown method '" + std::string(name) + "' (" + names + ")");
}

std::string_view method_name(Method m) {
  switch (m) {
    case Method::kAuto:
      return "auto";
    case Method::kSquare:
      return "square";
    case Method::kCondense:
      return "condense";
    case Method::kRecursive:
      return "recursive";
    case Method::kSparse:
      return "sparse";
    case Method::kPropagate:
      return "propagate";
  }
  return "?";
}

BooleanParams dense_params(const ComputeOptions& o, const ocl::Runtime* runtime) {
  BooleanParams params =
      o.params ? *o.params : (runtime ? tuned_boolean_params(runtime->device()) : BooleanParams{});
  if (!o.params_override.empty()) params = parse_boolean_params(o.params_override, params);
  if (runtime) {
    // Parameters the device cannot run are the device's limit, not a bug or a usage error.
    try {
      params.validate(runtime->device());
    } catch (const std::invalid_argument& e) {
      throw DeviceError(e.what());
    }
  }
  return params;
}

// What a method may use on the host: the caller's limit, else what is left to this
// process (free memory, cgroup, ulimit -v), with a tenth kept for everything else.
double host_limit(const ComputeOptions& o) {
  return o.host_memory_limit ? double(o.host_memory_limit)
                             : 0.9 * double(std::min(available_host_memory(),
                                                     size_t(0.8 * double(host_physical_memory()))));
}

Closure compute_closure(const Graph& g, const ComputeOptions& o, ComputeReport* report_out) {
  ComputeReport report;
  const size_t n = g.vertex_count();
  char why[256];

  // Which method, and does it need the device?
  Method method = o.method;
  ocl::Runtime* runtime = o.runtime;
  auto open_device = [&] {
    if (!runtime && o.lazy_runtime) runtime = o.lazy_runtime();
  };
  report.reason = "requested";
  if (o.open_device_first) open_device();
  // auto: small graphs go to the host at once; larger ones are condensed first and the
  // cost model (cost_model.hpp) compares the host with a GPU, opened only when the host
  // is predicted to take long enough for a device to pay off.
  std::optional<SccResult> pre_scc;
  std::optional<CsrDag> pre_dag;
  double pre_s = 0;
  if (method == Method::kAuto) {
    method = Method::kSparse;
    std::snprintf(why, sizeof why,
                  "auto: %zu vertices, %.1f edges each; small, so sparse on the host", n,
                  n ? double(g.edge_count()) / double(n) : 0.0);
    report.reason = why;
    if (n + g.edge_count() >= kAutoModelFrom) {
      auto t0 = std::chrono::steady_clock::now();
      pre_scc = strongly_connected_components(g);
      pre_dag = condensation_csr(g, *pre_scc);
      CostInputs in;
      in.vertices = n;
      in.edges = g.edge_count();
      in.components = pre_scc->component_count();
      in.condensed_edges = pre_dag->targets.size();
      in.mean_reach = sample_mean_reach(*pre_dag);
      const double host_s = predict_host_sparse_s(in);
      double device_s = 1e30;
      // Only a GPU can win (cost_model.hpp). The prediction needs the device's description,
      // not a context: one is created only when the device wins, since creating NVIDIA's
      // and tearing it down at exit cost about 0.35 s that a host run would pay for nothing.
      if (host_s >= kDeviceWorthLookingS && predict_gpu_propagate_s(in) < host_s) {
        std::optional<ocl::DeviceInfo> gpu;
        if (!runtime && o.gpu_speculated) open_device();  // the GPU opened while reading
        if (runtime) {
          if (runtime->device().is_gpu) gpu = runtime->device();
        } else if (!o.gpu_speculated) {
          for (const auto& d : ocl::list_devices())
            if (d.is_gpu && !gpu) gpu = d;
        }
        if (gpu) device_s = predict_device_propagate_s(in, *gpu);
      }
      if (device_s < host_s) {
        open_device();
        // The device the options name may not be the GPU described (CLOSURE_DEVICE=cpu).
        if (runtime && runtime->device().is_gpu) method = Method::kPropagate;
      }
      pre_s = seconds_since(t0);
      report.reason = "auto: " + describe_costs(in, host_s, device_s) +
                      (method == Method::kPropagate ? "; so propagate on the device"
                                                    : "; so sparse on the host");
    }
  }
  if (o.method == Method::kAuto && method != Method::kPropagate && o.release_unused_device)
    o.release_unused_device();
  report.device = "host";
  if (method == Method::kPropagate) {
    // Condensed before the device is waited for: the CLI opens it while the graph is
    // read, and the condensation overlaps what is left of that (0.09 s of 1M commits).
    if (!pre_scc) {
      auto t0 = std::chrono::steady_clock::now();
      pre_scc = strongly_connected_components(g);
      pre_dag = condensation_csr(g, *pre_scc);
      pre_s += seconds_since(t0);
    }
    open_device();
    if (!runtime) {
      method = Method::kSparse;
      report.reason += "; no OpenCL device, so sparse on the host";
    }
  }
  report.method = method;

  if (method == Method::kPropagate) {
    SccResult scc = std::move(*pre_scc);
    const CsrDag dag = std::move(*pre_dag);
    report.condense_s = pre_s;
    report.components = scc.component_count();
    report.dag = report.components == n &&
                 std::none_of(scc.cyclic.begin(), scc.cyclic.end(), [](uint8_t f) { return f; });
    DevicePropagationStats stats;
    Closure result = closure_propagate_device(scc, dag, *runtime, o.propagate, &stats);
    report.device = runtime->device().name;
    report.upload_s = stats.upload_s;
    report.compute_s = stats.compute_s;
    report.download_s = stats.download_s;
    report.detail = stats.describe();
    report.reason += "; " + report.detail;
    if (report_out) *report_out = report;
    return result;
  }

  if (method == Method::kSparse) {
    // The propagation condenses on its own, into bare CSR arrays (no Graph re-sort).
    // The fixed part is known before anything is allocated; the reach rows are charged to
    // the rest of the budget as they are made, so an over-large closure is refused with
    // its size named instead of ending in std::bad_alloc or the OOM killer.
    const double limit = host_limit(o), fixed = sparse_fixed_bytes(n, g.edge_count());
    const std::string what = "sparse on " + std::to_string(n) + " vertices";
    if (fixed > limit)
      throw OutOfMemoryError(what + " needs about " + format_bytes(fixed) +
                             " of host memory before its closure rows; " + format_bytes(limit) +
                             " is available");
    MemoryBudget budget(size_t(limit), size_t(fixed), what);
    SparseOptions sparse;
    sparse.budget = &budget;
    auto t0 = std::chrono::steady_clock::now();
    // auto's SCCs and condensation are handed over, not redone.
    Closure result =
        pre_scc ? closure_sparse(std::move(*pre_scc), *pre_dag, sparse) : closure_sparse(g, sparse);
    report.compute_s = seconds_since(t0) + pre_s;
    report.components = result.component_count();
    bool cyclic = false;
    for (vertex_t c = 0; c < result.component_count() && !cyclic; ++c)
      cyclic = result.component_cyclic(c);
    report.dag = report.components == n && !cyclic;
    if (report_out) *report_out = report;
    return result;
  }

  open_device();
  const BooleanParams params = dense_params(o, runtime);
  ComputeOptions with_device = o;
  with_device.runtime = runtime;
  Closure result;

  if (method == Method::kSquare) {
    // The seed method as it was: the whole graph's matrix, topologically relabelled and
    // triangular when the graph is a DAG, the cubic kernel otherwise.
    auto t0 = std::chrono::steady_clock::now();
    auto order = topological_order(g);
    report.dag = order.has_value();
    // The summary's components are strongly connected components whatever the method
    // (square itself does not condense: its closure groups every vertex alone).
    report.components = report.dag ? n : strongly_connected_components(g).component_count();
    report.condense_s = seconds_since(t0);
    check_fits(dense_footprint(n, method, params, runtime), with_device, n, method);
    std::vector<vertex_t> position(n);
    for (size_t i = 0; i < n; ++i) position[order ? (*order)[i] : i] = vertex_t(i);
    DenseStats stats;
    BitMatrix reach = dense_closure(placed_matrix(g, position), DenseAlgorithm::kSquare, report.dag,
                                    runtime, params, &stats);
    fill_from_stats(report, stats);
    result = order ? Closure::from_dense(std::move(position), std::vector<uint8_t>(n, 0),
                                         std::move(reach))
                   : from_full_matrix(std::move(reach));
  } else {
    // condense / recursive: the condensation's matrix is strictly upper triangular.
    auto t0 = std::chrono::steady_clock::now();
    Condensation c = condense(g);
    report.condense_s = seconds_since(t0);
    const size_t k = c.scc.component_count();
    report.components = k;
    report.dag = k == n && std::none_of(c.scc.cyclic.begin(), c.scc.cyclic.end(),
                                        [](uint8_t f) { return f; });
    check_fits(dense_footprint(k, method, params, runtime), with_device, k, method);
    std::vector<vertex_t> identity(k);
    for (size_t i = 0; i < k; ++i) identity[i] = vertex_t(i);
    DenseStats stats;
    BitMatrix reach = dense_closure(
        placed_matrix(c.dag, identity),
        method == Method::kRecursive ? DenseAlgorithm::kRecursive : DenseAlgorithm::kSquare, true,
        runtime, params, &stats);
    fill_from_stats(report, stats);
    result = Closure::from_dense(std::move(c.scc.component_of), std::move(c.scc.cyclic),
                                 std::move(reach));
  }
  if (report_out) *report_out = report;
  return result;
}

}  // namespace closure
