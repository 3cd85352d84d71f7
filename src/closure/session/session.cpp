// The session's choices, each made once: the device spec, the thread budget, and how and
// when its device is opened for a computation.
#include "closure/session/session.hpp"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <filesystem>

#include "closure/algorithms/cost_model.hpp"
#include "closure/algorithms/planner.hpp"
#include "closure/config.hpp"
#include "closure/engine/compute.hpp"
#include "closure/engine/methods.hpp"
#include "closure/errors.hpp"
#include "closure/kernels/host_tuning.hpp"
#include "closure/ocl/device.hpp"
#include "closure/session/communicator.hpp"
#include "closure/session/device_opener.hpp"

namespace closure {
namespace {

std::string resolved_spec(const SessionOptions& o) {
  return !o.device.empty() ? o.device : config::text(config::kDevice);
}

unsigned resolved_threads(const SessionOptions& o) {
  if (o.threads) return checked_threads(o.threads, "SessionOptions::threads");
  const unsigned hardware = hardware_threads();
  // Ranks on one host share its cores: each takes its part unless threads says otherwise.
  if (Communicator* ranks = distributed_communicator())
    return std::max(1u, hardware / unsigned(ranks->local_size()));
  return hardware;
}

// What the input's file says of the graph's size before it is read: its bytes (a gzip'ed
// file's four times over); 0 for standard input, pipes and what cannot be seen.
uint64_t input_bytes_hint(const std::string& input) {
  if (input.empty() || input == "-") return 0;
  std::error_code error;
  if (!std::filesystem::is_regular_file(input, error)) return 0;
  const uint64_t bytes = std::filesystem::file_size(input, error);
  if (error) return 0;
  const bool gzip = input.size() > 3 && input.compare(input.size() - 3, 3, ".gz") == 0;
  return gzip ? 4 * bytes : bytes;
}

// Whether `input` is a regular file of fewer than `limit` bytes that is not gzip'ed (its
// content says so, as the reader judges it: line_source.cpp).
bool plain_file_under(const std::string& input, uint64_t limit) {
  std::error_code error;
  if (input.empty() || input == "-" || !std::filesystem::is_regular_file(input, error))
    return false;  // no device is opened here, nor a FIFO waited on
  // Asked again through the descriptor, so that what is judged is what was opened;
  // non-blocking, so that a FIFO put there since never holds the start.
  const int fd = ::open(input.c_str(), O_RDONLY | O_CLOEXEC | O_NONBLOCK);
  if (fd < 0) return false;  // the reader reports it
  struct stat st {};
  unsigned char magic[2] = {0, 0};
  const bool small = ::fstat(fd, &st) == 0 && S_ISREG(st.st_mode) && uint64_t(st.st_size) < limit;
  const ssize_t got = small ? ::pread(fd, magic, sizeof magic, 0) : 0;
  ::close(fd);
  return small && !(got == 2 && magic[0] == 0x1f && magic[1] == 0x8b);
}

}  // namespace

bool run_may_open_gpu(const SessionOptions& options, Method method, const std::string& input) {
  const std::string spec = resolved_spec(options);
  if (spec == "host") return false;
  if (!spec.empty() || method_entry(method).runs_on_device) return true;
  return method == Method::kAuto && !plain_file_under(input, kAutoModelFrom);
}

unsigned checked_threads(unsigned threads, const char* what) {
  if (threads > kMostThreads)
    throw UsageError(std::string(what) + " " + std::to_string(threads) + ": at most " +
                     std::to_string(kMostThreads) + " host threads");
  return threads;
}

Session::Session(SessionOptions options)
    : options_(std::move(options)),
      spec_(resolved_spec(options_)),
      threads_(resolved_threads(options_)),
      device_(std::make_unique<DeviceOpener>(spec_, options_.quiet, options_.process_ends_after,
                                             options_.before_gpu_only_open)) {
  // Every entry point plans through a Session: this machine's calibration, where the
  // overlay has one, reaches auto's cost model by construction.
  apply_tuned_host_calibration();
}

Session::~Session() = default;

ocl::Runtime* Session::runtime() {
  return device_->get();
}

std::optional<DeviceFacts> Session::chosen_device() const {
  std::optional<ocl::DeviceInfo> chosen = device_->chosen();
  if (!chosen) return std::nullopt;
  return DeviceFacts(*chosen);
}

Closure Session::close(const Graph& g, const Options& options, ComputeReport* report) {
  ComputeOptions c = compute_options(options.method);
  c.host_memory_limit = options.memory_limit;
  c.params_override = options.kernel_params;
  return run(options.threads, [&] { return compute_closure(g, c, report); });
}

ComputeOptions Session::compute_options(Method method, DeviceOpening opening) {
  ComputeOptions c;
  c.method = method;
  c.lazy_runtime = [this] { return device_->get(); };
  if ((distributed_communicator() || !may_open_devices_on_another_thread()) &&
      opening == DeviceOpening::kWhileReading)
    opening = DeviceOpening::kNow;
  const bool method_needs_device = method_entry(method).runs_on_device;
  if (opening == DeviceOpening::kNow && device_named()) device_->get();  // checked now
  if (opening == DeviceOpening::kWhileReading && spec_ != "host" &&
      (device_named() || method_needs_device)) {
    device_->open_in_background();
    // A method on the host must still fail on a wrong name; one that needs the device
    // waits for it when it needs it, after condensing.
    c.open_device_first = device_named() && !method_needs_device;
  }
  return c;
}

void Session::speculate_gpu_for_auto(ComputeOptions& c, const std::string& input) {
  if (c.method != Method::kAuto || !spec_.empty() || distributed_communicator() ||
      !may_open_devices_on_another_thread() || !ocl::gpu_may_be_present())
    return;
  c.speculate_gpu = [this] { device_->open_gpu_on_speculation(); };
  c.release_unused_device = [this] { device_->release_in_background(); };
  if (input_bytes_hint(input) >= kOpenGpuAtStartBytes) {
    device_->open_gpu_on_speculation();
    c.gpu_opening_since = std::chrono::steady_clock::now();
  }
}

}  // namespace closure
