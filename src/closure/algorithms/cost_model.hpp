// auto's cost model: host sparse propagation vs device propagation, from the closure's
// size (estimated by sampling reach sets) and constants fitted to measurements on the
// 2-core development machine and the H200 machine (docs/benchmarks-gpu.md).
#pragma once

#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>

#include "closure/algorithms/host_calibration.hpp"
#include "closure/algorithms/scc.hpp"
#include "closure/device_facts.hpp"
#include "closure/graph/graph.hpp"

namespace closure {

struct CostInputs {
  size_t vertices = 0, edges = 0;
  size_t components = 0, condensed_edges = 0;
  double mean_reach = 0;  // components reached per component, sampled
  size_t reach_cap = 0;   // where each sampled search stopped (0: none)
  // Only the count is wanted (no output reads rows): the host may count by columns over
  // live rows (column_count.hpp) instead of storing every row; on host_threads threads.
  bool count_only = false;
  unsigned host_threads = 1;
  // Words sparse stores per row, sampled (row_estimate.hpp: runs cost nothing, sparse rows
  // their ids); < 0: unknown, then mean_reach / 32.
  double row_words = -1;
  double span_words = 0;  // words from a row's lowest reached id to its highest, sampled
  // Words from a row's first column to its highest reached id, sampled (RowSize::reach):
  // what the count by columns ORs each row and edge over; < 0: unknown, then half a row.
  double reach_words = -1;
  // Components on the longest path (0: unknown, then too deep for sparse's threads).
  size_t levels = 0;
  // Rows the count by columns keeps at once (sweep_slots()); 0: unknown, then a tenth of
  // the components (auto leaves it unknown where sparse wins even against one live row).
  size_t live_rows = 0;
  // Chains the count by chains covers the condensation with (chain_count.hpp); 0: not
  // covered (auto covers it while planning a count, where the cover may pay).
  size_t chains = 0;
  // The chained sweep's items loaded one after another (kernels/chained_blocks.hpp): per
  // block of 32 components, its edges to components beyond it, past the first 8 (which
  // the sweep loads a block ahead, their latency hidden); an edge inside its block costs
  // nothing beyond the block's step. A commit history's merges are a few a block, a dense
  // DAG's edges nearly all items. < 0: unknown, then every condensation edge (the device's
  // prediction at its most); auto counts them only where a GPU is there and in the running
  // (count_block_items()).
  int64_t block_items = -1;
  // This machine's factors on the host terms (host_calibration.hpp): the process's, unless
  // `bench closure --calibrate` tries others.
  HostCalibration calibration = current_host_calibration();
  bool completed = false;  // complete_cost_inputs() ran
  // gather_cost_inputs() left the finer inputs to be gathered beside the chain cover (a
  // count on a large condensation): the caller covers where chain_cover_may_pay(), then
  // completes them (compute.cpp, cover_chains_where_they_may_pay()).
  bool deferred = false;
};

// A GPU being opened on speculation when auto predicts (from the process's start for a large
// file, or once the graph was read), and for how long so far: that much of its start-up is
// paid whatever auto chooses; the rest is waited for only if the GPU is chosen (infinite:
// opened already, its start-up all paid).
struct GpuOpening {
  explicit GpuOpening(double elapsed) : elapsed_s(elapsed) {}
  double elapsed_s = 0;
};

// CostInputs::block_items, counted on the thread budget: a pass over the edges (a few ms at
// 10M commits).
uint64_t count_block_items(const CsrDag& dag);

// Mean number of components a component reaches, from BFS on the condensation from
// `samples` components spread evenly over the ids (fixed, so runs agree). Each search stops
// after `cap` components (0: none), the mean then a lower bound.
double sample_mean_reach(const CsrDag& dag, size_t samples = 16, size_t cap = 0);

// The inputs auto's model reads, from g and its condensation, as compute_closure gathers
// them: sizes, and the mean reach of 16 sampled components, each search stopped at
// decisive_reach() when `capped` (else a full search: what `closure bench closure
// --predict` uses, so that its predictions are the model's, not a bound).
CostInputs gather_cost_inputs(const Graph& g, const Condensation& condensed, bool count_only,
                              unsigned host_threads, bool capped = true);
// Components and edges from which a count's finer inputs (the row estimate, the longest
// path) are gathered on a thread beside the chain cover: 200k commits (440k) gained 0.87x
// whole (2-core) from 2^18; a thread started for much less costs more than it saves.
inline constexpr size_t kFinerInputsBesideFrom = size_t{1} << 18;
// ... and the sampled mean reach from which gather_cost_inputs() leaves them to that.
inline constexpr double kFinerInputsBesideReach = 1024;

// The host's finer inputs (the row estimate, the longest path, the live rows) where
// gather_cost_inputs left them out (its sample already reached the decisive reach); once.
void complete_cost_inputs(CostInputs& in, const Condensation& condensed);
// Its first half, the row estimate and the longest path (once): what a planner may gather
// beside other work (the chain cover's serial passes) before completing the rest.
void estimate_rows_and_levels(CostInputs& in, const Condensation& condensed);

// The reach from which auto's choice no longer changes (the host's prediction four times
// the GPU's, and worth a device), for a sample's search to stop at: a history of 10M
// commits reaches 5M each, 80M steps for 16 samples, where 1M steps decide.
size_t decisive_reach(const CostInputs& in);

// Before condensing: whether a GPU could win on g (the host's predicted time worth a
// device's start-up, and more than the GPU's), from a mean reach sampled on the graph as
// read, each search stopped once it has seen enough to say so. A cycle makes it
// overestimate (its vertices become one component), so at worst it opens a GPU that
// auto then does not use; on a DAG it is the condensation's estimate.
// `opening`: a GPU is being opened already (from the process's start, for a large file): the
// part of its start-up paid so far is left out of the GPU's cost, and 32 times `samples`
// are searched before it is given up.
bool gpu_may_win_as_read(const Graph& g, bool count_only = false, unsigned host_threads = 1,
                         std::optional<GpuOpening> opening = std::nullopt, size_t samples = 16);

// Seconds, predicted, from the condensation on (reading is no method's and not counted).
// The linear passes every method makes: condensing, per vertex and edge.
double predict_host_linear_s(const CostInputs& in);
// Host sparse propagation: per row its scratch span and stored words (row_words,
// span_words), per edge a successor row ORed; on the host's threads only where sparse's
// threaded path runs (wide and large enough). Device: OpenCL start-up and program load,
// the host's passes (condensing, the sweep's blocks and upload), the chained sweep (a step
// a block of 32 components, a load a block item; with rows kept, the closure's words at
// the device's bandwidth); only GPUs are modelled (PoCL's sweep loses to the host).
double predict_host_sparse_s(const CostInputs& in);
// Counting by columns over live rows (count_only): every edge's successor row and every
// row ORed and counted over the columns above it, a slice at a time (column_slice_words())
// on the host's threads; memory-bound where a slice's live rows pass a thread's cache.
double predict_host_column_count_s(const CostInputs& in);
// Counting by chains (count_only, chains known): the generation ids, live rows and cover,
// a pass each over the condensation; then every edge's successor row and every row, about
// half the chains' numbers each, on the host's threads. Infinite with chains unknown.
double predict_host_chain_count_s(const CostInputs& in);
// The cover's own passes, which auto makes before it knows the chains.
double predict_chain_cover_s(const CostInputs& in);
// Whether to make the cover at all (count_only): not where the host's other counts, or a
// rival's `rival_s` (a GPU already opening), are predicted under the cover's own passes.
// The one rule auto, the named sparse count and `bench closure --predict` follow.
bool chain_cover_may_pay(const CostInputs& in, double rival_s = 1e30);
// What auto spends choosing, beyond the method it picks: the reach samples, the row
// estimate, the longest path and the live rows, a pass or so each over the condensation.
// The same whatever it picks, so the planner leaves it out; `bench closure --predict` adds
// it to auto's own prediction.
double predict_auto_planning_s(const CostInputs& in);
// The host's best: sparse, or when only counting the cheapest of sparse and the counts.
double predict_host_s(const CostInputs& in);
// `opening`: a GPU opened on speculation; only the start-up still to come is counted (what
// it has taken so far is paid whatever auto chooses).
double predict_device_propagate_s(const CostInputs& in, const DeviceFacts& device,
                                  std::optional<GpuOpening> opening = std::nullopt);
// The same for a GPU yet unseen: auto lists the devices (loading every OpenCL driver, and
// with NVIDIA's a slow unloading at exit) only when a GPU could win.
double predict_gpu_propagate_s(const CostInputs& in,
                               std::optional<GpuOpening> opening = std::nullopt);

// Below this predicted host time auto does not even look for a device (its start-up
// alone costs more).
inline constexpr double kDeviceWorthLookingS = 0.3;

// An input file at least this large (gzip'ed: a quarter of it) makes auto start opening the
// GPU at the process's start, before reading, so that the driver's 0.2 s overlaps the
// reading too; the graph as read still decides, and an unused GPU is released while the
// host works. Below it the host wins on every graph measured (docs/benchmarks-startup.md, "Start-up
// and exit": package dependencies, 9.3 MB; includes, 7.3 MB; 200k commits, 3.1 MB), so
// those pay nothing; at 16 MB of history the GPU wins by 2.5x.
inline constexpr uint64_t kOpenGpuAtStartBytes = uint64_t{12} << 20;

std::string describe_costs(const CostInputs& in, double host_s, double device_s);

}  // namespace closure
