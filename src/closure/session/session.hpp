// closure::Session: what every command and every Python call shares, decided once: the
// device (the option, else $CLOSURE_DEVICE, read here through config.hpp), its runtime and
// program cache, GPU speculation for auto, and the host thread budget. The CLI makes one
// session per process from its flags; the Python module keeps one per device spec for the
// life of the interpreter (one context, one program cache), with threads= per call.
#pragma once

#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <type_traits>

#include "closure/algorithms/closure.hpp"
#include "closure/device_facts.hpp"
#include "closure/executor.hpp"
#include "closure/graph/graph.hpp"
#include "closure/options.hpp"

namespace closure {

// The device's runtime is opaque here: the public API names it, only the library opens it.
namespace ocl {
class Runtime;
}
class DeviceOpener;
struct ComputeOptions;

// The most host threads a session or a call may name (the CLI's and Python's range too):
// past 65,536 TBB's arena crashed the process; a number above this is a UsageError.
inline constexpr unsigned kMostThreads = 4096;
// `threads` where it is 0 or within kMostThreads; else throws UsageError naming `what`.
unsigned checked_threads(unsigned threads, const char* what);

struct SessionOptions {
  std::string device;    // --device / device=; "" = $CLOSURE_DEVICE, else the default
  unsigned threads = 0;  // host threads for all work; 0 = the hardware's (under mpirun, the
                         // host's share of each rank)
  bool quiet = false;    // no notes on stderr
  bool process_ends_after = false;  // the CLI: see DeviceOpener
  // Called once, before the process's first OpenCL call, when that call will open a GPU and
  // nothing else (null: every driver loads). The CLI keeps PoCL out of the loader with it
  // (app/process/gpu_drivers_only.hpp); a library caller that may want PoCL later leaves it.
  std::function<void()> before_gpu_only_open;
};

// When a command opens the device.
enum class DeviceOpening {
  kNow,           // before any work, so that a wrong name fails first
  kWhileReading,  // on a background thread while the graph is read, when a device is
                  // named or the method needs one (NVIDIA's driver is slow to load and
                  // create a context); compute_closure waits for it before
                  // choosing (auto, sparse) or when the method needs it (propagate: after
                  // condensing), so a wrong name still fails before the computation
  kInChildren,    // not here: batch forks children, which open it themselves
};

// Whether a `closure run` of `input` (a path; "" or "-": standard input) may open a GPU,
// decided before anything is read or any thread starts (the CLI's exit watcher asks): never
// on the host, named or in $CLOSURE_DEVICE, nor for a method on the host with no device
// named; for auto with none named, not where `input` is a plain file (no gzip) under
// kAutoModelFrom bytes. Each vertex and edge such a file lists takes a byte at least, so
// auto runs it sparse on the host without a cost model (planner.hpp); a header may declare
// kFreeDeclaredVertices more (format_readers.hpp), isolated, whose host work no GPU repays.
bool run_may_open_gpu(const SessionOptions& options, Method method, const std::string& input);

class Session {
 public:
  explicit Session(SessionOptions options = {});
  ~Session();
  Session(const Session&) = delete;
  Session& operator=(const Session&) = delete;

  // The closure of `g` as `options` ask, on the session's device and threads; `report`
  // (may be null) is told what ran, where, why and how long each phase took.
  Closure close(const Graph& g, const Options& options = {}, ComputeReport* report = nullptr);

  const std::string& device_spec() const { return spec_; }  // the option, else the environment
  bool device_named() const { return !options_.device.empty(); }  // by the option itself
  unsigned threads() const { return threads_; }
  bool quiet() const { return options_.quiet; }

  // Runs `body` within the session's thread budget (thread_budget() reads it inside) and
  // gives back what it returns; exceptions pass through.
  template <class F>
  auto run(F&& body) -> std::invoke_result_t<F&> {
    return run(0, std::forward<F>(body));
  }
  // The same within `threads` host threads (0: the session's budget), for a caller that
  // names them per call (Python's threads=).
  template <class F>
  auto run(unsigned threads, F&& body) -> std::invoke_result_t<F&> {
    using R = std::invoke_result_t<F&>;
    const unsigned budget = threads ? checked_threads(threads, "threads") : threads_;
    if constexpr (std::is_void_v<R>) {
      with_thread_budget(budget, [&] { body(); });
    } else {
      std::optional<R> out;
      with_thread_budget(budget, [&] { out.emplace(body()); });
      return std::move(*out);
    }
  }

  // The runtime of the session's device, opened now if it is not yet (null: the host).
  ocl::Runtime* runtime();
  // The device the session's spec names, without opening it (nullopt: the host).
  std::optional<DeviceFacts> chosen_device() const;

  // ComputeOptions for `method` whose device comes from this session, opened as `opening`
  // says (under mpirun, and in sanitized builds, kWhileReading is kNow).
  ComputeOptions compute_options(Method method, DeviceOpening opening = DeviceOpening::kNow);
  // For a run of auto with no device named: lets auto open the first GPU, if any, on
  // speculation once the graph as read says a GPU may win (ComputeOptions::speculate_gpu),
  // and release it unused while the host works. A large `input` file (kOpenGpuAtStartBytes)
  // starts the opening now, before reading. Not under mpirun or in sanitized builds.
  void speculate_gpu_for_auto(ComputeOptions& c, const std::string& input = "");

 private:
  SessionOptions options_;
  std::string spec_;
  unsigned threads_;
  std::unique_ptr<DeviceOpener> device_;
};

}  // namespace closure
