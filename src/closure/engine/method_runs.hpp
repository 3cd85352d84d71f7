// What a method's run gets from compute_closure, and the runs the registry (methods.cpp)
// names. Internal to the algorithms folder: callers go through compute_closure.
#pragma once

#include <algorithm>
#include <chrono>
#include <cstdint>
#include <optional>
#include <vector>

#include "closure/algorithms/chain_count.hpp"
#include "closure/algorithms/cost_model.hpp"
#include "closure/algorithms/scc.hpp"
#include "closure/engine/compute.hpp"
#include "closure/engine/device_propagation.hpp"

namespace closure {

struct MethodContext {
  MethodContext(const Graph& g, const ComputeOptions& o, ComputeReport& r)
      : graph(g), options(o), report(r), runtime(o.runtime) {}

  const Graph& graph;
  const ComputeOptions& options;
  ComputeReport& report;
  Method method = Method::kSparse;
  ocl::Runtime* runtime = nullptr;  // the device once opened; null: the host
  // The condensation, when auto made it to plan (handed over, not redone), and the
  // seconds it took.
  std::optional<Condensation> condensed;
  double condense_s = 0;
  // The cost model's inputs, when auto gathered them to plan (sparse's count reads them).
  std::optional<CostInputs> costs;
  // When options.speculate_gpu was called (or the session's opening began), if it was.
  std::optional<std::chrono::steady_clock::time_point> gpu_opening_since;
  bool gpu_speculated() const { return gpu_opening_since.has_value(); }
  // That opening and how long it has taken so far, if any (the cost model's GpuOpening).
  std::optional<GpuOpening> gpu_opening() const;
  // propagate's host work, done while the device opens (prepare_device_propagation).
  std::optional<PropagationPrep> propagation_prep;
  double prep_s = 0;
  // The count by chains' cover, when auto made it to plan a count (chains_tried: made or
  // given up, not to be tried again).
  std::optional<ChainCounting> chain_counting;
  bool chains_tried = false;

  // Opens the device the options name, if not yet open (null: the host engine).
  ocl::Runtime* open_device();
  // Condenses the graph into `condensed` unless that is done, timing it in condense_s.
  void condense();
  // Counting alone: the chain cover unless tried, within most_chains_worth_counting();
  // its chains go to `costs` (when there) for the cost model.
  void cover_chains();
};

// Small helpers the runs share.
inline double seconds_since(std::chrono::steady_clock::time_point t0) {
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
}
inline bool any_cyclic(const std::vector<uint8_t>& cyclic) {
  return std::any_of(cyclic.begin(), cyclic.end(), [](uint8_t f) { return f != 0; });
}

Closure run_sparse(MethodContext& c);
Closure run_propagate(MethodContext& c);
Closure run_square(MethodContext& c);
Closure run_condensed_dense(MethodContext& c);  // condense and recursive

}  // namespace closure
