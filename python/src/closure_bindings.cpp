// closure._closure.Closure and transitive_closure: the library's compute_closure through a
// Session, as the CLI runs it (the same device choice and defaults, threads= as --threads),
// run interruptibly, and the result's queries and array exports.
#include <pthread.h>
#include <pybind11/stl.h>

#include <map>
#include <memory>
#include <mutex>
#include <string>
#include <vector>

#include "bindings.hpp"
#include "closure/algorithms/closure_arrays.hpp"
#include "closure/algorithms/memory_budget.hpp"
#include "closure/engine/compute.hpp"
#include "closure/errors.hpp"
#include "closure/ocl/device.hpp"
#include "closure/ocl/runtime.hpp"
#include "closure/session/session.hpp"
#include "closure/util/work_meter.hpp"
#include "interruptible.hpp"

namespace closure::python {
namespace {

// Set in a child forked after this process loaded OpenCL: the driver's threads and locks
// did not survive the fork, and a device call there hangs.
bool g_forked_after_opencl = false;

// One Session per device spec for the life of the process: its runtime's in-memory program
// cache then serves every later call (building PoCL programs takes seconds), and it alone
// chooses and opens the device (DeviceOpener), as for the CLI.
Session& session_for(const std::string& spec) {
  static std::mutex mutex;
  static std::map<std::string, std::unique_ptr<Session>> sessions;
  static const bool watching = [] {
    ::pthread_atfork(nullptr, nullptr, [] { g_forked_after_opencl = ocl::drivers_loaded(); });
    return true;
  }();
  (void)watching;
  std::string key = spec;
  if (g_forked_after_opencl && spec != "host") {
    // auto (no device named) works on the host instead; a named device cannot be had.
    if (!spec.empty())
      throw DeviceError(
          "this process was forked after it opened OpenCL, whose driver does not survive a "
          "fork: open devices in the child only (multiprocessing's 'spawn' or 'forkserver' "
          "start method), or pass device='host'");
    key = "host";
  }
  std::lock_guard lock(mutex);
  auto& slot = sessions[key];
  if (!slot) {
    SessionOptions o;
    o.device = key;
    o.quiet = true;  // Python reports through its return values and exceptions
    slot = std::make_unique<Session>(o);
  }
  return *slot;
}

struct PyClosure {
  Closure closure;
  ComputeReport report;
};

using IdArray = py::array_t<uint32_t, py::array::c_style | py::array::forcecast>;

void check_vertex(const PyClosure& c, int64_t v) {
  if (v < 0 || uint64_t(v) >= c.closure.vertex_count())
    throw UsageError("vertex " + std::to_string(v) + " is beyond the " +
                     std::to_string(c.closure.vertex_count()) + " vertices");
}

// Progress for a Python callback: the library's work meter (src/closure/util/work_meter.hpp)
// installed on the worker, read each time the calling thread wakes. The metered steps are
// Tarjan's pass (a unit per vertex and edge: "components") and the sparse propagation (a
// unit per component's row: "closure"); once Tarjan's is done and until another step
// starts, the closure is being computed by an unmetered method ("closure", no share).
class ProgressReader {
 public:
  ProgressReader(py::object callback, uint64_t scc_units)
      : callback_(std::move(callback)), scc_units_(scc_units) {}
  WorkMeter* meter() { return callback_.is_none() ? nullptr : &meter_; }
  void operator()() {
    if (callback_.is_none()) return;
    const uint64_t total = meter_.total();
    if (total == 0) return;  // nothing metered yet
    double share = meter_.share();
    const char* phase = total == scc_units_ ? "components" : "closure";
    if (total == scc_units_ && share >= 1.0) phase = "closure", share = -1;
    if (share < 0)
      callback_(phase, py::none());
    else
      callback_(phase, share);
  }

 private:
  py::object callback_;
  uint64_t scc_units_;
  WorkMeter meter_;
};

// The library's warnings during a closure (sparse's rows estimated larger than the memory
// left: algorithms/row_estimate.hpp), gathered on the worker thread and issued on the
// calling thread, where Python runs, as RuntimeWarning: at once (each 50 ms tick) and at
// the end. The CLI's way on (`closure index FILE`) becomes Python's.
class PendingWarnings {
 public:
  void add(const std::string& message) {
    std::lock_guard lock(mutex_);
    pending_.push_back(message);
  }
  // With the GIL. A warning filter that turns them into errors raises here, unless
  // `quiet_errors` (an exception is already on its way).
  void issue(bool quiet_errors = false) {
    std::vector<std::string> now;
    {
      std::lock_guard lock(mutex_);
      now.swap(pending_);
    }
    for (const std::string& m : now) {
      if (PyErr_WarnEx(PyExc_RuntimeWarning, m.c_str(), 2) != 0) {
        if (!quiet_errors) throw py::error_already_set();
        PyErr_Clear();
      }
    }
  }

