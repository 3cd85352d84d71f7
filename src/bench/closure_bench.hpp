// The closure benchmark for the host methods: sparse, the classic peer and
// Boost.Graph, each timed and measured in a forked child, returning rows for a table.
#pragma once

#include <cstdint>
#include <string>
#include <utility>
#include <vector>

#include "closure/algorithms/cost_model.hpp"
#include "closure/graph/graph.hpp"

namespace closure {

struct HostClosureBenchOptions {
  // Median of up to this many runs per method (a child's runs of under a millisecond in all
  // run again, up to 16, unless repeat_short_runs is off: a cold row's child runs once)...
  int repeats = 3;
  bool repeat_short_runs = true;
  double repeat_budget_s = 5.0;                    // ...but no new run once this much time is spent
  uint64_t memory_cap_bytes = uint64_t{12} << 30;  // per method; above it: refused
  double timeout_s = 600;                          // a child still running after this is killed
  unsigned sparse_threads = 0;                     // 0: automatic
  bool run_sparse = true, run_classic = true, run_boost = true;
  // compute_closure methods to time as well ("auto", "recursive", "condense", "square"),
  // on `device` (as --device takes it; "" = the default device).
  std::vector<std::string> product_methods;
  std::string device;
};

struct HostClosureBenchRow {
  std::string graph;
  std::string method;  // "sparse", "classic", "boost", or a compute_closure method
  size_t vertices = 0, edges = 0, components = 0;
  // "ok", or why there is no time: "refused: ..." (estimate above the cap, not run),
  // "failed: ..." (ran and failed: out of memory, a signal, the timeout).
  std::string status;
  bool ok() const { return status == "ok"; }
  double seconds = 0;        // median wall time of the runs
  std::vector<double> runs;  // every run's seconds
  // The child's peak resident set (getrusage max RSS): the method's memory plus what
  // every method shares, the input graph and the program's code (a few MB on GRAIL).
  uint64_t peak_bytes = 0;
  uint64_t estimate_bytes = 0;  // the estimate that was checked against the cap
  uint64_t pairs = 0;           // closure pairs (strict)
  bool agrees = true;           // pairs equal those of every other ok method
};

// Times each enabled method on g. Every method runs in a forked child (so an
// out-of-memory Boost cannot take the caller down, and its peak memory is its own),
// under RLIMIT_AS of the cap above the child's starting size. Timed: the closure
// computation including its SCC condensation (sparse, classic) or Boost's
// transitive_closure call (its adjacency_list copy of g is built outside the timer).
std::vector<HostClosureBenchRow> bench_host_closure(const std::string& name, const Graph& g,
                                                    const HostClosureBenchOptions& options = {});

// Checks a --device spec as choose_device does, but in a forked child: the methods run
// in children, and a GPU driver initialised in the parent does not survive a fork (on
// the H200 the children then found no GPU). Throws UsageError with the session's message
// when the spec names no device.
void check_device_in_child(const std::string& spec);

// `closure bench closure --predict`: each method auto compares, timed as above beside the
// cost model's prediction (cost_model.hpp) from the inputs auto gathers (the reach sampled
// without a cap): "sparse" (rows kept), "columns" (the count by columns), "propagate" (the
// count on the device; predicted only for a GPU) on a GPU, or on the device --device names
// when `device_present`, and "auto" itself
// (the count, as `closure G` runs it; predicted: the least of its predictions). Timed:
// condensation, sampling and the method, in a forked child; not the reading.
struct PredictedBenchRow {
  HostClosureBenchRow run;
  CostInputs inputs;      // what the predictions read
  double predicted = -1;  // seconds; < 0: not modelled (a device that is not a GPU)
  double ratio() const { return run.ok() && predicted > 0 ? run.seconds / predicted : 0; }
};
std::vector<PredictedBenchRow> bench_predicted(const std::string& name, const Graph& g,
                                               const HostClosureBenchOptions& options,
                                               bool device_present, bool device_is_gpu);

// Whether the device `spec` names ("" = the default) exists and is a GPU, asked in a forked
// child (see check_device_in_child): {present, gpu}.
std::pair<bool, bool> device_in_child(const std::string& spec);

std::string format_predicted_bench(const std::vector<PredictedBenchRow>& rows);

// A host row's prediction again, its inputs under another calibration (bench/calibration.hpp
// fits one): sparse's, the count by columns' and by chains'; -1 for the other methods.
double repredicted(const PredictedBenchRow& row, const HostCalibration& calibration);

// A plain-text table of rows (one line per graph and method, speed-ups against classic
// and Boost where both are ok).
std::string format_host_closure_bench(const std::vector<HostClosureBenchRow>& rows);

}  // namespace closure
