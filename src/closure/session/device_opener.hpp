// The OpenCL runtime a session's device spec names, opened the first time a method needs it
// (so a graph that auto closes on the host never loads OpenCL), or on a background thread
// while the graph is read. Thread-safe. Session owns one; nothing else opens devices for a
// command or a Python call.
#pragma once

#include <functional>
#include <future>
#include <memory>
#include <mutex>
#include <optional>
#include <string>

#include "closure/ocl/runtime.hpp"

namespace closure {

class DeviceOpener {
 public:
  // `spec` as --device takes it ("" = the default device); `quiet`: no note on stderr when
  // no OpenCL device exists; `process_ends_after`: the process ends when this opener is
  // destroyed (the CLI), so what is still opening or open need not be waited for;
  // `before_gpu_only_open`: SessionOptions' hook of that name (may be empty).
  DeviceOpener(std::string spec, bool quiet, bool process_ends_after,
               std::function<void()> before_gpu_only_open = {})
      : spec_(std::move(spec)),
        quiet_(quiet),
        process_ends_after_(process_ends_after),
        before_gpu_only_open_(std::move(before_gpu_only_open)) {}
  ~DeviceOpener();
  DeviceOpener(const DeviceOpener&) = delete;
  DeviceOpener& operator=(const DeviceOpener&) = delete;

  // The runtime (null: the host engine); when no OpenCL device exists at all it says so
  // once on stderr, unless quiet or the spec asked for the host.
  ocl::Runtime* get();
  // The device the spec names, without opening it (nullopt: the host): a check of the
  // spec, or a listing's mark of the default.
  std::optional<ocl::DeviceInfo> chosen() const;
  // Starts opening the device now, on another thread; get() waits for it and rethrows
  // what it threw (a wrong device name, a failed context).
  void open_in_background();
  // For auto: starts opening the first GPU, if there is one, on another thread; get() then
  // gives it, or null without a word when there is none.
  void open_gpu_on_speculation();
  // Hands the runtime (or its pending opening) to another thread that tears it down, so
  // that cost overlaps the host's work; the destructor waits for it unless the process
  // ends without teardown. A later get() opens the device afresh.
  void release_in_background();

 private:
  // Before the first OpenCL call of a process that will open a GPU only: the caller's hook
  // (the CLI's keeps PoCL out, app/process/gpu_drivers_only.hpp).
  void load_gpu_drivers_only_if_gpu_only(bool gpu_only);

  const std::string spec_;
  const bool quiet_;
  const bool process_ends_after_;
  const std::function<void()> before_gpu_only_open_;
  std::mutex mutex_;
  bool tried_ = false;
  bool speculative_ = false;
  std::future<std::unique_ptr<ocl::Runtime>> pending_;
  std::unique_ptr<ocl::Runtime> runtime_;
  std::future<void> releasing_;
};

// True where the process may open devices on another thread and end without tearing down
// what it opened (the driver's context, an opening in progress): every build but the
// sanitized ones (AddressSanitizer dies in its own teardown of a thread that loaded PoCL,
// and their leak check runs at a normal exit), and not under mpirun (MPI_Finalize runs in
// main's teardown).
bool may_skip_device_teardown();
bool may_open_devices_on_another_thread();

}  // namespace closure
