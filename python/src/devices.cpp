// closure._closure.devices: the OpenCL devices as `closure devices` lists them.
#include <optional>

#include "bindings.hpp"
#include "closure/ocl/device.hpp"
#include "closure/session/session.hpp"
#include "interruptible.hpp"

namespace closure::python {

void bind_devices(py::module_& m) {
  m.def(
      "devices",
      [] {
        auto devices = run_interruptible([] { return ocl::list_devices(); });
        std::optional<DeviceFacts> chosen;
        try {
          SessionOptions so;
          so.quiet = true;
          chosen = Session(so).chosen_device();  // the session's choice, as for a closure
        } catch (const std::exception&) {
          // CLOSURE_DEVICE names no device: then none is the default.
        }
        py::list out;
        for (const auto& d : devices) {
          py::dict e;
          e["index"] = d.index;
          e["name"] = d.name;
          e["platform"] = d.platform;
          e["vendor"] = d.vendor;
          e["type"] = d.is_gpu ? "GPU" : d.is_cpu ? "CPU" : "ACC";
          e["compute_units"] = d.compute_units;
          e["global_mem_bytes"] = d.global_mem_bytes;
          e["local_mem_bytes"] = d.local_mem_bytes;
          e["max_alloc_bytes"] = d.max_alloc_bytes;
          e["max_work_group"] = d.max_work_group;
          e["driver_version"] = d.driver_version;
          e["opencl_version"] = d.opencl_version;
          e["default"] = chosen.has_value() && chosen->index == d.index;
          out.append(e);
        }
        return out;
      },
      "The OpenCL devices (dicts); 'index' is what device= takes.");
}

}  // namespace closure::python
