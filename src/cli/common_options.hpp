// Options every graph-reading command shares (device, method, formats, progress), added
// to each subcommand in one "Shared options" group so that each --help lists them; and
// the device opening every command (bench included) does the same way.
#pragma once

#include <CLI/CLI.hpp>
#include <future>
#include <memory>
#include <mutex>
#include <optional>
#include <string>

#include "closure/algorithms/compute.hpp"
#include "closure/graph/read_graph.hpp"
#include "closure/ocl/device.hpp"
#include "closure/ocl/runtime.hpp"
#include "closure/tool/progress.hpp"

namespace closure::cli {

struct CommonOptions {
  std::string device;  // --device; empty: CLOSURE_DEVICE, then the default
  std::string method = "auto";
  std::string input_format = "auto";
  std::string params;  // --kernel-params, e.g. "tile_n=4,tile_m=2"
  bool quiet = false;
  std::string verify_memory;  // bytes Boost.Graph's closure may use; empty: a quarter of RAM
  bool progress = false, no_progress = false;  // --progress, --no-progress (neither: auto)
  unsigned threads = 0;  // --threads: the host thread budget; 0: the hardware's threads
};

void add_common_options(CLI::App& sub, CommonOptions& o);
// --device with the one help text; every command with a device uses it.
CLI::Option* add_device_option(CLI::App& sub, std::string& device);

// The device a --device value names (nullopt: the host), failures as UsageError. Every
// command opens its device through this.
std::optional<ocl::DeviceInfo> choose_device(const std::string& spec);

// Calls `parse`, turning the std::invalid_argument or std::out_of_range a library parser
// throws for a user's value into a UsageError (exit 2) that names the option.
template <class F>
auto as_usage_error(const std::string& option, F&& parse) -> decltype(parse()) {
  try {
    return parse();
  } catch (const std::invalid_argument& e) {
    throw UsageError(option + ": " + e.what());
  } catch (const std::out_of_range& e) {
    throw UsageError(option + ": value out of range");
  }
}

// The runtime --device names, opened the first time a method needs it (so a graph that
// auto closes on the host never loads OpenCL), or on a background thread while the graph
// is read (open_in_background). get() is null for the host path; when no OpenCL device
// exists at all it says so once on stderr (unless quiet). Thread-safe.
class LazyRuntime {
 public:
  explicit LazyRuntime(const CommonOptions& o) : options_(o) {}
  ~LazyRuntime();
  LazyRuntime(const LazyRuntime&) = delete;
  LazyRuntime& operator=(const LazyRuntime&) = delete;
  ocl::Runtime* get();
  // Starts opening the device now, on another thread; get() waits for it and rethrows
  // what it threw (a wrong --device name, a failed context).
  void open_in_background();
  // For auto: starts opening the first GPU, if there is one, on another thread; get()
  // then gives it, or null without a word when there is none.
  void open_gpu_on_speculation();
  // Hands the runtime (or its pending opening) to another thread that tears it down, so
  // that cost overlaps the host's work; the destructor waits for it. A later get() opens
  // the device afresh.
  void release_in_background();

 private:
  const CommonOptions& options_;
  std::mutex mutex_;
  bool tried_ = false;
  bool speculative_ = false;
  std::future<std::unique_ptr<ocl::Runtime>> pending_;
  std::unique_ptr<ocl::Runtime> runtime_;
  std::future<void> releasing_;
};

// True where the process may end without tearing down what it opened (the OpenCL driver's
// context, an opening still in progress): every build but the sanitized ones, whose leak
// check runs at a normal exit.
bool exits_without_teardown();
// Flushes standard output and error; returns `status`, or 4 when standard output could not
// be written (say on a full disk).
int finish_output(int status);
// finish_output, then ends the process at once: the driver's teardown, which
// took 0.1-0.3 s of every GPU run on the H200, and a speculative opening still in progress
// are not waited for. Where exits_without_teardown() is false, returns the status instead,
// for a normal exit.
int exit_without_teardown(int status);

// When a command opens the device --device names.
enum class DeviceOpening {
  kNow,           // before any work, so that a wrong name fails first
  kWhileReading,  // on a background thread while the graph is read, when a device is
                  // named or the method needs one (NVIDIA's driver takes about 0.25 s to
                  // load and create a context); compute_closure waits for it before
                  // choosing (auto, sparse) or when the method needs it (propagate: after
                  // condensing), so a wrong name still fails before the computation. auto
                  // on an unnamed device opens a GPU on speculation for large inputs only
                  // (speculate_gpu_for_auto), releasing it unused while the host works.
  kInChildren,    // not here: batch forks children, which open it themselves
};

// ComputeOptions from the flags, the device coming from `runtime` when needed, opened as
// `opening` says (under mpirun always kNow: each rank's device follows its local rank;
// in AddressSanitizer builds too, see common_options.cpp).
ComputeOptions compute_options(const CommonOptions& o, LazyRuntime& runtime,
                               DeviceOpening opening = DeviceOpening::kNow);
// Inputs from this size on are big enough for a GPU to win under auto's cost model (a
// 2 MB edge list holds about 150,000 edges; the 200,000-commit history is 3.1 MB).
inline constexpr uintmax_t kSpeculateFromBytes = uintmax_t{2} << 20;
// For `closure run`: when auto will choose and the input is large enough that a GPU could
// win (a file of kSpeculateFromBytes or more), opens the GPU, if any, while the graph is
// read (LazyRuntime::open_gpu_on_speculation), and lets auto release it unused. Not
// under mpirun, in sanitized builds, or when --device / CLOSURE_DEVICE names a device.
void speculate_gpu_for_auto(const CommonOptions& o, LazyRuntime& runtime, ComputeOptions& c,
                            const std::string& input);
InputFormat input_format(const CommonOptions& o);

// For --verify-sources / --sources: 0 sources would check nothing and must not say MATCH.
CLI::Validator at_least_one_source();
size_t verify_memory(const CommonOptions& o);  // 0: the default budget
// The progress line for this run, or null when none is to be shown.
std::unique_ptr<ProgressLine> make_progress(const CommonOptions& o);

}  // namespace closure::cli
