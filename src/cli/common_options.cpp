// Shared flags and the device opening that every command does the same way.
#include "cli/common_options.hpp"

#include <cstdio>

#include "closure/kernels/boolean_params.hpp"

namespace closure::cli {

void add_common_options(CLI::App& app, CommonOptions& o) {
  app.add_option("--device", o.device,
                 "OpenCL device: an index from `closure devices`, gpu, cpu, host, or part of its "
                 "name (default: $CLOSURE_DEVICE, else the first GPU, else the first CPU device)");
  app.add_option("-m,--method", o.method,
                 "auto | sparse | recursive | condense | square (see docs/architecture.md)")
      ->check(CLI::IsMember({"auto", "sparse", "recursive", "condense", "square"}))
      ->capture_default_str();
  app.add_option(
         "-f,--input-format", o.input_format,
         "auto | edges | gra | dimacs | mtx | dot (auto: from the extension, then the content)")
      ->capture_default_str();
  app.add_option("--kernel-params", o.params,
                 "Boolean kernel parameters, e.g. tile_n=4,tile_m=2 (default: tuned per device)");
  app.add_option(
      "--verify-memory", o.verify_memory,
      "Bytes Boost.Graph's transitive_closure may use when verifying; above it a sampled "
      "BFS check runs instead (default: a quarter of physical memory)");
  app.add_flag("-q,--quiet", o.quiet, "Print no summary or notes on stderr");
}

ocl::Runtime* LazyRuntime::get() {
  std::lock_guard lock(mutex_);
  if (tried_) return runtime_.get();
  tried_ = true;
  auto device = ocl::choose_device(options_.device);
  if (!device) {
    const char* env = std::getenv(ocl::kDeviceEnv);
    const bool asked_for_host =
        options_.device == "host" || (options_.device.empty() && env && std::string(env) == "host");
    if (!asked_for_host && !options_.quiet)
      std::fprintf(stderr, "closure: no OpenCL device found; computing on the host\n");
    return nullptr;
  }
  runtime_ = std::make_unique<ocl::Runtime>(*device);
  return runtime_.get();
}

ComputeOptions compute_options(const CommonOptions& o, LazyRuntime& runtime,
                               bool open_named_device) {
  ComputeOptions c;
  c.method = parse_method(o.method);
  c.lazy_runtime = [&runtime] { return runtime.get(); };
  c.params_override = o.params;
  if (!o.params.empty()) parse_boolean_params(o.params);      // a typo fails before any work
  if (!o.device.empty() && open_named_device) runtime.get();  // a named device: checked now
  return c;
}

CLI::Validator at_least_one_source() {
  return CLI::Validator(
      [](std::string& value) {
        return value.find_first_not_of("0+") == std::string::npos
                   ? std::string(
                         "must be at least 1: a sampled check from no source checks nothing")
                   : std::string();
      },
      "N>=1");
}

InputFormat input_format(const CommonOptions& o) {
  return parse_input_format(o.input_format);
}

}  // namespace closure::cli
