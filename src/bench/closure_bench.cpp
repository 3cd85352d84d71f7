// Closure benchmark: each host method and Boost.Graph timed in a forked, memory-capped child.
#include "bench/closure_bench.hpp"

#include <malloc.h>
#include <poll.h>
#include <signal.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <boost/graph/adjacency_list.hpp>
#include <boost/graph/transitive_closure.hpp>
#include <cerrno>
#include <chrono>
#include <cstdio>
#include <cstring>
#include <functional>
#include <map>
#include <new>

#include "closure/algorithms/chain_count.hpp"
#include "closure/algorithms/column_count.hpp"
#include "closure/algorithms/cost_model.hpp"
#include "closure/algorithms/host_closure.hpp"
#include "closure/algorithms/planner.hpp"
#include "closure/algorithms/scc.hpp"
#include "closure/engine/compute.hpp"
#include "closure/errors.hpp"
#include "closure/executor.hpp"
#include "closure/ocl/device.hpp"
#include "closure/session/session.hpp"
#include "closure/verify/boost_closure.hpp"

namespace closure {

namespace {

constexpr int kMostRuns = 16;
constexpr double kShortRunsS = 1e-3;

// What a child sends back through its pipe: plain bytes, no allocation on the way.
struct ChildReport {
  int ok = 0;
  int runs = 0;
  double seconds[kMostRuns] = {};
  uint64_t pairs = 0;
  char error[240] = {};
};

// Virtual size of this process, from /proc/self/statm (pages).
uint64_t virtual_size() {
  uint64_t vsize = 0;
  if (FILE* f = std::fopen("/proc/self/statm", "r")) {
    unsigned long size = 0;
    if (std::fscanf(f, "%lu", &size) == 1) {
      const uint64_t page = uint64_t(sysconf(_SC_PAGESIZE));
      vsize = size * page;
    }
    std::fclose(f);
  }
  return vsize;
}

std::string gib(uint64_t bytes) {
  return format_bytes(double(bytes));  // 1.0 MB, not "0.00 GB" for a small cap
}

// The forked child's side of run_in_child: the cap, the runs, the report down the pipe.
// Apart from the parent's side, as the two share nothing but the pipe; never returns.
[[noreturn]] void child_measures(int fd, const HostClosureBenchOptions& options,
                                 const std::function<std::function<uint64_t()>()>& prepare,
                                 bool limit_address_space) {
  ChildReport report;
  const uint64_t vsize = virtual_size();
  // The cap on top of what the child already maps: Boost's allocations then fail with
  // bad_alloc instead of the machine swapping or the OOM killer picking a victim.
  const rlimit limit{vsize + options.memory_cap_bytes, vsize + options.memory_cap_bytes};
  // The executable's heap reuse (app/process/allocator_policy.hpp) stays on under this cap:
  // the cap is the bench's safety net, and a run it stands for has the reuse. Fixing glibc's
  // thresholds back at 128 KiB here (it cannot be told to slide again) mapped and unmapped
  // every array on every repeat: GRAIL agrocyc's sparse measured 2.6 ms against 0.3.
  if (limit_address_space) setrlimit(RLIMIT_AS, &limit);
  try {
    auto timed = prepare();
    double spent = 0;
    const int repeats = std::clamp(options.repeats, 1, kMostRuns);
    // Runs of a few microseconds are a preemption or a first touch away from 10x: a child
    // whose runs so far took under kShortRunsS in all runs again, up to kMostRuns (data/'s
    // auto rows, median of 3: 0.24x to 12x of their prediction from one call to the next
    // of one build; of 16: 0.24-0.5x).
    auto more = [&] {
      if (report.runs >= kMostRuns) return false;
      if (!options.repeat_short_runs && report.runs >= repeats) return false;
      if (report.runs < repeats) return report.runs == 0 || spent < options.repeat_budget_s;
      return spent < kShortRunsS;
    };
    while (more()) {
      const auto t0 = std::chrono::steady_clock::now();
      report.pairs = timed();
      const double s = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
      report.seconds[report.runs++] = s;
      spent += s;
    }
    report.ok = 1;
  } catch (const std::bad_alloc&) {
    std::snprintf(report.error, sizeof report.error, "out of memory (cap %s)",
                  gib(options.memory_cap_bytes).c_str());
  } catch (const std::exception& e) {
    std::snprintf(report.error, sizeof report.error, "%s", e.what());
  }
  const char* p = reinterpret_cast<const char*>(&report);
  for (size_t done = 0; done < sizeof report;) {
    const ssize_t w = write(fd, p + done, sizeof report - done);
    if (w <= 0) break;
    done += size_t(w);
  }
  _exit(0);
}

// The parent's read of the child's report, given up at the deadline (timed_out) or when
// the child closes the pipe first; returns the bytes read.
size_t read_report(int fd, double timeout_s, ChildReport& report, bool& timed_out) {
  size_t got = 0;
  timed_out = false;
  const auto deadline = std::chrono::steady_clock::now() + std::chrono::duration<double>(timeout_s);
  while (got < sizeof report) {
    const auto left = std::chrono::duration_cast<std::chrono::milliseconds>(
                          deadline - std::chrono::steady_clock::now())
                          .count();
    if (left <= 0) {
      timed_out = true;
      break;
    }
    pollfd pfd{fd, POLLIN, 0};
    if (poll(&pfd, 1, int(std::min<long long>(left, 1000))) <= 0) continue;
    const ssize_t r = read(fd, reinterpret_cast<char*>(&report) + got, sizeof report - got);
    if (r <= 0) break;  // the child died without reporting
    got += size_t(r);
  }
  return got;
}

// row.seconds: the median of its runs.
void set_median(HostClosureBenchRow& row) {
  if (row.runs.empty()) return;
  std::vector<double> sorted = row.runs;
  std::sort(sorted.begin(), sorted.end());
  row.seconds = (sorted[(sorted.size() - 1) / 2] + sorted[sorted.size() / 2]) / 2;
}

// The row from how the child ended and what it reported (all of it, or `got` bytes);
// apart so that run_in_child reads as fork, read, wait.
void fill_row(HostClosureBenchRow& row, const HostClosureBenchOptions& options,
              const ChildReport& report, size_t got, bool timed_out, int wstatus,
              uint64_t max_rss) {
  if (timed_out) {
    row.status = "failed: timeout after " + std::to_string(int(options.timeout_s)) + " s";
  } else if (got < sizeof report) {
    row.status = WIFSIGNALED(wstatus)
                     ? "failed: killed by signal " + std::to_string(WTERMSIG(wstatus))
                     : "failed: child exited without a report";
  } else if (!report.ok) {
    row.status = std::string("failed: ") + report.error;
  } else {
    row.status = "ok";
  }
  if (got == sizeof report) {
    row.runs.assign(report.seconds, report.seconds + report.runs);
    row.pairs = report.pairs;
    row.peak_bytes = max_rss;
  }
  set_median(row);
}

// Runs `prepare` once and then `timed` up to repeats times in a forked child; `timed`
// returns the closure's pair count. Fills status, runs, seconds, pairs, peak_bytes.
// `limit_address_space` is off for OpenCL methods: GPU drivers reserve far more address
// space than they use, and RLIMIT_AS would make them fail at start-up.
void run_one_child(HostClosureBenchRow& row, const HostClosureBenchOptions& options,
                   const std::function<std::function<uint64_t()>()>& prepare,
                   bool limit_address_space) {
  int fds[2];
  if (pipe(fds) != 0) {
    row.status = "failed: pipe()";
    return;
  }
  std::fflush(nullptr);
  // Free heap pages the caller still holds would count in the child's resident set from
  // the moment of the fork (its high-water mark starts there): hand them back first.
  malloc_trim(0);
  // The child's threaded methods start a scheduler of their own, as a process of its own
  // would: one inherited from the parent's reading has no threads left (its columns and
  // sparse ran 2-10x slower than in `closure G`).
  end_worker_threads_before_fork();
  const pid_t pid = fork();
  if (pid < 0) {
    close(fds[0]);
    close(fds[1]);
    row.status = "failed: fork()";
    return;
  }
  if (pid == 0) {
    close(fds[0]);
    child_measures(fds[1], options, prepare, limit_address_space);
  }
  close(fds[1]);
  ChildReport report;
  bool timed_out = false;
  const size_t got = read_report(fds[0], options.timeout_s, report, timed_out);
  close(fds[0]);
  if (timed_out) kill(pid, SIGKILL);
  int wstatus = 0;
  rusage usage{};
  while (wait4(pid, &wstatus, 0, &usage) < 0 && errno == EINTR) {
  }
  const uint64_t max_rss = uint64_t(usage.ru_maxrss) * 1024;  // Linux reports KB
  fill_row(row, options, report, got, timed_out, wstatus, max_rss);
}

// run_one_child(); or, `cold`, a child a run (up to repeats of them within the repeat
// budget), so that each run loads the device's driver and makes its context as a process
// does: in one child, the later runs reused the loaded driver and read a third of a
// process's start-up. The first run that fails gives the row its status.
void run_in_child(HostClosureBenchRow& row, const HostClosureBenchOptions& options,
                  const std::function<std::function<uint64_t()>()>& prepare,
                  bool limit_address_space = true, bool cold = false) {
  if (!cold || options.repeats <= 1)
    return run_one_child(row, options, prepare, limit_address_space);
  HostClosureBenchOptions one = options;
  one.repeats = 1;
  one.repeat_short_runs = false;  // each run its own child: cold, as the row is named
  std::vector<double> runs;
  double spent = 0;
  uint64_t peak = 0;
  const int repeats = std::clamp(options.repeats, 1, kMostRuns);
  for (int i = 0; i < repeats && (i == 0 || spent < options.repeat_budget_s); ++i) {
    run_one_child(row, one, prepare, limit_address_space);
    if (!row.ok()) return;
    runs.insert(runs.end(), row.runs.begin(), row.runs.end());
    spent += row.seconds;
    peak = std::max(peak, row.peak_bytes);
  }
  row.runs = std::move(runs);
  row.peak_bytes = peak;
  set_median(row);
}

using BoostGraph = boost::adjacency_list<boost::vecS, boost::vecS, boost::directedS>;

// A product method (auto, square, ...) timed through compute_closure, as the CLI runs it.
// Opened only if the method asks for a device, as the CLI does: auto on a small graph
// never loads OpenCL, and its peak memory shows that.
void bench_product(HostClosureBenchRow& row, const Graph& g, const std::string& method,
                   const HostClosureBenchOptions& options) {
  const Method m = parse_method(method);
  run_in_child(
      row, options,
      [&] {
        // The child's session chooses and opens the device, when a method asks for one.
        SessionOptions so;
        so.device = options.device;
        so.quiet = true;
        auto session = std::make_shared<Session>(so);
        // The cap as the methods' memory limit: a method the memory guard says cannot fit is
        // refused with its sizes, as the CLI's --memory-cap refuses it (the address-space
        // limit is off for these: OpenCL drivers reserve far more than they use).
        const size_t cap = options.memory_cap_bytes;
        return std::function<uint64_t()>([&g, m, session, cap] {
          ComputeOptions o;
          o.method = m;
          o.host_memory_limit = cap;
          o.lazy_runtime = [session] { return session->runtime(); };
          return compute_closure(g, o).pair_count();
        });
      },
      false);
}

// Classic's C x C matrix, refused before the fork when its estimate passes the cap.
void bench_classic(HostClosureBenchRow& row, const Graph& g, size_t components,
                   const HostClosureBenchOptions& options) {
  // Its C x C matrix plus the condensation's own copies of the graph.
  row.estimate_bytes = classic_memory_bytes(components) + uint64_t(g.vertex_count()) * 24 +
                       uint64_t(g.edge_count()) * 16;
  if (row.estimate_bytes > options.memory_cap_bytes) {
    row.status =
        "refused: needs ~" + gib(row.estimate_bytes) + " > cap " + gib(options.memory_cap_bytes);
    return;
  }
  run_in_child(row, options, [&] {
    return std::function<uint64_t()>([&] { return closure_classic(g).pair_count(); });
  });
}

// Boost.Graph's transitive_closure, refused before the fork when its estimate (better
// with the pair count a method found) passes the cap.
void bench_boost(HostClosureBenchRow& row, const Graph& g, uint64_t known_pairs,
                 const HostClosureBenchOptions& options) {
  row.estimate_bytes = estimate_boost_closure(g, known_pairs).bytes;
  if (row.estimate_bytes > options.memory_cap_bytes) {
    row.status =
        "refused: needs ~" + gib(row.estimate_bytes) + " > cap " + gib(options.memory_cap_bytes);
    return;
  }
  run_in_child(row, options, [&] {
    auto bg = std::make_shared<BoostGraph>(g.vertex_count());
    for (vertex_t u = 0; u < g.vertex_count(); ++u)
      for (vertex_t v : g.successors(u)) boost::add_edge(u, v, *bg);
    return std::function<uint64_t()>([bg] {
      BoostGraph tc;
      boost::transitive_closure(*bg, tc);
      // No duplicates: g has none, and Boost adds each closure edge once.
      return uint64_t(boost::num_edges(tc));
    });
  });
}

// All ok methods must agree on the pair count: the first ok row's is the reference.
void mark_agreement(std::vector<HostClosureBenchRow>& rows) {
  uint64_t reference = 0;
  bool have_reference = false;
  for (const auto& r : rows)
    if (r.ok() && !have_reference) reference = r.pairs, have_reference = true;
  for (auto& r : rows) r.agrees = !r.ok() || r.pairs == reference;
}

// Opens the device `spec` names in a child process (a driver that crashes takes only the
// child): the row's status says why it failed; its pairs are 0 for none, 1 for a device
// that is not a GPU, 2 for a GPU.
HostClosureBenchRow device_row_in_child(const std::string& spec) {
  HostClosureBenchRow row;
  HostClosureBenchOptions options;
  options.repeats = 1;
  run_in_child(
      row, options,
      [&] {
        SessionOptions so;
        so.device = spec;
        so.quiet = true;
        const std::optional<DeviceFacts> d = Session(so).chosen_device();
        const uint64_t answer = !d ? 0 : d->is_gpu ? 2 : 1;
        return std::function<uint64_t()>([answer] { return answer; });
      },
      false);
  return row;
}

}  // namespace

void check_device_in_child(const std::string& spec) {
  const HostClosureBenchRow row = device_row_in_child(spec);
  const std::string failed = "failed: ";
  if (row.status.rfind(failed, 0) == 0) throw UsageError(row.status.substr(failed.size()));
}

std::vector<HostClosureBenchRow> bench_host_closure(const std::string& name, const Graph& g,
                                                    const HostClosureBenchOptions& options) {
  const size_t components = strongly_connected_components(g).component_count();
  auto make_row = [&](const char* method) {
    HostClosureBenchRow row;
    row.graph = name;
    row.method = method;
    row.vertices = g.vertex_count();
    row.edges = g.edge_count();
    row.components = components;
    return row;
  };
  std::vector<HostClosureBenchRow> rows;
  uint64_t known_pairs = 0;

  if (options.run_sparse) {
    HostClosureBenchRow row = make_row("sparse");
    run_in_child(row, options, [&] {
      return std::function<uint64_t()>(
          [&] { return closure_sparse(g, {options.sparse_threads}).pair_count(); });
    });
    if (row.ok()) known_pairs = row.pairs;
    rows.push_back(std::move(row));
  }
  for (const std::string& method : options.product_methods) {
    HostClosureBenchRow row = make_row(method.c_str());
    bench_product(row, g, method, options);
    if (row.ok() && !known_pairs) known_pairs = row.pairs;
    rows.push_back(std::move(row));
  }
  if (options.run_classic) {
    HostClosureBenchRow row = make_row("classic");
    bench_classic(row, g, components, options);
    if (row.ok() && !known_pairs) known_pairs = row.pairs;
    rows.push_back(std::move(row));
  }
  if (options.run_boost) {
    HostClosureBenchRow row = make_row("boost");
    bench_boost(row, g, known_pairs, options);
    rows.push_back(std::move(row));
  }
  mark_agreement(rows);
  return rows;
}

std::string format_host_closure_bench(const std::vector<HostClosureBenchRow>& rows) {
  std::string out;
  char line[512];
  std::snprintf(line, sizeof line, "%-24s %9s %9s %9s  %-8s %10s %10s %14s %6s %10s %10s  %s\n",
                "graph", "n", "m", "SCCs", "method", "seconds", "peak MB", "pairs", "agree",
                "x classic", "x boost", "status");
  out += line;
  // Speed-ups of each method against classic and Boost of the same graph.
  std::map<std::pair<std::string, std::string>, const HostClosureBenchRow*> by;
  for (const auto& r : rows) by[{r.graph, r.method}] = &r;
  auto ratio = [&](const HostClosureBenchRow& r, const char* peer) -> std::string {
    auto it = by.find({r.graph, peer});
    if (it == by.end() || !it->second->ok() || !r.ok() || r.seconds <= 0) return "-";
    char buf[32];
    const double x = it->second->seconds / r.seconds;
    std::snprintf(buf, sizeof buf, x >= 10 ? "%.0fx" : x >= 0.1 ? "%.2fx" : "%.4fx", x);
    return buf;
  };
  for (const auto& r : rows) {
    char secs[32] = "-", peak[32] = "-";
    if (r.ok()) {
      std::snprintf(secs, sizeof secs, "%.4f", r.seconds);
      std::snprintf(peak, sizeof peak, "%.1f", double(r.peak_bytes) / (1 << 20));
    }
    std::snprintf(line, sizeof line,
                  "%-24s %9zu %9zu %9zu  %-8s %10s %10s %14llu %6s %10s %10s  %s\n",
                  r.graph.c_str(), r.vertices, r.edges, r.components, r.method.c_str(), secs, peak,
                  (unsigned long long)r.pairs, r.ok() ? (r.agrees ? "yes" : "NO") : "-",
                  ratio(r, "classic").c_str(), ratio(r, "boost").c_str(), r.status.c_str());
    out += line;
  }
  return out;
}

}  // namespace closure

