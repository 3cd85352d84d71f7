// Keeping PoCL out of a process that will use a GPU only. The ICD loader loads every
// driver listed in its vendors folder on the first OpenCL call, PoCL (a CPU runtime)
// among them, and PoCL's threads then cost the process about 0.08 s at exit on the H200
// machine (docs/benchmarks.md, "The GPU's floor"). When a process is about to open a GPU
// and nothing else (`--device gpu`, or auto's speculation, in a CLI process), this points
// the loader (OCL_ICD_VENDORS, which both ocl-icd and Khronos's loader read as a folder) at
// a folder holding the same vendor files minus PoCL's: a copy under the program cache,
// named by a hash of its contents, written once.
#pragma once

#include <string>
#include <vector>

namespace closure::ocl {

// Does it, unless the drivers are already loaded, the user set OCL_ICD_VENDORS to
// something other than a folder (or OCL_ICD_FILENAMES), no vendor file names PoCL, only
// PoCL's exist, or the cache folder cannot be written. Returns whether it did. Sets an
// environment variable: call it before starting threads that might read the environment.
bool load_gpu_drivers_only();

// What load_gpu_drivers_only does once the drivers are known not to be loaded (a test's
// child process cannot unload what its parent loaded).
bool point_loader_at_gpu_vendors();

// The vendor files a GPU-only process loads from `vendors_dir` (those whose library is
// not PoCL's), sorted; for tests.
std::vector<std::string> gpu_vendor_files(const std::string& vendors_dir);

}  // namespace closure::ocl
