// The closure methods, as one registry: each entry's name, the line --help and the docs
// show, whether it may use an OpenCL device, and its run. --method's closed list, the
// name parser and the help text are all made from it, so a new method is one entry here
// and one run function (method_runs.hpp).
#pragma once

#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "closure/algorithms/closure.hpp"
#include "closure/options.hpp"

namespace closure {

struct MethodContext;  // what a run gets: method_runs.hpp

struct MethodEntry {
  Method method;
  std::string_view name;
  std::string_view summary;  // one line, for --help and docs/architecture.md
  // Whether it runs OpenCL kernels when a device is open: the session opens the device
  // while the graph is read for these. Auto runs nothing itself (the planner picks).
  bool runs_on_device;
  Closure (*run)(MethodContext&);  // null for auto, which the planner resolves
};

// Every method, auto first, in the order --help lists them.
std::span<const MethodEntry> method_registry();
const MethodEntry& method_entry(Method m);

std::vector<std::string> method_names();
// "name: summary" lines, one a method, for --help.
std::string method_help();

}  // namespace closure
