// Shared flags and the device opening that every command does the same way.
#include "cli/common_options.hpp"

#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <iostream>
#include <thread>

#include "closure/config.hpp"
#include "closure/distributed/communicator.hpp"
#include "closure/executor.hpp"
#include "closure/io/byte_size.hpp"
#include "closure/kernels/boolean_params.hpp"

namespace closure::cli {
namespace {

std::string joined(const std::vector<std::string>& names) {
  std::string out;
  for (const auto& n : names) out += (out.empty() ? "" : " | ") + n;
  return out;
}

constexpr const char* kShared = "Shared options";

// Under mpirun each rank takes its own GPU (its local rank among the host's GPUs) unless
// a device was named, by --device or CLOSURE_DEVICE, other than "gpu".
std::string device_for_this_rank(const std::string& spec) {
  Communicator* ranks = distributed_communicator();
  const std::string asked = !spec.empty() ? spec : config::text(config::kDevice);
  if (!ranks || !(asked.empty() || asked == "gpu")) return spec;
  std::vector<size_t> gpus;
  for (const auto& d : ocl::list_devices())
    if (d.is_gpu) gpus.push_back(d.index);
  if (gpus.empty()) return spec;
  return std::to_string(gpus[size_t(ranks->local_rank()) % gpus.size()]);
}

}  // namespace

CLI::Option* add_device_option(CLI::App& sub, std::string& device) {
  return sub.add_option(
      "--device", device,
      "OpenCL device: an index from `closure devices`, gpu, cpu, host, or part of its name "
      "(default: $CLOSURE_DEVICE, else the first GPU, else the first CPU device)");
}

void add_common_options(CLI::App& sub, CommonOptions& o) {
  add_device_option(sub, o.device)->group(kShared);
  sub.add_option("-m,--method", o.method, joined(method_names()) + " (see docs/architecture.md)")
      ->check(CLI::IsMember(method_names()))
      ->capture_default_str()
      ->group(kShared);
  sub.add_option("-f,--input-format", o.input_format,
                 joined(input_format_names()) + " (auto: from the extension, then the content)")
      ->capture_default_str()
      ->group(kShared);
  sub.add_option("--kernel-params", o.params,
                 "Boolean kernel parameters, e.g. tile_n=4,tile_m=2 (default: tuned per device)")
      ->group(kShared);
  sub.add_option("--verify-memory", o.verify_memory,
                 "Bytes (10G, 512MiB, ...) Boost.Graph's transitive_closure may use when "
                 "verifying; above it a sampled BFS check runs instead (default: a quarter of "
                 "physical memory)")
      ->group(kShared);
  auto* on = sub.add_flag("--progress", o.progress,
                          "Show progress on stderr for runs over a second (default: when stderr "
                          "is a terminal and not --quiet)")
                 ->group(kShared);
  sub.add_flag("--no-progress", o.no_progress, "Never show progress")->group(kShared)->excludes(on);
  sub.add_option("--threads", o.threads,
                 "Host threads for everything: products, propagation and batch jobs share "
                 "them (default: the hardware's threads)")
      ->check(CLI::Range(1u, 4096u))
      ->group(kShared);
  sub.add_flag("-q,--quiet", o.quiet, "Print no summary or notes on stderr")->group(kShared);
}

std::optional<ocl::DeviceInfo> choose_device(const std::string& spec) {
  return as_usage_error("--device", [&] { return ocl::choose_device(spec); });
}

namespace {

// Under AddressSanitizer a thread that loaded PoCL dies in ASan's own teardown ("unable
// to unmap" its signal stack, seen in CI): sanitized builds open the device on the
// calling thread, which changes when the work is done, not what it gives.
#if defined(__SANITIZE_ADDRESS__)
constexpr bool kOpenOnAnotherThread = false;
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
constexpr bool kOpenOnAnotherThread = false;
#else
constexpr bool kOpenOnAnotherThread = true;
#endif
#else
constexpr bool kOpenOnAnotherThread = true;
#endif

std::unique_ptr<ocl::Runtime> open_runtime(const std::string& device) {
  auto info = choose_device(device_for_this_rank(device));
  return info ? std::make_unique<ocl::Runtime>(*info) : nullptr;
}

}  // namespace

void LazyRuntime::open_in_background() {
  std::lock_guard lock(mutex_);
  if (tried_ || pending_.valid()) return;
  pending_ =
      std::async(std::launch::async, [device = options_.device] { return open_runtime(device); });
}

void LazyRuntime::open_gpu_on_speculation() {
  std::lock_guard lock(mutex_);
  if (tried_ || pending_.valid()) return;
  speculative_ = true;
  pending_ = std::async(std::launch::async, []() -> std::unique_ptr<ocl::Runtime> {
    try {
      for (const auto& d : ocl::list_devices())
        if (d.is_gpu) return std::make_unique<ocl::Runtime>(d);
    } catch (...) {  // a GPU that fails to open is one auto does not use
    }
    return nullptr;
  });
}

void LazyRuntime::release_in_background() {
  std::lock_guard lock(mutex_);
  if (!pending_.valid() && !runtime_) return;
  auto pending = std::move(pending_);
  auto runtime = std::move(runtime_);
  if (releasing_.valid()) releasing_.get();
  releasing_ = std::async(std::launch::async,
                          [pending = std::move(pending), runtime = std::move(runtime)]() mutable {
                            try {
                              if (pending.valid()) pending.get();  // its runtime dies here
                            } catch (...) {  // an opening nobody used: its error is not ours
                            }
                            runtime.reset();
                          });
  tried_ = false;
  speculative_ = false;
}

ocl::Runtime* LazyRuntime::get() {
  std::lock_guard lock(mutex_);
  if (tried_) return runtime_.get();
  tried_ = true;
  runtime_ = pending_.valid() ? pending_.get() : open_runtime(options_.device);  // rethrows
  if (!runtime_ && speculative_) return nullptr;  // no GPU: auto stays on the host, silently
  if (!runtime_) {
    const bool asked_for_host =
        options_.device == "host" ||
        (options_.device.empty() && config::text(config::kDevice) == "host");
    if (!asked_for_host && !options_.quiet)
      std::fprintf(stderr, "closure: no OpenCL device found; computing on the host\n");
  }
  return runtime_.get();
}

LazyRuntime::~LazyRuntime() {
  // An opening nobody asked for, and a release in progress, are not this run's to wait
  // for: where the process ends without teardown (exit_without_teardown), a detached thread
  // takes them and the process does not wait; elsewhere they are waited for here (futures
  // from std::async do so), an opening's error dropped: it was not this run's.
  if (exits_without_teardown() && (pending_.valid() || releasing_.valid() || runtime_)) {
    try {
      std::thread([pending = std::move(pending_), releasing = std::move(releasing_),
                   runtime = std::move(runtime_)]() mutable {
        try {
          if (pending.valid()) pending.get();
        } catch (...) {
        }
        if (releasing.valid()) releasing.get();
        (void)runtime.release();  // the process ends without its teardown
      }).detach();
      return;
    } catch (const std::system_error&) {  // no thread: wait here instead
    }
  }
  try {
    if (pending_.valid()) pending_.get();
  } catch (...) {
  }
  if (releasing_.valid()) releasing_.get();
}

bool exits_without_teardown() {
  // Not in sanitized builds (their leak check runs at a normal exit), nor under mpirun
  // (MPI_Finalize runs in main's session destructor).
  return kOpenOnAnotherThread && distributed_communicator() == nullptr;
}

int finish_output(int status) {
  // Only this final flush is judged (std::cout shares stdout's buffer, synced with stdio,
  // so it is flushed here too): an earlier EPIPE (a reader that stopped, `| head`) leaves
  // ferror set and is a quiet stop, as everywhere else.
  errno = 0;
  const bool out_failed = std::fflush(stdout) != 0;
  const int err = errno;
  std::cout.flush();
  std::cerr.flush();
  std::fflush(stderr);
  if (out_failed && err != EPIPE && status == 0) {
    std::fprintf(stderr, "closure: cannot write standard output: %s\n", std::strerror(err));
    status = 4;
  }
  return status;
}

int exit_without_teardown(int status) {
  status = finish_output(status);
  if (exits_without_teardown()) ::_exit(status);
  return status;
}

ComputeOptions compute_options(const CommonOptions& o, LazyRuntime& runtime,
                               DeviceOpening opening) {
  unsigned threads = o.threads;
  Communicator* ranks = distributed_communicator();
  // Ranks on one host share its cores: each takes its part unless --threads says otherwise.
  if (ranks && threads == 0)
    threads = std::max(1u, std::thread::hardware_concurrency() / unsigned(ranks->local_size()));
  set_thread_budget(threads);
  ComputeOptions c;
  c.method = parse_method(o.method);
  c.lazy_runtime = [&runtime] { return runtime.get(); };
  c.params_override = o.params;
  if (!o.params.empty())  // a typo fails before any work
    as_usage_error("--kernel-params", [&] { return parse_boolean_params(o.params); });
  if ((ranks || !kOpenOnAnotherThread) && opening == DeviceOpening::kWhileReading)
    opening = DeviceOpening::kNow;
  const std::string spec = !o.device.empty() ? o.device : config::text(config::kDevice);
  const bool named = !o.device.empty();
  const bool method_needs_device = c.method != Method::kAuto && c.method != Method::kSparse;
  if (opening == DeviceOpening::kNow && named) runtime.get();  // a named device: checked now
  if (opening == DeviceOpening::kWhileReading && spec != "host" && (named || method_needs_device)) {
    runtime.open_in_background();
    // A method on the host must still fail on a wrong name; one that needs the device
    // waits for it when it needs it, after condensing.
    c.open_device_first = named && !method_needs_device;
  }
  return c;
}

void speculate_gpu_for_auto(const CommonOptions& o, LazyRuntime& runtime, ComputeOptions& c,
                            const std::string& input) {
  if (c.method != Method::kAuto || !o.device.empty() || !config::text(config::kDevice).empty() ||
      distributed_communicator() || !kOpenOnAnotherThread || input == "-")
    return;
  std::error_code ec;
  const auto bytes = std::filesystem::file_size(input, ec);
  if (ec || bytes < kSpeculateFromBytes) return;
  runtime.open_gpu_on_speculation();
  c.gpu_speculated = true;
  c.release_unused_device = [&runtime] { runtime.release_in_background(); };
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
  return as_usage_error("--input-format", [&] { return parse_input_format(o.input_format); });
}

size_t verify_memory(const CommonOptions& o) {
  return o.verify_memory.empty() ? 0 : size_t(parse_byte_size(o.verify_memory));
}

std::unique_ptr<ProgressLine> make_progress(const CommonOptions& o) {
  const ProgressMode mode = o.progress      ? ProgressMode::kOn
                            : o.no_progress ? ProgressMode::kOff
                                            : ProgressMode::kAuto;
  if (!progress_enabled(mode, ::isatty(STDERR_FILENO) != 0, o.quiet)) return nullptr;
  // CLOSURE_PROGRESS_DELAY (seconds) exists for tests: 0 shows every phase at once.
  double delay = 1.0;
  if (const std::string env = config::text(config::kProgressDelay); !env.empty())
    delay = std::atof(env.c_str());
  return std::make_unique<ProgressLine>(stderr, std::chrono::duration<double>(delay));
}

}  // namespace closure::cli
