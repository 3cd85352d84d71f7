// Opening, speculating on and releasing a session's OpenCL runtime.
#include "closure/session/device_opener.hpp"

#include <cstdio>
#include <thread>
#include <vector>

#include "closure/ocl/device.hpp"
#include "closure/ocl/opencl_library.hpp"
#include "closure/session/communicator.hpp"
#include "closure/util/sanitizer.hpp"
#include "closure/util/trace.hpp"

namespace closure {
namespace {

constexpr bool kOpenOnAnotherThread = !detail::kAddressSanitizer;

// Under mpirun each rank takes its own GPU (its local rank among the host's GPUs) unless
// a device other than "gpu" was named.
std::string device_for_this_rank(const std::string& spec) {
  Communicator* ranks = distributed_communicator();
  if (!ranks || !(spec.empty() || spec == "gpu")) return spec;
  std::vector<size_t> gpus;
  for (const auto& d : ocl::list_devices())
    if (d.is_gpu) gpus.push_back(d.index);
  if (gpus.empty()) return spec;
  return std::to_string(gpus[size_t(ranks->local_rank()) % gpus.size()]);
}

std::unique_ptr<ocl::Runtime> open_runtime(const std::string& spec) {
  trace("opening the device");
  auto info = ocl::choose_device(device_for_this_rank(spec));
  trace("device chosen");
  auto runtime = info ? std::make_unique<ocl::Runtime>(*info) : nullptr;
  trace("context made");
  return runtime;
}

}  // namespace

void DeviceOpener::load_gpu_drivers_only_if_gpu_only(bool gpu_only) {
  // A CLI process (one device spec for its life) outside mpirun: a Python process may ask
  // for PoCL's device later, and the loader reads its vendors only once.
  if (gpu_only && before_gpu_only_open_ && distributed_communicator() == nullptr)
    before_gpu_only_open_();
}

std::optional<ocl::DeviceInfo> DeviceOpener::chosen() const {
  return ocl::choose_device(device_for_this_rank(spec_));
}

bool may_open_devices_on_another_thread() {
  return kOpenOnAnotherThread;
}

bool may_skip_device_teardown() {
  return kOpenOnAnotherThread && distributed_communicator() == nullptr;
}

void DeviceOpener::open_in_background() {
  std::lock_guard lock(mutex_);
  if (tried_ || pending_.valid()) return;
  load_gpu_drivers_only_if_gpu_only(spec_ == "gpu");
  pending_ = std::async(std::launch::async, [spec = spec_] { return open_runtime(spec); });
}

void DeviceOpener::open_gpu_on_speculation() {
  std::lock_guard lock(mutex_);
  if (tried_ || pending_.valid()) return;
  load_gpu_drivers_only_if_gpu_only(true);
  speculative_ = true;
  trace("opening a gpu on speculation");
  pending_ = std::async(std::launch::async, []() -> std::unique_ptr<ocl::Runtime> {
    try {
      for (const auto& d : ocl::list_devices())
        if (d.is_gpu) return std::make_unique<ocl::Runtime>(d);
    } catch (...) {  // a GPU that fails to open is one auto does not use
    }
    return nullptr;
  });
}

void DeviceOpener::release_in_background() {
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

ocl::Runtime* DeviceOpener::get() {
  std::lock_guard lock(mutex_);
  if (tried_) return runtime_.get();
  tried_ = true;
  if (!pending_.valid()) load_gpu_drivers_only_if_gpu_only(spec_ == "gpu");
  runtime_ = pending_.valid() ? pending_.get() : open_runtime(spec_);  // rethrows
  if (!runtime_ && speculative_) return nullptr;  // no GPU: auto stays on the host, silently
  if (!runtime_ && spec_ != "host" && !quiet_) {
    const std::string why = ocl::opencl_library_failure();  // a mistyped loader, named
    std::fprintf(stderr, "closure: no OpenCL device found%s%s; computing on the host\n",
                 why.empty() ? "" : " (", why.empty() ? "" : (why + ")").c_str());
  }
  return runtime_.get();
}

DeviceOpener::~DeviceOpener() {
  // An opening nobody asked for, and a release in progress, are not this run's to wait
  // for: where the process ends without teardown, a detached thread takes them and the
  // process does not wait; elsewhere they are waited for here (futures from std::async do
  // so), an opening's error dropped: it was not this run's.
  if (process_ends_after_ && may_skip_device_teardown() &&
      (pending_.valid() || releasing_.valid() || runtime_)) {
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

}  // namespace closure
