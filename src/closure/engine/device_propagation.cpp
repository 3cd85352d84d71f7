// Device propagation: upload the condensation's CSR, sweep each column slice with
// kernels/propagate.cl (PropagateKernels), count pairs there, and keep the rows there
// behind DeviceRows.
#include "closure/engine/device_propagation.hpp"

#include <algorithm>
#include <atomic>
#include <chrono>
#include <cstdio>
#include <optional>
#include <stdexcept>
#include <thread>

#include "closure/algorithms/propagation_slices.hpp"
#include "closure/engine/device_rows.hpp"
#include "closure/errors.hpp"
#include "closure/executor.hpp"
#include "closure/kernels/propagate_kernels.hpp"
#include "closure/ocl/error.hpp"
#include "closure/util/available_memory.hpp"
#include "closure/util/cancel.hpp"
#include "closure/util/trace.hpp"

namespace closure {
namespace {

// Components and edges from which the sweep's bytes are counted on a thread beside it.
constexpr size_t kBytesBesideSweepFrom = size_t{1} << 20;

double seconds_since(std::chrono::steady_clock::time_point t0) {
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
}

// The slices this call computes, of `rows` rows each, from the options and the device's
// memory.
SlicePlan plan_slices(size_t C, size_t rows, const DevicePropagationOptions& o,
                      const ocl::DeviceInfo& dev) {
  const size_t all_words = words_for_bits(C);
  const size_t first_word = std::min<size_t>(o.word_begin, all_words);
  const size_t last_word = o.word_end ? std::min<size_t>(o.word_end, all_words) : all_words;
  if (last_word < first_word) throw InternalError("propagate: empty word range");
  SliceLimits limits;
  limits.components = rows;
  limits.first_word = first_word;
  limits.words = last_word - first_word;
  limits.global_mem_bytes = dev.global_mem_bytes;
  limits.max_alloc_bytes = dev.max_alloc_bytes;
  limits.max_slice_words = o.max_slice_words;
  limits.budget_bytes = o.device_budget_bytes;
  if (!dev.is_cpu) return plan_propagation_slices(limits);
  // A CPU device's memory is this process's: the slices are planned within what it may still
  // allocate (ulimit -v, a cgroup) less PoCL's own (cpu_device_reserve()), streamed past it,
  // and then, when the rows are needed, within what the host's copy of them (allocated
  // first) leaves. On the device's figure, or on all that is left, PoCL asserted and aborted
  // the process when an allocation it makes on first use failed (ulimit -v 950000).
  const double left = std::max(
      0.0, double(available_host_memory()) - double(cpu_device_reserve(dev.compute_units)));
  limits.global_mem_bytes = std::min(dev.global_mem_bytes, size_t(left));
  const SlicePlan plan = plan_propagation_slices(limits);
  if (plan.resident || !o.rows_needed) return plan;
  const double host_rows = double(C) * double(all_words) * sizeof(word_t);
  limits.global_mem_bytes = std::min(dev.global_mem_bytes, size_t(std::max(0.0, left - host_rows)));
  return plan_propagation_slices(limits);
}

// The sweep for a device whose work-groups hold max_work_group items: the one the options
// name, counting only with live rows when nothing reads rows.
PropagateParams sweep_params(const DevicePropagationOptions& o, size_t max_work_group,
                             bool weighted) {
  PropagateParams params = resolve_propagate_kernel(o.kernel, max_work_group);
  params.live_rows = !o.rows_needed && params.sweep == PropagateParams::kChained ? 1 : 0;
  params.weighted = weighted ? 1 : 0;
  return params;
}

PropagationPrep prepare_for(const SccResult& scc, const CsrDag& dag,
                            const DevicePropagationOptions& o, size_t max_work_group) {
  PropagationPrep p;
  // Every component one vertex (a DAG): every size 1, nothing weighed, no sizes to count.
  if (scc.component_count() != scc.component_of.size()) p.sizes = component_sizes(scc);
  const bool weighted =
      std::any_of(p.sizes.begin(), p.sizes.end(), [](uint32_t s) { return s > 1; });
  p.params = sweep_params(o, max_work_group, weighted);
  if (p.params.sweep == PropagateParams::kChained) {
    p.blocks = chained_blocks(dag, size_t(p.params.chain_prefetch));
    trace("chained blocks made");
    if (p.params.live_rows) p.live = live_row_slots(p.blocks);
  }
  return p;
}

// Bytes the sweep moves over word-columns [first_word, last_word): every word written
// once (with live rows: only the words of rows that have a slot, in the columns above
// them); a successor's word read unless it is c+1 (kept in a register) or lies above the
// column's word (known zero). A pass over every edge, for the report only: in parallel
// chunks (10M commits: 22M rows and edges, tens of ms on one thread before the kernel).
uint64_t sweep_bytes(const CsrDag& dag, size_t first_word, size_t last_word,
                     const std::vector<uint32_t>* live_slot) {
  const size_t C = dag.offsets.size() - 1;
  auto words_above = [&](size_t d) {  // the columns' words that hold a column above d
    return last_word - std::clamp(word_of(d + 1), first_word, last_word);
  };
  std::atomic<uint64_t> moved_words{0};
  parallel_chunks(C, size_t{1} << 18, [&](size_t b, size_t e) {
    uint64_t read_words = 0, written_words = 0;
    for (size_t c = b; c < e; ++c) {
      if (!live_slot)
        written_words += last_word - first_word;
      else if ((*live_slot)[c] != ChainedBlocks::kNone)
        written_words += words_above(c);
      for (uint64_t i = dag.offsets[c]; i < dag.offsets[c + 1]; ++i) {
        const size_t d = dag.targets[i];
        if (d != c + 1) read_words += words_above(d);
      }
    }
    moved_words += read_words + written_words;
  });
  return moved_words.load() * sizeof(word_t);
}

// The slices [k0, k0 + count) of `plan`, `C` rows each, allocated. A CPU device allocates a
// buffer on its first use, where a failure is PoCL's assertion (an abort), not an error: its
// slices are refused here past what the process may still allocate, as a host method's are.
std::vector<DeviceSlice> allocate_slices(ocl::Runtime& rt, const SlicePlan& plan, size_t C,
                                         size_t k0, size_t count) {
  if (rt.device().is_cpu) {
    double bytes = 0;
    for (size_t i = 0; i < count; ++i) bytes += double(C) * plan.words_of(k0 + i) * sizeof(word_t);
    const double left = double(available_host_memory());
    if (bytes > left - double(kCpuDeviceOwnBytes))
      throw OutOfMemoryError("the CPU device's rows need " + format_bytes(bytes) + ", and " +
                                 format_bytes(left) + " is left to this process (" +
                                 format_bytes(double(kCpuDeviceOwnBytes)) + " of it kept for PoCL)",
                             Advice::kSparseMethod);
  }
  cl::Context& ctx = rt.context();
  std::vector<DeviceSlice> slices(count);
  for (size_t i = 0; i < count; ++i) {
    DeviceSlice& s = slices[i];
    s.word_begin = plan.word_begin(k0 + i);
    s.words = plan.words_of(k0 + i);
    s.rows = cl::Buffer(ctx, CL_MEM_READ_WRITE, C * s.words * sizeof(word_t));
  }
  return slices;
}

// Waits for `ev`, polling the caller's cancellation token (Python's Ctrl-C, a progress
// callback's exception) every 20 ms: a launch may sweep for seconds, and a kernel cannot be
// stopped, so a cancelled wait stops waiting; the launch ends on the device, its buffers
// released by OpenCL once it has.
void wait_or_cancel(ocl::Runtime& rt, const cl::Event& ev) {
  const CancelToken* cancel = current_cancel_token();
  if (cancel) {
    rt.queue().flush();  // submitted, so that its status moves
    while (ev.getInfo<CL_EVENT_COMMAND_EXECUTION_STATUS>() > CL_COMPLETE) {
      throw_if_cancelled(cancel);
      std::this_thread::sleep_for(std::chrono::milliseconds(20));
    }
  }
  ev.wait();  // an error status surfaces here
}

// Sweeps every slice of `plan`, `rows` rows each, up to kSlicesPerLaunch to a sweep, as
// many as the budget holds at once. Resident slices are returned when `keep`; streamed
// ones are copied one at a time into `host` (when rows are needed: host is then rows x
// rows) and freed, or only counted.
std::vector<DeviceSlice> sweep_all(ocl::Runtime& rt, PropagateKernels& kernels,
                                   const SlicePlan& plan, size_t rows, BitMatrix* host, bool keep,
                                   DevicePropagationStats& stats) {
  const size_t per_launch = host ? 1 : std::min(PropagateKernels::kSlicesPerLaunch, plan.at_once);
  std::vector<DeviceSlice> kept;
  cl_ulong first_start = ~cl_ulong{0}, last_end = 0;
  for (size_t k0 = 0; k0 < plan.slices; k0 += per_launch) {
    const size_t count = std::min(per_launch, plan.slices - k0);
    std::vector<DeviceSlice> launch = allocate_slices(rt, plan, rows, k0, count);
    cl::Event ev = kernels.sweep(launch);
    wait_or_cancel(rt, ev);
    first_start = std::min(first_start, ev.getProfilingInfo<CL_PROFILING_COMMAND_START>());
    last_end = std::max(last_end, ev.getProfilingInfo<CL_PROFILING_COMMAND_END>());
    for (DeviceSlice& s : launch) {
      if (keep) {
        kept.push_back(std::move(s));
      } else if (host) {
        auto td = std::chrono::steady_clock::now();
        download_slice(rt.context(), rt.queue(), s, rows, *host);
        stats.download_s += seconds_since(td);
      }
    }
  }
  if (last_end > first_start) stats.kernel_s = double(last_end - first_start) * 1e-9;
  return kept;
}

}  // namespace

PropagationPrep prepare_device_propagation(const SccResult& scc, const CsrDag& dag,
                                           const DevicePropagationOptions& o) {
  return prepare_for(scc, dag, o, 32);
}

std::string DevicePropagationStats::describe() const {
  char buf[256];
  char held[96];
  std::snprintf(held, sizeof held, "counted over %zu live rows (the rest never stored)", live_rows);
  std::snprintf(buf, sizeof buf, "%zu column slice%s of %zu words, %s; %s kernel %.3f s, %s moved",
                slices, slices == 1 ? "" : "s", slice_words,
                live_rows  ? held
                : resident ? "resident on the device"
                           : "streamed (larger than the device)",
                kernel.c_str(), kernel_s, format_bytes(double(kernel_bytes)).c_str());
  std::string out = buf;
  if (kernel_s > 0) out += " (" + format_bytes(double(kernel_bytes) / kernel_s) + "/s)";
  return out;
}

Closure closure_propagate_device(const SccResult& scc, const CsrDag& dag, ocl::Runtime& rt,
                                 const DevicePropagationOptions& o, DevicePropagationStats* out,
                                 const PropagationPrep* prep) {
  const size_t C = scc.component_count();
  if (dag.offsets.size() != C + 1) throw InternalError("propagate: CSR size differs");
  if (C >= (size_t{1} << 32) - 64) throw ResourceError("propagate: more than 2^32 components");
  const auto& dev = rt.device();
  DevicePropagationStats stats;
  if (C == 0) {
    if (out) *out = stats;
    auto none = std::make_shared<DeviceRows>(rt, cl::Program(), 0, std::vector<DeviceSlice>{}, 0,
                                             dev.name + ", empty");
    return Closure::from_resident(scc.component_of, scc.cyclic, std::move(none));
  }
  // Only counted: the chained sweep stores just the rows read back, in reused slots.
  std::optional<PropagationPrep> made;
  if (!prep || !(prep->params == sweep_params(o, dev.max_work_group, prep->params.weighted != 0)))
    prep = &made.emplace(prepare_for(scc, dag, o, dev.max_work_group));
  const PropagateParams& params = prep->params;
  const bool live = params.live_rows != 0;
  trace("building kernels");
  PropagateKernels kernels(rt, params);
  trace("kernels built");
  // The condensation's CSR (and sizes) is all that crosses the bus on the way in.
  auto t0 = std::chrono::steady_clock::now();
  stats.csr_bytes = kernels.upload_csr(dag, prep->sizes);
  stats.upload_s = seconds_since(t0);
  trace("csr uploaded");

  auto t1 = std::chrono::steady_clock::now();
  stats.kernel = params.describe();
  stats.csr_bytes += kernels.upload_chained_blocks(prep->blocks, prep->live);
  const SlicePlan plan = plan_slices(C, kernels.slice_rows(), o, dev);
  stats.slices = plan.slices;
  stats.slice_words = plan.slice_words;
  stats.resident = plan.resident && !live;
  stats.live_rows = live ? kernels.slice_rows() : 0;
  BitMatrix host;
  const bool streamed_rows = !plan.resident && o.rows_needed;
  if (streamed_rows) host = BitMatrix(C, C, {}, WordOrder::kRowMajor);
  std::vector<DeviceSlice> slices;
  auto sweep = [&] {
    slices = sweep_all(rt, kernels, plan, kernels.slice_rows(), streamed_rows ? &host : nullptr,
                       stats.resident, stats);
  };
  auto count_bytes = [&] {
    stats.kernel_bytes = sweep_bytes(dag, plan.first_word, plan.first_word + plan.words,
                                     live ? &prep->live.slot : nullptr);
  };
  // The report's bytes are a pass over every edge: on a large condensation it runs beside
  // the sweep, which waits on the device (10M commits: 0.07 s of 2 cores before the kernel).
  if (C + dag.targets.size() >= kBytesBesideSweepFrom) {
    run_pair(count_bytes, sweep);
  } else {
    count_bytes();
    sweep();
  }
  trace("swept");
  const uint64_t cross = kernels.cross_pairs();
  trace("counted");
  stats.compute_s = seconds_since(t1) - stats.download_s;
  const std::string where = dev.name + ", " + stats.describe();
  if (out) *out = stats;
  std::shared_ptr<const ResidentReach> reach =
      stats.resident
          ? std::make_shared<DeviceRows>(rt, kernels.program(), C, std::move(slices), cross, where)
          : std::make_shared<DeviceRows>(C, std::move(host), o.rows_needed, cross, where);
  Closure result = Closure::from_resident(scc.component_of, scc.cyclic, std::move(reach));
  trace("result made");
  return result;  // the sweep's buffers are released on the way out
}

Closure closure_propagate_device(const Graph& g, ocl::Runtime& rt,
                                 const DevicePropagationOptions& o, DevicePropagationStats* stats) {
  const Condensation c = condense(g);
  return closure_propagate_device(c.scc, c.dag, rt, o, stats);
}

double device_copy_bandwidth(ocl::Runtime& rt, size_t bytes) {
  cl::Buffer a(rt.context(), CL_MEM_READ_WRITE, bytes), b(rt.context(), CL_MEM_READ_WRITE, bytes);
  rt.queue().enqueueFillBuffer(a, cl_uint{0x5a5a5a5a}, 0, bytes);
  rt.queue().enqueueFillBuffer(b, cl_uint{0}, 0, bytes);
  std::vector<double> times;
  for (int i = 0; i < 5; ++i) {
    cl::Event ev;
    rt.queue().enqueueCopyBuffer(a, b, 0, 0, bytes, nullptr, &ev);
    ev.wait();
    times.push_back(ocl::event_seconds(ev));
  }
  std::sort(times.begin(), times.end());
  return 2.0 * double(bytes) / times[times.size() / 2];
}

}  // namespace closure
