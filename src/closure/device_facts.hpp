// What a device is, as plain facts: its name, kind and sizes. The planner and the cost model
// weigh devices by these alone, and the public API describes the session's device with them,
// so neither needs OpenCL (ocl::DeviceInfo adds the OpenCL handles on top).
#pragma once

#include <cstddef>
#include <string>

namespace closure {

struct DeviceFacts {
  size_t index = 0;  // position in the device list, what `--device N` names
  std::string platform, name, vendor, driver_version, opencl_version;
  bool is_gpu = false, is_cpu = false;
  unsigned compute_units = 0;
  size_t local_mem_bytes = 0, global_mem_bytes = 0, max_alloc_bytes = 0, max_work_group = 0;
  std::string describe() const;  // one line: "NVIDIA H200 (NVIDIA CUDA, GPU, 132 CU)"
};

}  // namespace closure
