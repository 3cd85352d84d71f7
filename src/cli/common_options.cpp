// Shared flags and the device opening that every command does the same way.
#include "cli/common_options.hpp"

#include <cstdio>

#include "kernels/boolean_params.hpp"
#include "kernels/tuning.hpp"

namespace closure::cli {

void add_common_options(CLI::App& app, CommonOptions& o) {
  app.add_option("--device", o.device,
                 "OpenCL device: an index from `closure devices`, gpu, cpu, host, or part of its "
                 "name (default: $CLOSURE_DEVICE, else the first GPU, else the first CPU device)");
  app.add_option("-m,--method", o.method,
                 "auto | sparse | recursive | condense | square (see docs/architecture.md)")
      ->check(CLI::IsMember({"auto", "sparse", "recursive", "condense", "square"}))
      ->capture_default_str();
  app.add_option("-f,--input-format", o.input_format,
                 "auto | edges | gra | dimacs | mtx | dot (auto: from the extension, then the content)")
      ->capture_default_str();
  app.add_option("--kernel-params", o.params,
                 "Boolean kernel parameters, e.g. tile_n=4,tile_m=2 (default: tuned per device)");
  app.add_option("--verify-memory", o.verify_memory,
                 "Bytes Boost.Graph's transitive_closure may use when verifying; above it a sampled "
                 "BFS check runs instead (default: a quarter of physical memory)");
  app.add_flag("-q,--quiet", o.quiet, "Print no summary or notes on stderr");
}

std::unique_ptr<ocl::Runtime> open_runtime(const CommonOptions& o) {
  auto device = ocl::choose_device(o.device);
  if (!device) {
    const bool asked_for_host = o.device == "host" || (o.device.empty() && std::getenv(ocl::kDeviceEnv) &&
                                                       std::string(std::getenv(ocl::kDeviceEnv)) == "host");
    if (!asked_for_host && !o.quiet)
      std::fprintf(stderr, "closure: no OpenCL device found; computing on the host\n");
    return nullptr;
  }
  return std::make_unique<ocl::Runtime>(*device);
}

ComputeOptions compute_options(const CommonOptions& o, ocl::Runtime* runtime) {
  ComputeOptions c;
  c.method = parse_method(o.method);
  c.runtime = runtime;
  if (!o.params.empty()) {
    BooleanParams p = runtime ? tuned_boolean_params(runtime->device()) : BooleanParams{};
    p = parse_boolean_params(o.params, p);
    if (runtime) p.validate(runtime->device());
    c.params = p;
  }
  return c;
}

InputFormat input_format(const CommonOptions& o) { return parse_input_format(o.input_format); }

}  // namespace closure::cli
