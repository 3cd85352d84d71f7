// auto's cost model (see cost_model.hpp); the constants and where they come from.
#include "closure/algorithms/cost_model.hpp"

#include <algorithm>
#include <cstdio>
#include <span>
#include <vector>

#include "closure/bitmatrix.hpp"
#include "closure/executor.hpp"

namespace closure {
namespace {

// Host sparse propagation, per closure word (32 pairs) ORed: 200k-commit DAG on the
// H200 machine's host, 6.2e8 words in 1.90 s (single thread: commit DAGs are too deep
// for the threaded path) -> 3.0 ns. Per vertex or edge for reading and condensing:
// about 0.2 us (parse 0.037 s + SCC for 437k vertices + edges).
constexpr double kHostWordS = 3.0e-9;
constexpr double kHostLinearS = 2.0e-7;
// Counting by columns (column_count.cpp): words ORed and counted in cache, AVX2; git's
// history (2.1e9 words) in 0.27 s of one 2-core machine's core -> 0.13 ns, taken as 0.15.
// Threads: 2 gave 1.5x on the 2-core machine, 16 gave 7.4x on the H200's host (1M
// commits, 3.4e10 words in 0.69 s): 1 + 0.42 (threads - 1).
constexpr double kHostColumnWordS = 1.5e-10;
constexpr double kHostColumnThreadGain = 0.42;

// Device: the chained sweep (kernels/propagate.cl) walks every component once, a block
// of 32 at a time, latency-bound; fitted to its two H200 measurements (200k commits:
// 0.012 s for 5.0 GB of rows; 1M commits, four slices in one launch: 0.131 s for 125 GB):
// 42 ns a component plus the rows' bytes at 1.4 TB/s. Start-up: creating the NVIDIA
// context and loading the cached program, measured as whole process minus the phases.
constexpr double kDeviceRowS = 4.2e-8;
constexpr double kDeviceBytesPerS = 1.4e12;
constexpr double kDeviceStartS = 0.35;

}  // namespace

namespace {

// The mean number of vertices reached from `samples` sources spread evenly over the ids
// (fixed, so runs agree), each search stopped after `cap` (0: none).
template <class Successors>
double mean_reach(size_t n, size_t edges, size_t samples, size_t cap, Successors successors) {
  if (n == 0) return 0;
  samples = std::min(samples, n);
  // The searches are independent, so they run on the thread budget: on one thread the 16
  // searches of a commit history were a sizeable share of auto's whole run. Each chunk of
  // searches has its own visited bits. Searches that cannot cost a millisecond together
  // stay on this thread: starting the thread pool would cost more than they do.
  const size_t grain = samples * (n + edges) < (size_t{1} << 20) ? samples : 1;
  std::vector<uint64_t> reached(samples, 0);
  parallel_chunks(samples, grain, [&](size_t begin, size_t end) {
    std::vector<word_t> seen(words_for_bits(n));
    std::vector<vertex_t> stack;
    for (size_t k = begin; k < end; ++k) {
      if (k > begin) std::fill(seen.begin(), seen.end(), word_t{0});
      const vertex_t s = vertex_t(k * n / samples);
      stack.assign(1, s);
      seen[word_of(s)] |= bit_mask(s);
      uint64_t count = 0;
      while (!stack.empty() && (cap == 0 || count < cap)) {
        const vertex_t c = stack.back();
        stack.pop_back();
        for (const vertex_t d : successors(c))
          if (!test_bit(seen.data(), d)) {
            seen[word_of(d)] |= bit_mask(d);
            ++count;
            stack.push_back(d);
          }
      }
      reached[k] = cap ? std::min<uint64_t>(count, cap) : count;
    }
  });
  uint64_t total = 0;
  for (const uint64_t r : reached) total += r;
  return double(total) / double(samples);
}

}  // namespace

double sample_mean_reach(const CsrDag& dag, size_t samples, size_t cap) {
  const size_t n = dag.offsets.empty() ? 0 : dag.offsets.size() - 1;
  return mean_reach(n, dag.targets.size(), samples, cap, [&](vertex_t c) {
    return std::span<const vertex_t>(dag.targets.data() + dag.offsets[c],
                                     dag.offsets[c + 1] - dag.offsets[c]);
  });
}

bool gpu_may_win_as_read(const Graph& g, bool count_only, unsigned host_threads, size_t samples) {
  const size_t n = g.vertex_count();
  if (n == 0) return false;
  CostInputs in;
  in.count_only = count_only;
  in.host_threads = host_threads;
  in.vertices = in.components = n;
  in.edges = in.condensed_edges = g.edge_count();
  // The reach at which the host's prediction passes both the start-up a device is worth
  // and the GPU's prediction; each search stops at twice that.
  const double linear = kHostLinearS * double(n + g.edge_count());
  const double needed = std::max(kDeviceWorthLookingS, predict_gpu_propagate_s(in)) - linear;
  const double reach_needed = 32.0 * needed / (kHostWordS * double(n));
  const uint64_t cap = uint64_t(std::min(double(n), 2.0 * reach_needed + 64));
  in.mean_reach =
      mean_reach(n, g.edge_count(), samples, cap, [&](vertex_t v) { return g.successors(v); });
  const double host_s = predict_host_s(in);
  return host_s >= kDeviceWorthLookingS && predict_gpu_propagate_s(in) < host_s;
}

size_t decisive_reach(const CostInputs& in) {
  const double target = std::max(kDeviceWorthLookingS, 4 * predict_gpu_propagate_s(in)) -
                        kHostLinearS * double(in.vertices + in.edges);
  const double per_reach = kHostWordS * double(in.components) / 32;
  const double reach = target > 0 && per_reach > 0 ? target / per_reach : 0;
  return size_t(std::min(double(in.components), reach + 64));
}

double predict_host_sparse_s(const CostInputs& in) {
  return kHostWordS * double(in.components) * double(words_for_bits(size_t(in.mean_reach + 0.5))) +
         kHostLinearS * double(in.vertices + in.edges);
}

double predict_host_column_count_s(const CostInputs& in) {
  const double words =
      double(in.condensed_edges + in.components) * double(words_for_bits(in.components)) / 2;
  const double threads = 1 + kHostColumnThreadGain * (std::max(1.0, double(in.host_threads)) - 1);
  return kHostColumnWordS * words / threads + kHostLinearS * double(in.vertices + in.edges);
}

double predict_host_s(const CostInputs& in) {
  const double sparse = predict_host_sparse_s(in);
  return in.count_only ? std::min(sparse, predict_host_column_count_s(in)) : sparse;
}

double predict_device_propagate_s(const CostInputs& in, const DeviceFacts& device) {
  return device.is_gpu ? predict_gpu_propagate_s(in) : 1e30;
}

double predict_gpu_propagate_s(const CostInputs& in) {
  const double words = double(in.components) * double(words_for_bits(in.components));
  return kDeviceStartS + kHostLinearS * double(in.vertices + in.edges) +
         kDeviceRowS * double(in.components) + 4 * words / kDeviceBytesPerS;
}

std::string describe_costs(const CostInputs& in, double host_s, double device_s) {
  char buf[256];
  const bool capped = in.reach_cap && in.mean_reach + 0.5 >= double(in.reach_cap);
  const bool by_columns =
      in.count_only && predict_host_column_count_s(in) < predict_host_sparse_s(in);
  std::snprintf(
      buf, sizeof buf, "%zu components reaching %s%.0f each (sampled): predicted host %s %s%.2f s",
      in.components, capped ? "at least " : "", in.mean_reach,
      by_columns ? "count by columns" : "sparse", capped && !by_columns ? "at least " : "", host_s);
  std::string out = buf;
  if (device_s < 1e29) {
    std::snprintf(buf, sizeof buf, ", device propagate %.2f s", device_s);
    out += buf;
  }
  return out;
}

}  // namespace closure
