// One place that turns exceptions into messages and exit statuses.
#include <cstdio>

#include "cli/commands.hpp"
#include "closure/algorithms/compute.hpp"
#include "closure/graph/input_error.hpp"
#include "closure/ocl/error.hpp"
#include "closure/tool/run_graph.hpp"

namespace closure::cli {

int verdict_status(Verdict v) {
  return v == Verdict::kMatch      ? kExitOk
         : v == Verdict::kMismatch ? kExitMismatch
                                   : kExitInconclusive;
}

int report_failure(const std::exception& e) {
  std::fprintf(stderr, "closure: %s\n", e.what());
  if (dynamic_cast<const InputError*>(&e)) return kExitInput;
  if (dynamic_cast<const std::invalid_argument*>(&e)) return kExitUsage;
  return kExitFailure;
}

}  // namespace closure::cli
