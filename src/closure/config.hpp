// The one configuration layer: every environment variable the library and the CLI read is
// named, explained and read here, and nowhere else (tests check that no other file calls
// getenv for CLOSURE_*). Values are read when asked, so a variable a test or a script sets
// takes effect; a Session (or the CLI's options) takes them once, flags first.
//
// User-facing settings:
//   CLOSURE_DEVICE        the device when --device is not given (index, gpu, cpu, host, name)
//   CLOSURE_TUNING        the tuning overlay file, or "off" (default ~/.cache/closure/tuning.txt):
//                         kernel parameters, and the host cost model's calibration ("host" row)
//   CLOSURE_CACHE_DIR     the program cache folder (default ~/.cache/closure)
//   CLOSURE_BOOL_PARAMS   Boolean kernel parameters over the tuned ones ("tile_n=4,tile_m=2")
//   CLOSURE_MMA_PARAMS    tensor-core kernel parameters over the tuned ones
//   CLOSURE_MMA           "off": never the 1-bit tensor-core kernel
//   CLOSURE_PROGRESS_DELAY seconds before a progress line appears (default 1)
//   CLOSURE_MPI_ALL_OUTPUT under mpirun, let every rank print, not rank 0 only
//   CLOSURE_OPENCL_LIBRARY the OpenCL ICD loader opened at the first OpenCL call (default
//                         libOpenCL.so.1; "off": none, every device is the host)
// The OpenCL ICD loader's own, read (and, for a CLI process that opens a GPU only, set:
// app/process/gpu_drivers_only.hpp) but not defined here:
//   OCL_ICD_VENDORS, OCL_ICD_FILENAMES, OPENCL_VENDOR_PATH
// Development and measurement (docs/benchmarks.md, tools/*.sh):
//   CLOSURE_KERNEL_PATH   load kernels/*.cl from this folder instead of the embedded copies
//   CLOSURE_EXIT_WATCHER  "on" / "off": `closure run` in a watcher and a worker process
//                         (app/process/exit_watcher.hpp); default: on where a GPU may be
//                         present and the run may open one (session.hpp's run_may_open_gpu)
//   CLOSURE_TRACE         print the process's milestones with their times on stderr
//                         (util/trace.hpp)
//   CLOSURE_HEAP_REUSE    "off": the executable leaves glibc's malloc at its defaults
//                         (app/process/allocator_policy.hpp; tools/bench-heap-reuse.sh)
// glibc's malloc settings, read (a user's own wins over the executable's policy) but not
// defined here: GLIBC_TUNABLES (glibc.malloc.*), MALLOC_MMAP_THRESHOLD_, MALLOC_TRIM_THRESHOLD_
#pragma once

#include <cstddef>
#include <string>

namespace closure::config {

inline constexpr const char* kDevice = "CLOSURE_DEVICE";
inline constexpr const char* kTuning = "CLOSURE_TUNING";
inline constexpr const char* kCacheDir = "CLOSURE_CACHE_DIR";
inline constexpr const char* kBoolParams = "CLOSURE_BOOL_PARAMS";
inline constexpr const char* kMmaParams = "CLOSURE_MMA_PARAMS";
inline constexpr const char* kMma = "CLOSURE_MMA";
inline constexpr const char* kProgressDelay = "CLOSURE_PROGRESS_DELAY";
inline constexpr const char* kMpiAllOutput = "CLOSURE_MPI_ALL_OUTPUT";
inline constexpr const char* kOpenclLibrary = "CLOSURE_OPENCL_LIBRARY";
inline constexpr const char* kKernelPath = "CLOSURE_KERNEL_PATH";
inline constexpr const char* kTrace = "CLOSURE_TRACE";
inline constexpr const char* kExitWatcher = "CLOSURE_EXIT_WATCHER";
inline constexpr const char* kHeapReuse = "CLOSURE_HEAP_REUSE";
inline constexpr const char* kGlibcTunables = "GLIBC_TUNABLES";
inline constexpr const char* kMallocMmapThreshold = "MALLOC_MMAP_THRESHOLD_";
inline constexpr const char* kMallocTrimThreshold = "MALLOC_TRIM_THRESHOLD_";
inline constexpr const char* kIcdVendors = "OCL_ICD_VENDORS";
inline constexpr const char* kIcdFilenames = "OCL_ICD_FILENAMES";
inline constexpr const char* kVendorPath = "OPENCL_VENDOR_PATH";

// The variable's value; "" when it is unset or empty.
std::string text(const char* name);
bool is_set(const char* name);  // set, even to ""
// Its value as a count; 0 when unset or not a number.
size_t count(const char* name);

// The per-user cache folder: $XDG_CACHE_HOME/closure, else ~/.cache/closure; "" when
// neither HOME nor XDG_CACHE_HOME is set.
std::string user_cache_dir();

}  // namespace closure::config
