// compute_closure: the plan, the facts it asks for, the device, and the method's run.
#include "closure/engine/compute.hpp"

#include <limits>

#include "closure/algorithms/cost_model.hpp"
#include "closure/engine/method_runs.hpp"
#include "closure/executor.hpp"
#include "closure/kernels/tuning.hpp"
#include "closure/ocl/device.hpp"
#include "closure/ocl/error.hpp"
#include "closure/util/trace.hpp"

namespace closure {
namespace {

CostInputs cost_inputs(const MethodContext& c) {
  return gather_cost_inputs(c.graph, *c.condensed, !c.options.propagate.rows_needed,
                            thread_budget());
}

// A GPU's description for auto's cost model: the one opened on speculation while the graph
// was read, else the first GPU listed (describing needs no context: one is created only
// when the GPU wins, since creating NVIDIA's and tearing it down costs more than many
// host runs take).
std::optional<ocl::DeviceInfo> describe_gpu(MethodContext& c) {
  if (c.gpu_speculated()) c.open_device();
  if (c.runtime) {
    if (c.runtime->device().is_gpu) return c.runtime->device();
    return std::nullopt;
  }
  if (!c.gpu_speculated() && ocl::gpu_may_be_present())
    for (const auto& d : ocl::list_devices())
      if (d.is_gpu) return d;
  return std::nullopt;
}

// Condenses and does the sweep's host work (blocks, live-row slots), once.
void prepare_propagation(MethodContext& c) {
  if (c.propagation_prep) return;
  c.condense();
  const auto t0 = std::chrono::steady_clock::now();
  c.propagation_prep =
      prepare_device_propagation(c.condensed->scc, c.condensed->dag, c.options.propagate);
  c.prep_s = seconds_since(t0);
  trace("sweep prepared");
}

// Whether a GPU may win is known from the graph as read: only then is one opened, on
// speculation, while the condensation runs; one the session began opening at the start is
// released at once when it may not (before the host's work, not after it).
void speculate_or_release_as_read(MethodContext& c) {
  if (!c.options.speculate_gpu) return;
  const bool may_win = gpu_may_win_as_read(c.graph, !c.options.propagate.rows_needed,
                                           thread_budget(), c.gpu_opening());
  if (may_win && !c.gpu_speculated()) {
    c.options.speculate_gpu();
    c.gpu_opening_since = std::chrono::steady_clock::now();
  }
  if (!may_win && c.gpu_speculated() && c.options.release_unused_device) {
    trace("gpu released: the host wins as read");
    c.options.release_unused_device();
  }
  if (!may_win) c.gpu_opening_since.reset();
}

// Counting alone: the chain cover (its chains are the cost model's input, its work the
// count's), unless the host's other counts, or a GPU already opening, are predicted under
// the cover's own passes. Inputs deferred by gather_cost_inputs() are gathered beside the
// cover (cover_chains()), or now where it is not made, and completed: the plan then reads
// the same inputs as where they were gathered first.
void cover_chains_where_they_may_pay(MethodContext& c) {
  const CostInputs& in = *c.costs;
  if (chain_cover_may_pay(in,
                          c.gpu_speculated() ? predict_gpu_propagate_s(in, c.gpu_opening()) : 1e30))
    c.cover_chains();
  if (c.costs->deferred) complete_cost_inputs(*c.costs, *c.condensed);
}

// The sweep's block items: those of its blocks where a GPU opening on speculation had them
// made already (at the prefetch the model counts), else counted.
uint64_t block_items(const MethodContext& c) {
  const auto& prep = c.propagation_prep;
  if (prep && !prep->blocks.masks.empty() &&
      size_t(prep->params.chain_prefetch) == ChainedBlocks::kFirst)
    return prep->blocks.ext_items.size();
  return count_block_items(c.condensed->dag);
}

// Asks the planner until its plan is final, gathering each fact it asks for.
Plan final_plan(MethodContext& c) {
  PlanFacts facts;
  facts.requested = c.options.method;
  facts.vertices = c.graph.vertex_count();
  facts.edges = c.graph.edge_count();
  for (;;) {
    Plan p = plan(facts);
    switch (p.need) {
      case Plan::Need::kNothing:
        return p;
      case Plan::Need::kCondensation:
        // Whether a GPU may win is known from the graph as read; only then is one opened,
        // on speculation, while the condensation runs.
        speculate_or_release_as_read(c);
        c.condense();
        c.costs = cost_inputs(c);
        trace("costs gathered");
        cover_chains_where_they_may_pay(c);
        facts.condensed = c.costs;
        facts.gpu_opening = c.gpu_opening();
        break;
      case Plan::Need::kBlockItems:
        c.costs->block_items = int64_t(block_items(c));
        facts.condensed = c.costs;
        facts.gpu_opening = c.gpu_opening();
        trace("block items counted");
        break;
      case Plan::Need::kGpuDescription:
        // A GPU opened on speculation is still opening: the sweep's host work fills the
        // wait, lost only if the host is chosen after all.
        if (c.gpu_speculated()) prepare_propagation(c);
        facts.gpu = describe_gpu(c);
        facts.gpu_looked_up = true;
        facts.gpu_opening = c.gpu_opening();
        break;
    }
  }
}

// The method that runs: the plan's, unless the device it needs is not there (then sparse on
// the host, saying why).
Method with_device(MethodContext& c, Method planned) {
  if (planned != Method::kPropagate) return planned;
  // Condensed, and the sweep's host work done, before the device is waited for: its opening
  // began while the graph was read (or, for auto, once it was read), and these overlap
  // what is left of it.
  prepare_propagation(c);
  c.open_device();
  if (!c.runtime) {
    c.report.reason += "; no OpenCL device, so sparse on the host";
    return Method::kSparse;
  }
  // The device the options name may not be the GPU auto described (CLOSURE_DEVICE=cpu).
  if (c.options.method == Method::kAuto && !c.runtime->device().is_gpu) {
    c.report.reason += "; the device is not a GPU, so sparse on the host";
    return Method::kSparse;
  }
  return planned;
}

}  // namespace

BooleanParams dense_params(const ComputeOptions& o, const ocl::Runtime* runtime) {
  BooleanParams params =
      o.params ? *o.params : (runtime ? tuned_boolean_params(runtime->device()) : BooleanParams{});
  if (!o.params_override.empty()) params = parse_boolean_params(o.params_override, params);
  // Out of range: a UsageError; more than the device allows: a DeviceError.
  if (runtime) params.validate(runtime->device());
  return params;
}

double host_limit(const ComputeOptions& o, double most_needed) {
  if (o.host_memory_limit) return double(o.host_memory_limit);
  if (most_needed < kUnprobedBytes) return double(std::numeric_limits<size_t>::max() / 2);
  return 0.9 *
         double(std::min(available_host_memory(), size_t(0.8 * double(host_physical_memory()))));
}

Closure compute_closure(const Graph& g, const ComputeOptions& o, ComputeReport* report_out) {
  ComputeReport report;
  MethodContext c(g, o, report);
  c.gpu_opening_since = o.gpu_opening_since;
  if (o.open_device_first) c.open_device();
  const Plan p = final_plan(c);
  report.reason = p.reason;
  report.device = "host";
  c.method = with_device(c, p.method);
  // A GPU opened on speculation and not used is torn down while the host computes.
  if (c.gpu_speculated() && c.method != Method::kPropagate && o.release_unused_device) {
    trace("gpu released: the plan runs on the host");
    o.release_unused_device();
  }
  report.method = c.method;
  try {
    // An OpenCL call's failure anywhere in a method is said with its name and code.
    Closure result =
        ocl::checked("the OpenCL device", [&] { return method_entry(c.method).run(c); });
    trace("method returned");
    if (report_out) *report_out = report;
    return result;
  } catch (OutOfMemoryError& e) {
    // Reachability needs no closure: every refusal of one says how, in its reader's terms.
    if (!e.has_advice(Advice::kWithoutClosure)) e.add_advice(Advice::kWithoutClosure);
    throw;
  }
}

}  // namespace closure
