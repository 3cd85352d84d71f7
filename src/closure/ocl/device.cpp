// Device discovery and the deterministic device choice.
#include "closure/ocl/device.hpp"

#include <dirent.h>
#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <cctype>
#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <stdexcept>

#include "closure/config.hpp"
#include "closure/errors.hpp"
#include "closure/ocl/opencl_library.hpp"
#include "closure/util/available_memory.hpp"

namespace closure::ocl {

// Loading the OpenCL drivers maps a JIT and starts threads; PoCL aborts the process
// ("PTHREAD ERROR in pthread_scheduler_init") when ulimit -v leaves too little for its
// threads (seen at 350 MB on the 2-core machine; 400 MB loaded). Below this much room the
// drivers are not loaded at all: the host path serves, and a named device says why.
constexpr size_t kDriverHeadroom = size_t{400} << 20;

bool drivers_skipped_for_memory() {
  return address_space_headroom() < kDriverHeadroom;
}

namespace {
std::atomic<bool> platforms_listed{false};
}  // namespace

bool drivers_loaded() {
  return platforms_listed.load();
}

bool gpu_may_be_present() {
  // Looked at once (the exit watcher and auto's speculation both ask), with libc's calls:
  // std::filesystem's first use alone cost a small run 20 us (its code paged in, bound).
  static const bool present = [] {
    if (::access("/dev/nvidiactl", F_OK) == 0 || ::access("/dev/kfd", F_OK) == 0) return true;
    DIR* dri = ::opendir("/dev/dri");
    if (!dri) return false;
    bool render = false;
    while (const dirent* e = ::readdir(dri))
      if (std::strncmp(e->d_name, "renderD", 7) == 0) render = true;
    ::closedir(dri);
    return render;
  }();
  return present;
}

std::vector<DeviceInfo> list_devices() {
  std::vector<DeviceInfo> out;
  std::vector<cl::Platform> platforms;
  if (drivers_skipped_for_memory()) return out;
  platforms_listed = true;
  try {
    cl::Platform::get(&platforms);
  } catch (const cl::Error&) {
    return out;  // CL_PLATFORM_NOT_FOUND_KHR: no ICD installed, the host path serves
  }
  for (const auto& p : platforms) {
    std::vector<cl::Device> devices;
    try {
      p.getDevices(CL_DEVICE_TYPE_ALL, &devices);
    } catch (const cl::Error&) {
      continue;
    }
    for (const auto& d : devices) {
      DeviceInfo info;
      info.index = out.size();
      info.platform = p.getInfo<CL_PLATFORM_NAME>();
      info.name = d.getInfo<CL_DEVICE_NAME>();
      info.vendor = d.getInfo<CL_DEVICE_VENDOR>();
      info.driver_version = d.getInfo<CL_DRIVER_VERSION>();
      info.opencl_version = d.getInfo<CL_DEVICE_VERSION>();
      const auto type = d.getInfo<CL_DEVICE_TYPE>();
      info.is_gpu = type & CL_DEVICE_TYPE_GPU;
      info.is_cpu = type & CL_DEVICE_TYPE_CPU;
      info.compute_units = d.getInfo<CL_DEVICE_MAX_COMPUTE_UNITS>();
      info.local_mem_bytes = d.getInfo<CL_DEVICE_LOCAL_MEM_SIZE>();
      info.global_mem_bytes = d.getInfo<CL_DEVICE_GLOBAL_MEM_SIZE>();
      info.max_alloc_bytes = d.getInfo<CL_DEVICE_MAX_MEM_ALLOC_SIZE>();
      info.max_work_group = d.getInfo<CL_DEVICE_MAX_WORK_GROUP_SIZE>();
      info.device = d;
      info.platform_handle = p;
      out.push_back(std::move(info));
    }
  }
  return out;
}

static std::string lower(std::string s) {
  std::transform(s.begin(), s.end(), s.begin(), [](unsigned char c) { return std::tolower(c); });
  return s;
}

std::optional<DeviceInfo> choose_device(const std::string& flag) {
  std::string spec = flag;
  if (spec.empty()) spec = config::text(kDeviceEnv);
  // Who named it, for a refusal: the environment where it says this (a session passes its
  // value on when no option was given), else the option.
  const std::string env = config::text(kDeviceEnv);
  const std::string named =
      !env.empty() && env == spec ? std::string("$") + kDeviceEnv + "=" + spec : "--device " + spec;
  spec = lower(spec);
  if (spec == "host") return std::nullopt;
  if (!spec.empty() && spec != "auto" && drivers_skipped_for_memory())
    throw OutOfMemoryError(
        "the OpenCL drivers need about " + format_bytes(double(kDriverHeadroom)) +
            " of address space to load and " + format_bytes(double(address_space_headroom())) +
            " is left (ulimit -v); raise the limit",
        Advice::kHostDevice);
  const auto devices = list_devices();
  // A loader named but not opened (a mistyped CLOSURE_OPENCL_LIBRARY) is why none is found.
  const std::string failure = opencl_library_failure();
  const std::string loader = failure.empty() ? "" : "; " + failure;
  auto first = [&](bool gpu) -> std::optional<DeviceInfo> {
    for (const auto& d : devices)
      if (gpu ? d.is_gpu : d.is_cpu) return d;
    return std::nullopt;
  };
  if (spec.empty() || spec == "auto") {
    if (auto d = first(true)) return d;
    if (auto d = first(false)) return d;
    if (!devices.empty()) return devices.front();
    return std::nullopt;
  }
  if (spec == "gpu" || spec == "cpu") {
    if (auto d = first(spec == "gpu")) return d;
    throw UsageError(named + ": no OpenCL " + spec + " device found (see `closure devices`" +
                     loader + ")");
  }
  if (std::all_of(spec.begin(), spec.end(), [](unsigned char c) { return std::isdigit(c); })) {
    // Digits past any device count (stoul would throw out_of_range beyond 2^64) are out of
    // range like any other index too large.
    const size_t i = spec.size() <= 9 ? std::stoul(spec) : SIZE_MAX;
    if (i < devices.size()) return devices[i];
    throw UsageError(named + ": device index out of range: " + std::to_string(devices.size()) +
                     " OpenCL device(s) found" +
                     (devices.empty() ? " (use host" + loader + ")"
                                      : " (use 0 to " + std::to_string(devices.size() - 1) +
                                            ", gpu, cpu, host or part of a device name)"));
  }
  for (const auto& d : devices)
    if (lower(d.name).find(spec) != std::string::npos) return d;
  throw UsageError(
      named + ": no OpenCL device matches '" + spec +
      "' (use an index, gpu, cpu, host or part of a device name; see `closure devices`" + loader +
      ")");
}

}  // namespace closure::ocl
