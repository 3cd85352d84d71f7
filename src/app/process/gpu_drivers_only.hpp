// Keeping PoCL out of a process that will use a GPU only. The ICD loader loads every
// driver it is given on the first OpenCL call, PoCL (a CPU runtime) among them; loading
// PoCL beside NVIDIA's driver is a large part of the wait before a GPU is chosen
// (docs/benchmarks-startup.md, "The GPU's floor"). When a CLI process is about to open a
// GPU and nothing else (`--device gpu`, or auto's speculation), PoCL is dropped from what
// the loader reads: from $OCL_ICD_FILENAMES (libraries by name), and from the vendors
// folder, replaced (OCL_ICD_VENDORS, a folder for ocl-icd and Khronos's loader alike) by a
// copy without PoCL's files under the program cache, named by a hash of its contents.
#pragma once

#include <string>
#include <string_view>
#include <vector>

namespace closure::ocl {

// Does it, unless the drivers are already loaded. Each list is left as it is where it
// names no PoCL, only PoCL's, or (the vendors folder) the user pointed OCL_ICD_VENDORS at
// one file or library, or the cache folder cannot be written. Returns whether anything
// changed. Sets environment variables: call it before starting threads that might read
// the environment.
bool load_gpu_drivers_only();

// What load_gpu_drivers_only does once the drivers are known not to be loaded (a test's
// child process cannot unload what its parent loaded).
bool point_loader_at_gpu_vendors();

// A colon-separated list of driver libraries ($OCL_ICD_FILENAMES) without PoCL's; "" when
// it names no PoCL, or nothing else (then it is left as it is).
std::string filenames_without_pocl(std::string_view list);

// The vendor files a GPU-only process loads from `vendors_dir` (those whose library is
// not PoCL's), sorted; for tests.
std::vector<std::string> gpu_vendor_files(const std::string& vendors_dir);

}  // namespace closure::ocl
