// auto's rule: sparse propagation on the host was the fastest method end to end on every
// small and shallow graph measured (the GRAIL graphs, road, social and dependency graphs);
// on large graphs with large closures, such as commit histories, propagation on a GPU wins
// by far (docs/benchmarks.md, "Closures"). The cost model (cost_model.hpp) decides
// between the two; the dense methods remain for callers that ask.
#include "closure/algorithms/planner.hpp"

#include <algorithm>
#include <cstdio>

#include "closure/errors.hpp"

namespace closure {
namespace {

Plan chosen(Method m, std::string reason, double host_s = 0, double device_s = 0) {
  return Plan{Plan::Need::kNothing, m, std::move(reason), host_s, device_s};
}

Plan needs(Plan::Need what) {
  return Plan{what, Method::kSparse, "", 0, 0};
}

Plan auto_plan(const PlanFacts& f) {
  if (f.vertices + f.edges < kAutoModelFrom) {
    char why[160];
    std::snprintf(why, sizeof why,
                  "auto: %zu vertices, %.1f edges each; small, so sparse on the host", f.vertices,
                  f.vertices ? double(f.edges) / double(f.vertices) : 0.0);
    return chosen(Method::kSparse, why);
  }
  if (!f.condensed) return needs(Plan::Need::kCondensation);
  const CostInputs& in = *f.condensed;
  const double host_s = predict_host_s(in);
  double device_s = 1e30;  // no device considered
  // Only a GPU can win (cost_model.hpp), and only where the host takes long enough to pay
  // for its start-up (less what it has taken so far where a GPU is being opened anyway).
  // Whether it is in the running is judged at its least (no block items); the prediction
  // then needs the GPU's description (not a context) and, where there is a GPU, its block
  // items counted.
  CostInputs least = in;
  least.block_items = std::max<int64_t>(0, in.block_items);
  if (host_s >= kDeviceWorthLookingS && predict_gpu_propagate_s(least, f.gpu_opening) < host_s) {
    if (!f.gpu_looked_up) return needs(Plan::Need::kGpuDescription);
    if (f.gpu && in.block_items < 0) return needs(Plan::Need::kBlockItems);
    if (f.gpu) device_s = predict_device_propagate_s(in, *f.gpu, f.gpu_opening);
  }
  const bool device = device_s < host_s;
  return chosen(device ? Method::kPropagate : Method::kSparse,
                "auto: " + describe_costs(in, host_s, device_s) +
                    (device ? "; so propagate on the device" : "; so sparse on the host"),
                host_s, device_s < 1e30 ? device_s : 0);
}

}  // namespace

Plan plan(const PlanFacts& facts) {
  if (facts.requested != Method::kAuto) return chosen(facts.requested, "requested");
  return auto_plan(facts);
}

Engine parse_engine(std::string_view name) {
  for (Engine e : {Engine::kAuto, Engine::kClosure, Engine::kIndex})
    if (engine_name(e) == name) return e;
  throw UsageError("unknown engine '" + std::string(name) + "' (auto, closure or index)");
}

std::string_view engine_name(Engine e) {
  switch (e) {
    case Engine::kAuto:
      return "auto";
    case Engine::kClosure:
      return "closure";
    case Engine::kIndex:
      return "index";
  }
  return "?";
}

EnginePlan plan_engine(const EngineFacts& facts) {
  EnginePlan p;
  if (facts.requested != Engine::kAuto) {
    p.engine = facts.requested;
    p.reason = "requested";
    return p;
  }
  if (!facts.components) {
    p.needs_components = true;
    return p;
  }
  p.components = *facts.components;
  const double c = double(p.components);
  p.closure_bytes = c * c / 8;
  const bool large = p.closure_bytes > kClosureLimitBytes;
  p.engine = large ? Engine::kIndex : Engine::kClosure;
  char why[160];
  std::snprintf(why, sizeof why, "the closure of %.0f components could take up to %s", c,
                format_bytes(p.closure_bytes).c_str());
  p.reason = std::string(why) + (large ? ", more than " : ", at most ") +
             format_bytes(kClosureLimitBytes) + (large ? ": an index" : ": the closure");
  return p;
}

}  // namespace closure
