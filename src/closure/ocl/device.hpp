// OpenCL device discovery and choice: --device flag, then CLOSURE_DEVICE, then the first
// GPU, else the first CPU device (PoCL), else the host path.
#pragma once

#include <CL/opencl.hpp>
#include <optional>
#include <string>
#include <vector>

#include "closure/config.hpp"
#include "closure/device_facts.hpp"

namespace closure::ocl {

// A device's facts (its index in list_devices()) and its OpenCL handles.
struct DeviceInfo : DeviceFacts {
  cl::Device device;
  cl::Platform platform_handle;
};

// Every device of every platform, platforms in the loader's order. Empty (not an error)
// when no OpenCL platform exists.
std::vector<DeviceInfo> list_devices();
// Whether this process has loaded the OpenCL drivers (listed platforms) at all: only then
// is there a device teardown for the process's exit to hand off.
bool drivers_loaded();
// Whether a GPU could be there at all, without loading a driver: a GPU driver's device
// node exists (NVIDIA's /dev/nvidiactl, AMD's /dev/kfd, a DRM render node). Where none
// does, auto neither speculates on nor lists GPUs: loading PoCL alone, on another thread
// beside the host's work, slows a short closure on a machine of few cores. Looked at once
// a process.
bool gpu_may_be_present();

// The environment variable that names a device when --device is not given.
inline constexpr const char* kDeviceEnv = config::kDevice;

// `spec`: "" (use CLOSURE_DEVICE, else the default), "host", "gpu", "cpu", an index from
// list_devices(), or a case-insensitive substring of the device name. Returns nullopt for
// the host path (asked for, or no OpenCL device exists); throws UsageError for
// a spec that names no device.
std::optional<DeviceInfo> choose_device(const std::string& spec);

}  // namespace closure::ocl
