// auto's cost model (see cost_model.hpp); the constants and where they come from.
#include "closure/algorithms/cost_model.hpp"

#include <algorithm>
#include <atomic>
#include <cmath>
#include <cstdio>
#include <span>
#include <vector>

#include "closure/algorithms/chain_count.hpp"
#include "closure/algorithms/column_count.hpp"
#include "closure/algorithms/row_estimate.hpp"
#include "closure/bitmatrix.hpp"
#include "closure/executor.hpp"
#include "closure/util/huge_pages.hpp"

namespace closure {
namespace {

// Fitted by tools/fit-cost-model.py to `closure bench closure --predict` on the 2-core
// development machine, on the GRAIL graphs, commit histories of 20k to 200k, random DAGs,
// the generated graphs and road grids (docs/benchmarks.md, "Predicted against measured").
// Refitted once bench's children got threads of their own: before, each was forked with
// the parent's TBB workers gone, its threaded methods ran on one thread, and the constants
// fitted to them predicted threaded runs 2x slow on 2 cores.
// The graph's linear passes (condensing, the rows' headers), per vertex and per edge; a
// vertex costs more once the graph's arrays (about 88 bytes a vertex and 12 an edge)
// pass the cache (kHostCacheBytes): a 1M-vertex chain takes 0.26-0.31 s, GRAIL's
// 12k-vertex DAGs under a millisecond. kHostVertexS, the sparse rows' miss terms and the
// count by columns' word costs were refitted by tools/fit-cost-model.py (28 graphs, both
// methods, 2-core) once the condensation got faster and the row estimate exact
// (docs/benchmarks.md, "Predicted against measured").
constexpr double kHostVertexS = 2.0e-8;
constexpr double kHostVertexMissGain = 10.0;
constexpr double kHostEdgeS = 3.5e-8;
constexpr double kCyclicGain = 2.0;
// Sparse propagation: per row, its scratch span scanned and cleared, its stored words
// written (first touch included: 2.4 GB of rows for 200k commits cost 3.9 s of system
// time); per condensation edge, a successor row's words ORed (most are skipped).
constexpr double kSparseSpanWordS = 1.0e-9;
constexpr double kSparseRowWordS = 2.5e-10;
// A stored word more once the rows pass kRowCacheBytes (then first touched, page by page).
constexpr double kSparseRowMissWordS = 2.0e-9;
constexpr double kRowCacheBytes = 32.0 * 1024 * 1024;
constexpr double kSparseEdgeWordS = 1.0e-10;
// A run's fixed cost, sparse's (its scratch row, pools) and the count by columns' (its
// arrays): the graphs of data/, of 4 to 9 vertices, take 0.7-1.1 us each way once the
// process has run them before (`bench closure --predict`: medians of 16 runs, which runs of
// a few microseconds get; the median of 3 had swung from 0.25x to 12x); a process's first
// run pays its fresh pages as well, 30 to 100 us.
constexpr double kSparseFixedS = 0.6e-6;
constexpr double kColumnFixedS = 0.3e-6;
// Threads: 1 + 0.6 (threads - 1), for sparse's threaded path too, up to 4x where
// memory-bound (sparse's rows; the count by columns' live rows past the cache): 200k commits
// counted by columns on the H200's host, 16 threads, 0.041-0.052 s against 0.113 on the
// 2-core machine; 1M commits, their rows in cache, 0.39 s against 1.74 (4.5x for 8x the
// threads).
constexpr double kHostThreadGain = 0.6;
constexpr double kHostThreadGainMost = 4.0;
// Counting by columns (column_count.cpp): per word ORed in cache; per word more when the
// slice's stored rows pass the cache a thread has; per row or edge visited in a slice.
// (The planner's test keeps the road grid's memory-bound term: its rows kept live along
// long paths make the same sweep over twice as slow.)
constexpr double kColumnWordS = 4.5e-11;
constexpr double kColumnMissWordS = 2.0e-10;
constexpr double kColumnVisitS = 1.0e-8;
// Per byte of a thread's stored rows, first touched (a fault and the kernel's zeroing a page):
// the slots are not zeroed, but they lie end to end, so every page is written.
constexpr double kColumnFreshByteS = 0.9e-10;
constexpr double kHostCacheBytes = 4.0 * 1024 * 1024;
// Counting by chains (chain_count.cpp), 2-core, a 10M-commit history (21.9M components
// and edges, 1,880 chains): the generation ids and live rows 0.42 s, the cover 0.45 s (a
// pass of 64 tracked numbers), the count 0.89 s on 2 threads. Per component and edge: the
// two passes and the cover; per number counted.
constexpr double kChainPassesS = 1.9e-8;
constexpr double kChainCoverS = 2.1e-8;
constexpr double kChainNumberS = 7.0e-11;

// Device: the chained sweep (kernels/propagate.cl) closes the components a block of 32 at
// a time, each work-group (1,024 columns) from its highest column's block down, as many
// groups at once as the GPU holds: a step a block along the longest sweep (latency-bound:
// barriers, local memory and the chain from row to row), more where the groups outnumber
// what the GPU holds (kDeviceWaveColumns: 10M commits sweep about 3 times the longest), and
// a load a block item (CostInputs::block_items: 20M of them on a dense 20k-component DAG
// took 9 s, its 625 blocks' steps nothing). In count mode no row is written but those read
// back; where rows are kept, the closure's words at the device's bandwidth. Start-up:
// creating the NVIDIA context and loading the cached program, whole process. The host's
// part (condensing, the sweep's blocks, live rows and upload) per vertex or edge, a cyclic
// graph's times kCyclicGain (Tarjan's pass). Fitted by tools/fit-device-model.py to `closure
// bench closure --predict` (docs/benchmarks-gpu.md, "Predicted against measured").
constexpr double kDeviceStartS = 0.35;
constexpr double kDeviceHostLinearS = 6.0e-8;
constexpr double kDeviceBlockS = 2.0e-6;
constexpr double kDeviceWaveColumns = 3.0e6;
constexpr double kDeviceItemS = 4.5e-7;
constexpr double kDeviceBytesPerS = 1.4e12;

// Auto's planning (predict_auto_planning_s), 2-core, `bench closure --predict`, auto's run
// less the method it chose: 200k commits 18 ms (437k components and edges, 100k reached
// each), 50k 7 ms, GRAIL's nasa 0.3 ms, the graphs of data/ 4-5 us (auto's row there, a
// Session made and the plan, less its method's 1 us); a step a component or edge looked at.
constexpr double kPlanFixedS = 4.0e-6;
constexpr double kPlanStepS = 4.0e-9;

// The row estimate behind row_words: components searched and the time they may take.
constexpr size_t kRowSamples = 64;
constexpr double kRowSampleS = 0.02;

}  // namespace

namespace {

// The mean number of vertices reached from `samples` sources spread evenly over the ids
// (fixed, so runs agree), each search stopped after `cap` (0: none); `stopped`, if given,
// is told how many searches the cap stopped.
template <class Successors>
double mean_reach(size_t n, size_t samples, size_t cap, Successors successors,
                  size_t* stopped = nullptr) {
  if (n == 0) return 0;
  samples = std::min(samples, n);
  std::vector<uint64_t> reached(samples, 0);
  // Search k from a clear `seen`, cleared again after it through the vertices it marked
  // (512 searches of 1.5M disjoint pairs, each clearing all 3M bits, took 30 ms); returns
  // the edges it looked at (its work).
  struct Scratch {
    std::vector<word_t> seen;
    std::vector<vertex_t> stack, marked;
  };
  auto search = [&](size_t k, Scratch& s) {
    // The middle of each of `samples` equal ranges: not id 0, a source that reaches
    // the most on a DAG numbered topologically.
    const vertex_t source = vertex_t((2 * k + 1) * n / (2 * samples));
    s.stack.assign(1, source);
    s.marked.assign(1, source);
    s.seen[word_of(source)] |= bit_mask(source);
    uint64_t count = 0, looked = 0;
    while (!s.stack.empty() && (cap == 0 || count < cap)) {
      const vertex_t c = s.stack.back();
      s.stack.pop_back();
      for (const vertex_t d : successors(c)) {
        ++looked;
        if (!test_bit(s.seen.data(), d)) {
          s.seen[word_of(d)] |= bit_mask(d);
          ++count;
          s.stack.push_back(d);
          s.marked.push_back(d);
        }
      }
    }
    for (const vertex_t v : s.marked) s.seen[word_of(v)] = 0;
    reached[k] = cap ? std::min<uint64_t>(count, cap) : count;
    return looked;
  };
  // The searches are independent, so they may run on the thread budget: on one thread the
  // 16 searches of a commit history were a sizeable share of auto's whole run. But starting
  // the thread pool costs more than small searches take (a 6,000-vertex citation graph's 16
  // took under a millisecond; the pool's start-up and exit several): so they run here one
  // after another while what the searches so far looked at, extrapolated to the rest,
  // stays under a millisecond's work (2^20 edges), and on the threads only past that.
  constexpr uint64_t kSerialWork = uint64_t{1} << 20;
  Scratch scratch{std::vector<word_t>(words_for_bits(n)), {}, {}};
  uint64_t looked = 0;
  size_t done = 0;
  while (done < samples) {
    looked += search(done, scratch);
    ++done;
    // The next searches' work, guessed from those so far.
    const uint64_t per_search = looked / done + 1;
    if (done < samples && per_search * (samples - done) >= kSerialWork) break;
  }
  if (done < samples) {
    parallel_chunks(samples - done, 1, [&](size_t begin, size_t end) {
      Scratch own{std::vector<word_t>(words_for_bits(n)), {}, {}};
      for (size_t k = done + begin; k < done + end; ++k) search(k, own);
    });
  }
  uint64_t total = 0;
  for (const uint64_t r : reached) total += r;
  if (stopped)
    *stopped = size_t(
        std::count_if(reached.begin(), reached.end(), [&](uint64_t r) { return cap && r >= cap; }));
  return double(total) / double(samples);
}

}  // namespace

double sample_mean_reach(const CsrDag& dag, size_t samples, size_t cap) {
  const size_t n = dag.offsets.empty() ? 0 : dag.offsets.size() - 1;
  return mean_reach(n, samples, cap, [&](vertex_t c) {
    return std::span<const vertex_t>(dag.targets.data() + dag.offsets[c],
                                     dag.offsets[c + 1] - dag.offsets[c]);
  });
}

namespace {

// Components on the condensation's longest path (ids are topological).
size_t longest_path_components(const CsrDag& dag) {
  const size_t C = dag.offsets.empty() ? 0 : dag.offsets.size() - 1;
  // On huge pages: 10M components' 40 MB were 10k page faults.
  std::vector<uint32_t> level = detail::huge_filled<uint32_t>(C, 1);
  uint32_t most = 0;
  for (size_t c = C; c-- > 0;) {
    for (uint64_t e = dag.offsets[c]; e < dag.offsets[c + 1]; ++e)
      level[c] = std::max(level[c], level[dag.targets[e]] + 1);
    most = std::max(most, level[c]);
  }
  return most;
}

}  // namespace

CostInputs gather_cost_inputs(const Graph& g, const Condensation& condensed, bool count_only,
                              unsigned host_threads, bool capped) {
  CostInputs in;
  in.vertices = g.vertex_count();
  in.edges = g.edge_count();
  in.components = condensed.scc.component_count();
  in.condensed_edges = condensed.dag.targets.size();
  in.count_only = count_only;
  in.host_threads = host_threads;
  in.reach_cap = capped ? decisive_reach(in) : 0;
  in.mean_reach = sample_mean_reach(condensed.dag, 16, in.reach_cap);
  // A search stopped at the decisive reach already settles auto's choice (the device); the
  // host's finer inputs, each a pass over the condensation (0.6 s at 10M commits), are
  // gathered only where the host runs after all (complete_cost_inputs).
  if (in.reach_cap && in.mean_reach + 0.5 >= double(in.reach_cap)) return in;
  // A count on a large condensation whose components reach far: the row estimate (its
  // searches as long as the reach) and the longest path run beside the chain cover's serial
  // passes instead (1M commits: 37 of the planning's 52 ms, 2-core). Not where they reach
  // little: the estimate is cheap there, and without it the cover looked worth trying on
  // 1.5M disjoint edges (60 ms lost, 2-core).
  if (capped && count_only && in.components + in.condensed_edges >= kFinerInputsBesideFrom &&
      in.mean_reach >= kFinerInputsBesideReach) {
    in.deferred = true;
    return in;
  }
  complete_cost_inputs(in, condensed);
  return in;
}

void estimate_rows_and_levels(CostInputs& in, const Condensation& condensed) {
  if (in.row_words >= 0) return;
  const RowEstimate rows = estimate_row_bytes(condensed.dag, kRowSamples, kRowSampleS);
  if (in.components) in.row_words = rows.bytes / double(sizeof(word_t) * in.components);
  in.span_words = rows.span_words;
  in.reach_words = rows.reach_words;
  in.levels = longest_path_components(condensed.dag);
}

void complete_cost_inputs(CostInputs& in, const Condensation& condensed) {
  if (in.completed) return;
  in.completed = true;
  estimate_rows_and_levels(in, condensed);
  if (!in.count_only || in.components == 0) return;
  // The live rows (a pass over the condensation: 0.27 of arXiv's 9 ms) only where
  // the count by columns could win. With one live row it is predicted at its least (more
  // never predict a faster count); auto's inputs (capped) skip the pass where sparse is
  // predicted faster even than that, leaving live_rows unknown; bench's do not.
  // Nor where the chains, covered already, count faster than that: at 10M commits the pass
  // took 0.18 s and changed nothing.
  CostInputs least = in;
  least.live_rows = 1;
  const double columns_least = predict_host_column_count_s(least);
  if (in.reach_cap && predict_host_sparse_s(in) < columns_least) return;
  if (in.chains && predict_host_chain_count_s(in) < columns_least) return;
  in.live_rows = std::max<size_t>(1, sweep_slots(condensed.dag).slots);
}

namespace {

// The least mean reach at which host sparse's prediction reaches `seconds` (the component
// count when none below it does). The prediction is a formula, monotone in the reach, so a
// bisection costs nothing, and every term counts (the rows' cache misses start only past
// kRowCacheBytes): a slope taken as every word missing the cache put the cut far too low,
// and a 1M-commit history, its sample cut there, looked like the host's (the GPU opened at
// the start was released, then reopened). Only sparse's prediction grows with the reach; the
// count by columns' and the GPU's do not.
double reach_where_sparse_reaches(CostInputs in, double seconds) {
  const double n = double(in.components);
  in.reach_cap = 0;
  in.row_words = -1;
  in.mean_reach = n;
  if (predict_host_sparse_s(in) < seconds) return n;
  double lo = 0, hi = n;
  while (hi - lo > 1) {
    const double mid = std::floor((lo + hi) / 2);
    in.mean_reach = mid;
    (predict_host_sparse_s(in) >= seconds ? hi : lo) = mid;
  }
  return hi;
}

}  // namespace

bool gpu_may_win_as_read(const Graph& g, bool count_only, unsigned host_threads,
                         std::optional<GpuOpening> opening, size_t samples) {
  const bool gpu_opening = opening.has_value();
  const size_t n = g.vertex_count();
  if (n == 0) return false;
  CostInputs in;
  in.count_only = count_only;
  in.host_threads = host_threads;
  in.vertices = in.components = n;
  in.edges = in.condensed_edges = g.edge_count();
  // The GPU at its least, no block items (unknown before the ids are topological): the
  // question is whether it may win.
  in.block_items = 0;
  // The host must be predicted past both the start-up a device is worth and the GPU's
  // prediction (which the reach does not change). Where its count by columns stays under
  // that, no reach makes the GPU win; else each search stops at twice the reach at which
  // sparse passes it.
  const double needed = std::max(kDeviceWorthLookingS, predict_gpu_propagate_s(in, opening));
  // A GPU already opening (a sunk cost) is given up only where the host surely wins: the
  // count's live rows, unknown before condensing, are taken as every row, and a search the
  // cap stopped as reaching everything. A random 1M-edge graph (13 MB) has 15% of its rows
  // live and a sample whose searches either stop at once or run into a giant component:
  // weighed with a tenth live and capped searches, its GPU was released, then opened again
  // once the plan chose it (0.14 s). One not yet opened is opened only where the host is
  // slower with a tenth of its rows live and the capped mean.
  if (gpu_opening) in.live_rows = n;
  if (count_only && predict_host_column_count_s(in) < needed) return false;
  // Opening already, each search stops at twice the reach where sparse passes half that: a
  // random graph of mean degree 1 (1M edges on 1M ids) sits at the point where a giant
  // component appears, its reach sets heavy-tailed, and a cap at `needed` itself stopped
  // one of 512 searches or none as `needed` moved by 0.04 s (seed 9 of 12 kept its GPU or
  // not with the reading's speed).
  const double reach = reach_where_sparse_reaches(in, gpu_opening ? needed / 2 : needed);
  const uint64_t cap = uint64_t(std::min(double(n), 2.0 * reach + 64));
  // 32 times the searches where a GPU is opening already: on the GPU machines' random
  // 1M-edge graph (mawk's `srand(5)`) about 1% of the vertices run into the giant
  // component; 16 searches, and 128, missed them, so its GPU was released as read, then
  // opened again once the plan chose it (0.12 s of context on the critical path, auto
  // 18-25% off the GPU named). Capped, and most stopping at once, the 512 searches cost a
  // millisecond or two beside a 13 MB file's reading.
  if (gpu_opening) samples *= 32;
  size_t stopped = 0;
  in.mean_reach = mean_reach(
      n, samples, cap, [&](vertex_t v) { return g.successors(v); }, &stopped);
  if (gpu_opening && stopped > 0)
    in.mean_reach += double(stopped) * double(n - cap) / double(samples);
  // Opening already, it is kept unless the host is predicted under half the GPU's time where
  // the cap stopped a search: the sample then reached into a component most vertices' rows may
  // run into, and its mean is no bound (the same random graph, its GPU released while the
  // plan, weighing the condensation, chose it). Where no search was stopped the sample's
  // reach stands: 1.5M disjoint pairs (every search done at once) release theirs, the host
  // winning by 2x.
  return predict_host_s(in) * (gpu_opening && stopped > 0 ? 2 : 1) >= needed;
}

size_t decisive_reach(const CostInputs& in) {
  // Past the reach where sparse is predicted at four times the best it is compared with
  // (the GPU, or when counting the count by columns, neither of which the reach changes),
  // sparse is out and the choice no longer changes.
  double best = predict_gpu_propagate_s(in);
  if (in.count_only) best = std::min(best, predict_host_column_count_s(in));
  const double target = std::max(kDeviceWorthLookingS, 4 * best);
  return size_t(std::min(double(in.components), reach_where_sparse_reaches(in, target) + 64));
}

namespace {

// Work in each thread's cache gains from every thread; memory-bound work only up to
// kHostThreadGainMost.
double host_thread_gain_uncapped(unsigned threads) {
  return 1 + kHostThreadGain * (std::max(1.0, double(threads)) - 1);
}
double host_thread_gain(unsigned threads) {
  return std::min(host_thread_gain_uncapped(threads), kHostThreadGainMost);
}

}  // namespace

namespace {

// The linear passes with their cache misses: a vertex's cost grows once the graph's arrays
// pass the cache. `streamed`: the passes read the arrays in order (no misses). A graph with
// cycles pays Tarjan's pass as well (kCyclicGain; fitted by tools/fit-cost-model.py: the
// road grids and the giant component were predicted 1.3-2.1x under before).
double linear_passes_s(const CostInputs& in, bool streamed) {
  const double bytes = 88.0 * double(in.vertices) + 12.0 * double(in.edges);
  const double missed =
      streamed ? 0.0 : std::clamp(1 - kHostCacheBytes / std::max(bytes, 1.0), 0.0, 1.0);
  const double passes =
      in.calibration.compute *
          (kHostVertexS * double(in.vertices) + kHostEdgeS * double(in.edges)) +
      in.calibration.memory * kHostVertexS * double(in.vertices) * kHostVertexMissGain * missed;
  return in.components == in.vertices ? passes : kCyclicGain * passes;
}

}  // namespace

double predict_host_linear_s(const CostInputs& in) {
  // A graph without cycles is condensed by one topological pass and counting sorts
  // (condense()'s path for DAGs, no Tarjan): its arrays streamed (commit histories, 2-core:
  // 1M 0.023 s, 10M 0.25 s; with the miss term 0.25 and 2.5 were predicted).
  return linear_passes_s(in, in.components == in.vertices);
}

double predict_host_sparse_s(const CostInputs& in) {
  const double C = double(in.components);
  // Without the row estimate: every reached component a bit of its own word span.
  const double row =
      in.row_words >= 0 ? in.row_words : double(words_for_bits(size_t(in.mean_reach + 0.5)));
  const double span = in.row_words >= 0 ? in.span_words : row;
  const double stored = C * row * double(sizeof(word_t));
  const double missed = std::clamp(1 - kRowCacheBytes / std::max(stored, 1.0), 0.0, 1.0);
  const HostCalibration& k = in.calibration;
  const double rows = C * (k.sparse * (kSparseSpanWordS * span + kSparseRowWordS * row) +
                           k.memory * missed * kSparseRowMissWordS * row) +
                      k.sparse * kSparseEdgeWordS * double(in.condensed_edges) * row;
  // The threaded path runs only where propagation has the width and size for it
  // (host_closure.cpp: 200,000 components + edges, 64 components a level, 32 edges each).
  const bool threaded = in.levels > 0 && in.components + in.condensed_edges >= 200'000 &&
                        in.condensed_edges <= 32 * in.components && in.components / in.levels >= 64;
  // Sparse's own pass over the components misses the cache as the graph grows, DAG or not:
  // the miss term stays (a 1M-vertex path: 0.17-0.21 s, nothing stored), for the components
  // that read a successor's row (at most one an edge: a sink's row is empty); on the threaded
  // path the threads share that pass with the rows (1.5M disjoint pairs, 3M components on 2
  // levels, half of them sinks: 0.19-0.28 s on 2 cores, where 0.71 s was predicted).
  const double linear = predict_host_linear_s(in);
  const double readers = C > 0 ? std::min(1.0, double(in.condensed_edges) / C) : 0.0;
  const double own_pass = std::max(0.0, linear_passes_s(in, false) - linear) * readers;
  return (rows + own_pass) / (threaded ? host_thread_gain(in.host_threads) : 1.0) +
         k.compute * kSparseFixedS + linear;
}

double predict_host_column_count_s(const CostInputs& in) {
  const size_t W = words_for_bits(in.components);
  // Every edge's successor row and every row, over the columns from the row's first to
  // its highest reached (sampled; half the words when unknown), slice by slice.
  const double visits = double(in.condensed_edges + in.components);
  const double visit_words = in.reach_words >= 0 ? std::min(in.reach_words, double(W)) : W / 2.0;
  const double words = visits * visit_words;
  // A sweep too small for the thread pool runs on one, as count_closure_by_columns() decides;
  // else on every thread.
  const unsigned T =
      words < double(kColumnSweepOneThreadWords) ? 1u : std::max(1u, in.host_threads);
  const size_t live = in.live_rows ? in.live_rows : std::max<size_t>(1, in.components / 10);
  const size_t S = column_slice_words(W, live, T);
  // A slice visits the rows below its columns down to the lowest that reaches them: half
  // the slices a row on average, or the few its reach spans where it reaches near ids only.
  const double slices = double(ceil_div(W, S));
  const double slices_a_row =
      in.reach_words >= 0 ? std::min(slices / 2, 1 + in.reach_words / double(S)) : slices / 2;
  // The stored rows a slice reads back are its live rows. Past the cache a thread has,
  // those reads go to memory: the sweep turns memory-bound (long paths, low reach: a road
  // network keeps tens of thousands of rows live), and that part gains from threads only up
  // to kHostThreadGainMost; the rest, in each thread's cache, gains from every thread (1M
  // commits, 253 rows live, on the H200 machine's 16: 0.39 s, where 0.86 was predicted
  // with every part capped).
  // A live row's slot holds the words from its first column to the highest it reaches, at
  // most the slice (slot_offsets() in column_count.cpp): a road network's rows a few words.
  const double row_words = in.reach_words >= 0 ? std::min(double(S), in.reach_words + 1) : S;
  const double stored = double(live + 2) * row_words * double(sizeof(word_t));
  const double missed = std::clamp(1 - kHostCacheBytes / stored, 0.0, 1.0);
  const HostCalibration& k = in.calibration;
  const double in_cache =
      k.columns * (words * kColumnWordS + visits * slices_a_row * kColumnVisitS) +
      k.memory * double(T) * stored * kColumnFreshByteS;
  const double in_memory = k.memory * words * missed * kColumnMissWordS;
  return in_cache / host_thread_gain_uncapped(T) + in_memory / host_thread_gain(T) +
         k.compute * kColumnFixedS + predict_host_linear_s(in);
}

double predict_chain_cover_s(const CostInputs& in) {
  // Past 2^21 components with three threads or more the cover runs in stretches on threads
  // (cover_stretches()), its pass shared among them; the live rows' pass runs beside.
  const size_t stretches = cover_stretches(in.components, in.host_threads);
  return in.calibration.compute * double(in.components + in.condensed_edges) *
             (kChainPassesS + kChainCoverS / host_thread_gain_uncapped(unsigned(stretches))) +
         predict_host_linear_s(in);
}

bool chain_cover_may_pay(const CostInputs& in, double rival_s) {
  return in.count_only && predict_chain_cover_s(in) < std::min(predict_host_s(in), rival_s);
}

double predict_host_chain_count_s(const CostInputs& in) {
  if (!in.count_only || in.chains == 0) return 1e30;
  const double visits = double(in.components + in.condensed_edges);
  return predict_chain_cover_s(in) + in.calibration.compute * visits * double(in.chains) / 2 *
                                         kChainNumberS / host_thread_gain(in.host_threads);
}

double predict_auto_planning_s(const CostInputs& in) {
  // Two passes' steps over the condensation (the row estimate's, the longest path's or the
  // live rows'), and the 16 reach samples', each its reach times the edges a component has.
  const double C = double(in.components), E = double(in.condensed_edges);
  const double degree = C > 0 ? std::min(1 + E / C, 32.0) : 1.0;
  return in.calibration.compute *
         (kPlanFixedS + kPlanStepS * (2 * (C + E) + 16 * in.mean_reach * degree));
}

double predict_host_s(const CostInputs& in) {
  const double sparse = predict_host_sparse_s(in);
  if (!in.count_only) return sparse;
  return std::min({sparse, predict_host_column_count_s(in), predict_host_chain_count_s(in)});
}

double predict_device_propagate_s(const CostInputs& in, const DeviceFacts& device,
                                  std::optional<GpuOpening> opening) {
  return device.is_gpu ? predict_gpu_propagate_s(in, opening) : 1e30;
}

double predict_gpu_propagate_s(const CostInputs& in, std::optional<GpuOpening> opening) {
  const double C = double(in.components), E = double(in.condensed_edges);
  const double start = opening ? std::max(0.0, kDeviceStartS - opening->elapsed_s) : kDeviceStartS;
  // Not scaled by the host calibration: kDeviceHostLinearS was fitted on the GPU machines'
  // own hosts (the calibration's factors are against the 2-core VM's host terms), so scaling
  // it would count a GPU host's speed twice.
  const double host = kDeviceHostLinearS * double(in.vertices + in.edges) *
                      (in.components == in.vertices ? 1.0 : kCyclicGain);
  const double items = in.block_items >= 0 ? double(in.block_items) : E;
  double sweep = kDeviceBlockS * std::ceil(C / 32) * std::max(1.0, C / kDeviceWaveColumns) +
                 kDeviceItemS * items;
  // Every row kept (an output reads them): the closure's words written once.
  if (!in.count_only) sweep += 4 * C * double(words_for_bits(in.components)) / kDeviceBytesPerS;
  return start + host + sweep;
}

uint64_t count_block_items(const CsrDag& dag) {
  constexpr size_t kBlock = 32, kPrefetched = 8;  // ChainedBlocks::kRows, ::kFirst
  const size_t C = dag.offsets.empty() ? 0 : dag.offsets.size() - 1;
  std::atomic<uint64_t> items{0};
  parallel_chunks(ceil_div(C, kBlock), 4096, [&](size_t k0, size_t k1) {
    uint64_t own = 0;
    for (size_t k = k0; k < k1; ++k) {
      const size_t begin = k * kBlock, end = std::min(begin + kBlock, C);
      uint64_t beyond = 0;
      for (size_t c = begin; c < end; ++c)
        for (uint64_t e = dag.offsets[c]; e < dag.offsets[c + 1]; ++e)
          beyond += dag.targets[e] >= end;
      own += beyond > kPrefetched ? beyond - kPrefetched : 0;
    }
    items += own;
  });
  return items;
}

std::string describe_costs(const CostInputs& in, double host_s, double device_s) {
  char buf[256];
  const bool capped = in.reach_cap && in.mean_reach + 0.5 >= double(in.reach_cap);
  const double columns_s = predict_host_column_count_s(in),
               chains_s = predict_host_chain_count_s(in);
  const bool by_chains = in.count_only && chains_s < std::min(columns_s, predict_host_sparse_s(in));
  const bool by_columns = !by_chains && in.count_only && columns_s < predict_host_sparse_s(in);
  const std::string chains = "count by " + std::to_string(in.chains) + " chains";
  std::snprintf(buf, sizeof buf,
                "%zu components reaching %s%.0f each (sampled): predicted host %s %s%.2f s",
                in.components, capped ? "at least " : "", in.mean_reach,
                by_chains    ? chains.c_str()
                : by_columns ? "count by columns"
                             : "sparse",
                capped && !by_columns && !by_chains ? "at least " : "", host_s);
  std::string out = buf;
  if (device_s < 1e29) {
    std::snprintf(buf, sizeof buf, ", device propagate %.2f s", device_s);
    out += buf;
  }
  // Said where it moved the host's prediction: a choice that differs between two machines
  // should say why.
  if (in.calibration != HostCalibration{})
    out += " (host calibrated: " + format_host_calibration(in.calibration) + ")";
  return out;
}

}  // namespace closure