namespace closure {
namespace {

// Pairs inside the components: a cyclic component of s vertices holds s^2.
uint64_t pairs_within(const SccResult& scc) {
  const std::vector<uint32_t> sizes = component_sizes(scc);
  uint64_t pairs = 0;
  for (size_t c = 0; c < sizes.size(); ++c)
    if (scc.cyclic[c]) pairs += uint64_t(sizes[c]) * sizes[c];
  return pairs;
}

// compute_closure's `m` in a child, only the count wanted unless `rows`; each run with a
// fresh session when `fresh_device` (a device's start-up is then in every run's time), and
// the device's method (propagate) each run in a child of its own, its driver loaded afresh
// as a process loads it (auto's rows, on the host for small graphs, are run as the host's).
void time_compute(HostClosureBenchRow& row, const Graph& g, Method m, bool rows,
                  const HostClosureBenchOptions& options, bool fresh_device) {
  run_in_child(
      row, options,
      [&] {
        auto sessions = std::make_shared<std::vector<std::shared_ptr<Session>>>();
        auto session_options = std::make_shared<SessionOptions>();
        session_options->device = options.device;
        session_options->quiet = true;
        sessions->push_back(std::make_shared<Session>(*session_options));
        return std::function<uint64_t()>([&g, m, rows, fresh_device, sessions, session_options] {
          // Kept past the timer: a session's teardown is no part of the method's time.
          if (fresh_device) sessions->push_back(std::make_shared<Session>(*session_options));
          const std::shared_ptr<Session> session = sessions->back();
          ComputeOptions o;
          o.method = m;
          o.propagate.rows_needed = rows;
          o.lazy_runtime = [session] { return session->runtime(); };
          return compute_closure(g, o).pair_count();
        });
      },
      m == Method::kSparse, /*cold=*/m == Method::kPropagate);
}

// The host's count by columns (column_count.hpp) after condensing, as sparse counts do.
void time_columns(HostClosureBenchRow& row, const Graph& g,
                  const HostClosureBenchOptions& options) {
  run_in_child(row, options, [&] {
    return std::function<uint64_t()>([&g] {
      const Condensation c = condense(g);
      return count_closure_by_columns(c.dag, weighted_sizes(c.scc)) + pairs_within(c.scc);
    });
  });
}

// The host's count by chains (chain_count.hpp) after condensing, by columns where the cover
// passes most_chains_worth_counting(), as `closure G` counts.
void time_chains(HostClosureBenchRow& row, const Graph& g, const HostClosureBenchOptions& options) {
  run_in_child(row, options, [&] {
    return std::function<uint64_t()>([&g] {
      const Condensation c = condense(g);
      const std::vector<uint32_t> sizes = weighted_sizes(c.scc);
      const std::optional<uint64_t> by_chains =
          count_closure_by_chains(c.dag, sizes, most_chains_worth_counting(c.component_count()));
      return (by_chains ? *by_chains : count_closure_by_columns(c.dag, sizes)) +
             pairs_within(c.scc);
    });
  });
}

// What auto would predict for its own choice: the least of the predictions it compares.
double predicted_auto(const CostInputs& in, bool device_is_gpu) {
  PlanFacts facts;
  facts.vertices = in.vertices;
  facts.edges = in.edges;
  facts.condensed = in;
  facts.gpu_looked_up = true;
  if (device_is_gpu) {
    DeviceFacts gpu;
    gpu.is_gpu = true;
    facts.gpu = gpu;
  }
  const Plan p = plan(facts);
  // Below kAutoModelFrom auto predicts nothing and runs sparse, which counts by columns
  // where the model says so: the host's best. Either way it plans first.
  const double chosen = p.host_s == 0                             ? predict_host_s(in)
                        : p.device_s > 0 && p.device_s < p.host_s ? p.device_s
                                                                  : p.host_s;
  return chosen + predict_auto_planning_s(in);
}

}  // namespace

std::pair<bool, bool> device_in_child(const std::string& spec) {
  const HostClosureBenchRow row = device_row_in_child(spec);
  return {row.ok() && row.pairs > 0, row.ok() && row.pairs == 2};
}

std::vector<PredictedBenchRow> bench_predicted(const std::string& name, const Graph& g,
                                               const HostClosureBenchOptions& options,
                                               bool device_present, bool device_is_gpu) {
  const Condensation condensed = condense(g);
  CostInputs in = gather_cost_inputs(g, condensed, true, thread_budget(), false);
  in.block_items = int64_t(count_block_items(condensed.dag));
  // The chains, where auto would cover them (compute.cpp): its prediction weighs them.
  if (chain_cover_may_pay(in))
    if (const std::optional<ChainCounting> chains =
            prepare_chain_count(condensed.dag, weighted_sizes(condensed.scc),
                                most_chains_worth_counting(condensed.component_count())))
      in.chains = chains->cover.chains();
  CostInputs with_rows = in;
  with_rows.count_only = false;
  std::vector<PredictedBenchRow> rows;
  auto add = [&](const char* method, double predicted) -> HostClosureBenchRow& {
    PredictedBenchRow r;
    r.run.graph = name;
    r.run.method = method;
    r.run.vertices = g.vertex_count();
    r.run.edges = g.edge_count();
    r.run.components = in.components;
    r.inputs = in;
    r.predicted = predicted;
    rows.push_back(std::move(r));
    return rows.back().run;
  };
  time_compute(add("sparse", predict_host_sparse_s(with_rows)), g, Method::kSparse, true, options,
               false);
  time_columns(add("columns", predict_host_column_count_s(in)), g, options);
  time_chains(add("chains", in.chains ? predict_host_chain_count_s(in) : -1), g, options);
  // A device auto does not model (PoCL's CPU device) only when named.
  if (device_is_gpu || (device_present && !options.device.empty()))
    time_compute(add("propagate", device_is_gpu ? predict_gpu_propagate_s(in) : -1), g,
                 Method::kPropagate, false, options, true);
  time_compute(add("auto", predicted_auto(in, device_is_gpu)), g, Method::kAuto, false, options,
               true);
  std::vector<HostClosureBenchRow> runs;
  for (const auto& r : rows) runs.push_back(r.run);
  mark_agreement(runs);
  for (size_t i = 0; i < rows.size(); ++i) rows[i].run.agrees = runs[i].agrees;
  return rows;
}

double repredicted(const PredictedBenchRow& row, const HostCalibration& calibration) {
  CostInputs in = row.inputs;
  in.calibration = calibration;
  const std::string& m = row.run.method;
  if (m == "sparse") {
    in.count_only = false;  // as bench_predicted predicts it: rows kept
    return predict_host_sparse_s(in);
  }
  if (m == "columns") return predict_host_column_count_s(in);
  if (m == "chains") return in.chains ? predict_host_chain_count_s(in) : -1;
  return -1;
}

std::string format_predicted_bench(const std::vector<PredictedBenchRow>& rows) {
  std::string out;
  char line[512];
  // The model's inputs: SCCs and DAG edges (the condensation's), reach (components per
  // component), row and span (sparse's stored and scanned words a row), cols (the count by
  // columns' words a row), levels, live rows, block items (the device's loads).
  std::snprintf(line, sizeof line,
                "%-22s %8s %8s %8s %8s %7s %7s %6s %6s %7s %7s %8s  %-9s %9s %9s %6s %13s %5s  "
                "%s\n",
                "graph", "n", "m", "SCCs", "DAG m", "reach", "row", "span", "cols", "levels",
                "live", "items", "method", "predicted", "measured", "ratio", "pairs", "agree",
                "status");
  out += line;
  for (const auto& r : rows) {
    const CostInputs& in = r.inputs;
    char predicted[32] = "-", measured[32] = "-", ratio[32] = "-";
    if (r.predicted > 0) std::snprintf(predicted, sizeof predicted, "%.4f", r.predicted);
    if (r.run.ok()) std::snprintf(measured, sizeof measured, "%.4f", r.run.seconds);
    if (r.ratio() > 0) std::snprintf(ratio, sizeof ratio, "%.2f", r.ratio());
    const bool within = r.ratio() >= 0.5 && r.ratio() <= 2;
    const char* status = !r.run.ok()      ? r.run.status.c_str()
                         : r.ratio() == 0 ? "ok"
                         : within         ? "ok, within 2x"
                                          : "ok, NOT within 2x";
    std::snprintf(line, sizeof line,
                  "%-22s %8zu %8zu %8zu %8zu %7.0f %7.1f %6.0f %6.0f %7zu %7zu %8lld  %-9s %9s "
                  "%9s %6s %13llu %5s  %s\n",
                  r.run.graph.c_str(), in.vertices, in.edges, in.components, in.condensed_edges,
                  in.mean_reach, in.row_words, in.span_words, in.reach_words, in.levels,
                  in.live_rows, (long long)in.block_items, r.run.method.c_str(), predicted,
                  measured, ratio, (unsigned long long)r.run.pairs,
                  r.run.ok() ? (r.run.agrees ? "yes" : "NO") : "-", status);
    out += line;
  }
  return out;
}

}  // namespace closure
