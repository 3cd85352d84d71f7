// `closure devices`: the OpenCL platforms and devices, with what matters for the kernels.
#include <cstdio>
#include <string>

#include "cli/commands.hpp"
#include "cli/common_options.hpp"
#include "closure/ocl/device.hpp"
#include "closure/ocl/opencl_library.hpp"

namespace closure::cli {

void add_devices_command(CLI::App& command) {
  auto* cmd = &command;
  cmd->callback([] {
    const auto devices = ocl::list_devices();
    std::optional<DeviceFacts> chosen;
    try {
      chosen = Session(device_session_options("")).chosen_device();
    } catch (const std::exception&) {
    }
    std::printf("%-3s %-40s %-28s %-4s %5s %9s %10s %6s\n", "#", "device", "platform", "type",
                "CUs", "local KiB", "global MiB", "max WG");
    for (const auto& d : devices)
      std::printf("%-3zu %-40.40s %-28.28s %-4s %5u %9zu %10zu %6zu%s\n", d.index, d.name.c_str(),
                  d.platform.c_str(),
                  d.is_gpu   ? "GPU"
                  : d.is_cpu ? "CPU"
                             : "ACC",
                  d.compute_units, d.local_mem_bytes / 1024, d.global_mem_bytes >> 20,
                  d.max_work_group, chosen && chosen->index == d.index ? "  (default)" : "");
    std::printf("%-3s %-40s %s\n", "-", "host",
                chosen ? "--device host: C++ threads, no OpenCL"
                       : "C++ threads (the default: no OpenCL device)");
    // A loader named but not opened (a mistyped path) is why no device is listed.
    if (const std::string why = ocl::opencl_library_failure(); !why.empty())
      std::printf("no OpenCL: %s\n", why.c_str());
  });
}

}  // namespace closure::cli
