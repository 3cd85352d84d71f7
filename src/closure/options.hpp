// What a caller asks of a closure and what it is told back: the public options of
// Session::close (session/session.hpp), the methods by name, and the report of a run.
// Plain data: the full set the engine works with (ComputeOptions, engine/compute.hpp) is
// made from these by the session.
#pragma once

#include <cstddef>
#include <string>
#include <string_view>

namespace closure {

enum class Method {
  kAuto,       // picks among the others (planner.hpp)
  kSquare,     // the seed method: repeated squaring of the whole matrix (DAGs: triangular)
  kCondense,   // SCC condensation, then triangular repeated squaring of the DAG
  kRecursive,  // SCC condensation, then the blocked recursive closure of the DAG
  kSparse,     // SCC condensation, then propagation in reverse topological order (CPU)
  kPropagate,  // SCC condensation, then the same propagation on the OpenCL device, whose
               // memory keeps the closure (column slices); falls back to sparse without one
};

Method parse_method(std::string_view name);  // throws UsageError listing the names
std::string_view method_name(Method m);

// What Session::close is asked.
struct Options {
  Method method = Method::kAuto;
  unsigned threads = 0;       // host threads for this call; 0 = the session's
  size_t memory_limit = 0;    // bytes the method may use on the host; 0 = what is free
  std::string kernel_params;  // "tile_n=4,..." over the device's tuned Boolean kernel set
};

struct ComputeReport {
  Method method = Method::kAuto;  // the method that ran (never kAuto)
  std::string reason;             // why auto chose it, or "requested"
  std::string device;             // "host" or the OpenCL device's name
  bool dag = false;
  size_t components = 0;
  int rounds = 0;      // matrix products (dense methods)
  std::string detail;  // how the method ran (propagate: slices, kernel time and bandwidth)
  double condense_s = 0, upload_s = 0, compute_s = 0, download_s = 0;
  double device_wait_s = 0;  // waiting for the device to open (after what overlapped it)
};

}  // namespace closure
