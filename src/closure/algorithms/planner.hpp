// auto's choice as one pure function: facts about the graph and the device in, a plan out.
// It opens nothing and computes nothing itself; when it needs a fact it does not have yet
// (the condensation's size and sampled reach, a GPU's description), its plan says so and
// compute_closure gathers that fact and asks again. Tests call it without a device.
#pragma once

#include <cstddef>
#include <optional>
#include <string>

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
};

struct Plan {
  // What to learn before the plan is final: kNothing means `method` is the choice.
  enum class Need { kNothing, kCondensation, kGpuDescription } need = Need::kNothing;
  Method method = Method::kSparse;  // never kAuto
  std::string reason;               // "requested", or auto's reasoning with its figures
  double host_s = 0, device_s = 0;  // the predictions compared (0: none made)
};

Plan plan(const PlanFacts& facts);

}  // namespace closure
