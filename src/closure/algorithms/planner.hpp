// auto's choices as pure functions: facts about the graph and the device in, a plan out.
// plan() picks the closure's method, plan_engine() what answers reachability questions on
// a graph (its closure or an index). Neither opens nor computes anything; when one needs a
// fact it does not have yet (the condensation's size and sampled reach, a GPU's
// description, the sweep's block items, the component count), its plan says so, and its
// caller (compute_closure, the query pipeline) gathers that fact and asks again. Tests call
// them without a device.
#pragma once

#include <cstddef>
#include <optional>
#include <string>
#include <string_view>

#include "closure/algorithms/cost_model.hpp"
#include "closure/device_facts.hpp"
#include "closure/options.hpp"

namespace closure {

// Below this many vertices + edges, auto does not model costs nor look for a device: it
// runs sparse on the host, which takes milliseconds there.
inline constexpr size_t kAutoModelFrom = 50'000;

struct PlanFacts {
  Method requested = Method::kAuto;
  size_t vertices = 0, edges = 0;
  // The condensation's size and sampled mean reach (CostInputs' other fields), once
  // condensed.
  std::optional<CostInputs> condensed;
  // Whether a GPU was looked for (a speculative opening or the device list), and the one
  // found.
  bool gpu_looked_up = false;
  std::optional<DeviceFacts> gpu;
  // A GPU is being opened already, on speculation (from the process's start for a large
  // file, or once the graph was read), and for how long: the start-up it has taken so far is
  // paid whatever auto chooses, so the device's prediction counts only the rest.
  std::optional<GpuOpening> gpu_opening;
};

struct Plan {
  // What to learn before the plan is final: kNothing means `method` is the choice.
  // kBlockItems: the condensation's block items (CostInputs::block_items, a pass over its
  // edges), counted only where a GPU is there and in the running.
  enum class Need { kNothing, kCondensation, kBlockItems, kGpuDescription } need = Need::kNothing;
  Method method = Method::kSparse;  // never kAuto
  std::string reason;               // "requested", or auto's reasoning with its figures
  double host_s = 0, device_s = 0;  // the predictions compared (0: none made)
};

Plan plan(const PlanFacts& facts);

// What answers reachability questions on a graph: its closure, or a reachability index
// built on the fly (linear to build, where the closure of a large DAG costs gigabytes and
// seconds for a single question).
enum class Engine { kAuto, kClosure, kIndex };
Engine parse_engine(std::string_view name);  // auto, closure, index; UsageError otherwise
std::string_view engine_name(Engine e);

// Above this dense bound of the closure (components^2 / 8 bytes) auto answers from an index.
inline constexpr double kClosureLimitBytes = 64.0 * 1024 * 1024;

struct EngineFacts {
  Engine requested = Engine::kAuto;
  std::optional<size_t> components;  // the condensation's component count, once counted
};

struct EnginePlan {
  bool needs_components = false;     // auto asks for the component count first
  Engine engine = Engine::kClosure;  // never kAuto
  std::string reason;                // "requested", or auto's figures
  size_t components = 0;             // auto: the component count it judged by
  double closure_bytes = 0;          // auto: the closure's dense bound it compared
};

EnginePlan plan_engine(const EngineFacts& facts);

}  // namespace closure