 private:
  std::mutex mutex_;
  std::vector<std::string> pending_;
};

PyClosure compute(const Graph& g, const std::string& method, const std::string& device,
                  unsigned threads, py::object progress) {
  const Method chosen = parse_method(method);
  Session& session = session_for(device);
  // Under 16,384 vertices the host's sparse closure takes milliseconds whatever the shape
  // (at most n^2/32 word ORs); auto picks it without looking for a device below
  // kAutoModelFrom vertices + edges. Anything that may open a device (seconds on PoCL) keeps the
  // thread.
  const size_t n = g.vertex_count(), m = g.edge_count();
  const bool short_work = device.empty() && n < 16384 &&
                          ((chosen == Method::kAuto && n + m < kAutoModelFrom) ||
                           (chosen == Method::kSparse && m < 262'144));
  ProgressReader reader(std::move(progress), uint64_t(n) + m);
  PendingWarnings warnings;
  auto work = [&] {
    // The session opens a device named explicitly up front, as the CLI does; otherwise
    // only when the method needs one. Opening one loads the OpenCL platforms (a second on
    // PoCL), so it happens here, without the GIL.
    ComputeOptions options = session.compute_options(chosen, DeviceOpening::kNow);
    options.warn = [&warnings](const Warning& w) { warnings.add(w.said_to(Audience::kPython)); };
    PyClosure out;
    WorkMeterScope metered(reader.meter());
    session.run(threads, [&] { out.closure = compute_closure(g, options, &out.report); });
    return out;
  };
  try {
    PyClosure out =
        short_work ? run_short_or_interruptible(true, work) : run_interruptible(work, [&] {
          warnings.issue();
          reader();
        });
    warnings.issue();
    return out;
  } catch (...) {
    warnings.issue(true);
    throw;
  }
}

py::dict report_dict(const ComputeReport& r) {
  py::dict d;
  d["method"] = std::string(method_name(r.method));
  d["reason"] = r.reason;
  d["device"] = r.device;
  d["dag"] = r.dag;
  d["components"] = r.components;
  d["rounds"] = r.rounds;
  d["condense_s"] = r.condense_s;
  d["upload_s"] = r.upload_s;
  d["compute_s"] = r.compute_s;
  d["download_s"] = r.download_s;
  return d;
}

}  // namespace

void bind_closure(py::module_& m) {
  py::class_<PyClosure>(m, "Closure", "The strict transitive closure over vertices 0..n-1.")
      .def_property_readonly("vertex_count",
                             [](const PyClosure& c) { return c.closure.vertex_count(); })
      .def_property_readonly("component_count",
                             [](const PyClosure& c) { return c.closure.component_count(); })
      .def_property_readonly("memory_bytes",
                             [](const PyClosure& c) { return c.closure.memory_bytes(); })
      .def_property_readonly("report", [](const PyClosure& c) { return report_dict(c.report); })
      .def(
          "pair_count",
          [](const PyClosure& c, bool reflexive) { return c.closure.pair_count(reflexive); },
          py::arg("reflexive") = false)
      .def(
          "reaches",
          [](const PyClosure& c, int64_t u, int64_t v, bool reflexive) {
            check_vertex(c, u);
            check_vertex(c, v);
            return (reflexive && u == v) || c.closure.reaches(vertex_t(u), vertex_t(v));
          },
          py::arg("u"), py::arg("v"), py::arg("reflexive") = false)
      .def(
          "reaches_many",
          [](const PyClosure& c, IdArray us, IdArray vs, bool reflexive) {
            if (us.ndim() != 1 || vs.ndim() != 1 || us.shape(0) != vs.shape(0))
              throw UsageError("reaches_many: us and vs must be 1-D of equal length");
            const size_t k = size_t(us.shape(0));
            std::span<const vertex_t> a(us.data(), k), b(vs.data(), k);
            std::vector<uint8_t> out(k);
            run_interruptible([&] { reaches_many(c.closure, a, b, out, reflexive); });
            return py::array_t<bool>({k}, {sizeof(bool)},
                                     reinterpret_cast<const bool*>(out.data()));
          },
          py::arg("us"), py::arg("vs"), py::arg("reflexive") = false)
      .def(
          "successors",
          [](const PyClosure& c, int64_t u, bool reflexive) {
            check_vertex(c, u);
            std::vector<vertex_t> row;
            c.closure.successors(vertex_t(u), row, reflexive);
            return to_numpy(std::move(row));
          },
          py::arg("u"), py::arg("reflexive") = false)
      .def(
          "check_room",
          [](const PyClosure& c, bool reflexive, double bytes_per_pair, const std::string& what) {
            // Before an export allocates: its size against what the process may still
            // allocate, so that running out is a message with the sizes, not a bad_alloc.
            const double pairs = double(c.closure.pair_count(reflexive));
            const double need = pairs * bytes_per_pair + 8.0 * double(c.closure.vertex_count());
            const double room = double(available_host_memory());
            if (need > room)
              throw OutOfMemoryError(what + " of " + std::to_string(uint64_t(pairs)) +
                                         " pairs needs about " + format_bytes(need) + "; " +
                                         format_bytes(room) +
                                         " is available (free memory, ulimit -v or a cgroup)",
                                     Advice::kWithoutClosure);
          },
          py::arg("reflexive"), py::arg("bytes_per_pair"), py::arg("what"),
          "Raises OutOfMemoryError, naming the sizes, when an export would not fit.")
      .def(
          "csr",
          [](const PyClosure& c, bool reflexive) {
            // The export's time follows its size (plus a row read per component).
            const bool short_work =
                c.closure.pair_count(reflexive) < 1'000'000 && c.closure.component_count() < 65536;
            ClosureCsr csr = run_short_or_interruptible(
                short_work, [&] { return closure_csr(c.closure, reflexive); });
            return py::make_tuple(to_numpy(std::move(csr.indptr)),
                                  to_numpy(std::move(csr.indices)));
          },
          py::arg("reflexive") = false,
          "(indptr int64, indices int32): row u = the vertices u reaches, ascending.");

  m.def("transitive_closure", &compute, py::arg("graph"), py::arg("method") = "auto",
        py::arg("device") = "", py::arg("threads") = 0, py::arg("progress") = py::none(),
        "The strict closure of a Graph; device: '' (CLOSURE_DEVICE, else the default), 'host', "
        "'gpu', 'cpu', an index or part of a name; progress: None or a callable (phase, share "
        "or None), called every 50 ms while a long computation runs.");
}

}  // namespace closure::python
