// The one place that picks the engine: an algorithm written as a template over the
// engine runs on rt's device when there is one, else on the host.
#pragma once

#include <type_traits>

#include "closure/engine/device_engine.hpp"
#include "closure/engine/host_engine.hpp"

namespace closure {

// Calls body(engine) with a DeviceEngine on *rt (params) or, when rt is null, a HostEngine.
template <class Body>
auto with_engine(ocl::Runtime* rt, const BooleanParams& params, Body&& body) {
  if (rt) {
    DeviceEngine engine(*rt, params);
    return body(engine);
  }
  HostEngine engine;
  return body(engine);
}

template <class Engine>
inline constexpr bool is_host_engine = std::is_same_v<std::decay_t<Engine>, HostEngine>;

}  // namespace closure
