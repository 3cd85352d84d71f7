// The propagation methods' runs: sparse on host threads, propagate on the device.
#include <algorithm>
#include <chrono>
#include <cmath>
#include <limits>

#include "closure/algorithms/chain_count.hpp"
#include "closure/algorithms/column_count.hpp"
#include "closure/algorithms/cost_model.hpp"
#include "closure/algorithms/host_closure.hpp"
#include "closure/algorithms/memory_budget.hpp"
#include "closure/algorithms/row_estimate.hpp"
#include "closure/engine/device_propagation.hpp"
#include "closure/engine/device_rows.hpp"
#include "closure/engine/method_runs.hpp"
#include "closure/executor.hpp"
#include "closure/util/trace.hpp"

namespace closure {
namespace {

// Words ORed (components and edges, half a row each) up to which counting alone goes by
// columns unplanned: about 0.2 ms on the 2-core machine.
constexpr uint64_t kUnplannedSweepWords = uint64_t{1} << 20;

// Bytes the sparse method holds besides its reach rows, for n vertices and m edges (every
// component counted as a vertex): SCC arrays and Tarjan's stacks (~30n), the
// condensation's CSR (8n + 8m while deduplicating), the rows' headers and the threaded
// path's dependency arrays (~41n + 4m), the Closure's member lists (8n).
double sparse_fixed_bytes(size_t n, size_t m) {
  return 88.0 * double(n) + 12.0 * double(m);
}

// Only the count is wanted (nothing reads rows): on a condensation where the cost model
// predicts counting by columns over live rows faster than storing every row (from the
// inputs auto gathered, else gathered here), or where the rows, as estimated, would take
// more than half of the `room` left for them, the count alone; else nothing. The second
// rule is what finishes: sparse would stop for lack of memory where the count by columns
// needs a slice of rows a thread. It also keeps the choice off the timed row estimate's
// noise where memory decides (a 600 MB limit once flipped between the two under load).
std::optional<Closure> counted_by_columns(MethodContext& c, double room) {
  if (c.options.propagate.rows_needed) return std::nullopt;
  c.condense();
  const size_t C = c.condensed->scc.component_count();
  if (C < 2) return std::nullopt;
  // A sweep this small is counted without weighing it against sparse: the row estimate and
  // the live rows' pass that would cost as much as the sweep itself (kegg: 3,617 components,
  // 0.43M words, the planning 1.8M instructions against the count's 3.1M).
  const uint64_t sweep_words =
      uint64_t(C + c.condensed->dag.targets.size()) * words_for_bits(C) / 2;
  const bool unplanned = sweep_words <= kUnplannedSweepWords;
  bool rows_crowd_memory = false;
  double row_bytes = 0;
  if (!unplanned) {
    if (!c.costs || !c.costs->count_only)
      c.costs = gather_cost_inputs(c.graph, *c.condensed, true, thread_budget());
    complete_cost_inputs(*c.costs, *c.condensed);
    trace("count planned");
    row_bytes = double(C) * std::max(0.0, c.costs->row_words) * sizeof(word_t);
    rows_crowd_memory = row_bytes > room / 2;
    // The chains where the cover may pay against the other counts (auto tried it already).
    if (chain_cover_may_pay(*c.costs)) c.cover_chains();
    const double count_s =
        std::min(predict_host_column_count_s(*c.costs), predict_host_chain_count_s(*c.costs));
    if (!rows_crowd_memory && !(count_s < predict_host_sparse_s(*c.costs))) return std::nullopt;
  }
  // The chains' stored rows (a number a chain in every slot, at most) are held to half the
  // room left, as sparse's rows are; past it, by columns (32 MB a thread).
  if (c.chain_counting && double(c.chain_counting->slots.slots) *
                                  double(c.chain_counting->cover.chains()) * sizeof(uint32_t) >
                              room / 2)
    c.chain_counting.reset();
  const auto t0 = std::chrono::steady_clock::now();
  // By chains where the cover was made: a history's few chains make rows shorter than bits.
  const std::optional<uint64_t> by_chains =
      c.chain_counting ? std::optional(count_closure_by_chains(*c.chain_counting)) : std::nullopt;
  const uint64_t cross =
      by_chains ? *by_chains
                : count_closure_by_columns(c.condensed->dag, weighted_sizes(c.condensed->scc));
  const std::string how = by_chains
                              ? "counted by " + std::to_string(c.chain_counting->cover.chains()) +
                                    " chains over live rows on the host"
                              : "counted by columns over live rows on the host";
  const std::string where = rows_crowd_memory
                                ? how + " (the rows, about " + format_bytes(row_bytes) +
                                      ", would crowd the " + format_bytes(room) + " of memory left)"
                                : how;
  c.report.compute_s = seconds_since(t0);
  c.report.condense_s = c.condense_s;
  c.report.components = C;
  c.report.dag = C == c.graph.vertex_count() && !any_cyclic(c.condensed->scc.cyclic);
  c.report.reason += "; " + where;
  auto rows = std::make_shared<DeviceRows>(C, BitMatrix(), false, cross, where);
  // The condensation's maps are the closure's now, as sparse's are (no copy of 10M ids),
  // and the chains' arrays go before the closure builds its own.
  c.chain_counting.reset();
  return Closure::from_resident(std::move(c.condensed->scc.component_of),
                                std::move(c.condensed->scc.cyclic), std::move(rows));
}

}  // namespace

ocl::Runtime* MethodContext::open_device() {
  if (!runtime && options.lazy_runtime) {
    const auto t0 = std::chrono::steady_clock::now();
    trace("waiting for the device");
    runtime = options.lazy_runtime();
    trace("device ready");
    report.device_wait_s += seconds_since(t0);
  }
  return runtime;
}

std::optional<GpuOpening> MethodContext::gpu_opening() const {
  if (!gpu_opening_since) return std::nullopt;
  // Opened already (auto waited for it to describe it): its whole start-up is paid.
  if (runtime) return GpuOpening(std::numeric_limits<double>::infinity());
  return GpuOpening(seconds_since(*gpu_opening_since));
}

void MethodContext::cover_chains() {
  if (chains_tried) return;
  chains_tried = true;
  condense();
  auto cover = [&] {
    chain_counting = prepare_chain_count(condensed->dag, weighted_sizes(condensed->scc),
                                         most_chains_worth_counting(condensed->component_count()));
  };
  // The count's planning reads the row estimate and the longest path next: on a large
  // condensation they are gathered on a thread beside the cover, whose passes are serial
  // (10M commits: 0.08 s of planning after a 0.35 s cover, 2-core).
  const bool beside =
      costs && costs->count_only && costs->row_words < 0 &&
      condensed->component_count() + condensed->dag.targets.size() >= kFinerInputsBesideFrom;
  if (beside)
    run_pair([&] { estimate_rows_and_levels(*costs, *condensed); }, cover);
  else
    cover();
  if (costs && chain_counting) costs->chains = chain_counting->cover.chains();
}

void MethodContext::condense() {
  if (condensed) return;
  const auto t0 = std::chrono::steady_clock::now();
  condensed = closure::condense(graph);
  trace("condensed");
  condense_s += seconds_since(t0);
}

namespace {

// Rows that will likely not fit are said at once (ComputeOptions::warn), from an estimate
// of sampled rows, when even the crudest bound (every component's row full) exceeds the
// room; the budget still decides. The estimate takes at most a quarter of a second, whatever
// the graph.
void warn_if_rows_may_not_fit(MethodContext& c, double room) {
  if (!c.options.warn) return;
  const auto full_rows = [](double C) { return C * std::ceil(C / 32) * sizeof(word_t); };
  if (full_rows(double(c.graph.vertex_count())) <= room) return;
  c.condense();
  const size_t C = c.condensed->dag.offsets.size() - 1;
  if (full_rows(double(C)) <= room) return;
  const RowEstimate estimate = estimate_row_bytes(c.condensed->dag, 32, 0.25);
  if (estimate.bytes <= room) return;
  c.options.warn({"the closure's rows are estimated at " + format_bytes(estimate.bytes) +
                      std::string(estimate.cut ? " or more" : "") + " (from " +
                      std::to_string(estimate.samples) + " sampled components), more than the " +
                      format_bytes(room) +
                      " of host memory left for them: this run will likely stop for lack of "
                      "memory",
                  Advice::kWithoutClosure,
                  {}});
}

}  // namespace

Closure run_sparse(MethodContext& c) {
  // The propagation condenses on its own, into bare CSR arrays (no Graph re-sort).
  // The fixed part is known before anything is allocated; the reach rows are charged to
  // the rest of the budget as they are made, so an over-large closure is refused with
  // its size named instead of ending in std::bad_alloc or the OOM killer.
  const size_t n = c.graph.vertex_count();
  const double fixed = sparse_fixed_bytes(n, c.graph.edge_count());
  // At most every vertex's row full, twice over for the row blocks' slack.
  const double most_rows = 2.0 * double(n) * double(words_for_bits(n)) * sizeof(word_t);
  const double limit = host_limit(c.options, fixed + most_rows);
  const std::string what = "sparse on " + std::to_string(n) + " vertices";
  if (fixed > limit)
    throw OutOfMemoryError(what + " needs about " + format_bytes(fixed) +
                           " of host memory before its closure rows; " + format_bytes(limit) +
                           " is available");
  // Counting by columns needs less than that fixed part, and 32 MB of rows a thread.
  if (std::optional<Closure> counted = counted_by_columns(c, limit - fixed))
    return std::move(*counted);
  warn_if_rows_may_not_fit(c, limit - fixed);
  MemoryBudget budget(size_t(limit), size_t(fixed), what);
  SparseOptions sparse;
  sparse.budget = &budget;
  if (c.costs && c.costs->row_words > 0)  // auto's row estimate: the rows' first block
    sparse.expected_row_words = uint64_t(double(c.costs->components) * c.costs->row_words);
  const auto t0 = std::chrono::steady_clock::now();
  Closure result = c.condensed
                       ? closure_sparse(std::move(c.condensed->scc), c.condensed->dag, sparse)
                       : closure_sparse(c.graph, sparse);
  // auto's condensation is part of what sparse would have done itself.
  c.report.compute_s = seconds_since(t0) + c.condense_s;
  c.report.components = result.component_count();
  bool cyclic = false;
  for (vertex_t k = 0; k < result.component_count() && !cyclic; ++k)
    cyclic = result.component_cyclic(k);
  c.report.dag = c.report.components == n && !cyclic;
  return result;
}

Closure run_propagate(MethodContext& c) {
  c.condense();
  SccResult scc = std::move(c.condensed->scc);
  const CsrDag dag = std::move(c.condensed->dag);
  ComputeReport& r = c.report;
  r.condense_s = c.condense_s;
  r.components = scc.component_count();
  r.dag = r.components == c.graph.vertex_count() && !any_cyclic(scc.cyclic);
  DevicePropagationStats stats;
  Closure result = closure_propagate_device(scc, dag, *c.runtime, c.options.propagate, &stats,
                                            c.propagation_prep ? &*c.propagation_prep : nullptr);
  r.device = c.runtime->device().name;
  r.upload_s = stats.upload_s;
  r.compute_s = stats.compute_s + c.prep_s;  // the host's part ran while the device opened
  r.download_s = stats.download_s;
  r.detail = stats.describe();
  r.reason += "; " + r.detail;
  return result;
}

}  // namespace closure
