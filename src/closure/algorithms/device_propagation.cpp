// Device propagation: upload the condensation's CSR, sweep each column slice with
// kernels/propagate.cl, count pairs there, and keep the rows there behind ResidentReach.
#include "closure/algorithms/device_propagation.hpp"

#include <algorithm>
#include <bit>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <mutex>
#include <stdexcept>

#include "closure/algorithms/compute.hpp"
#include "closure/config.hpp"
#include "closure/errors.hpp"
#include "closure/executor.hpp"
#include "closure/ocl/error.hpp"

namespace closure {
namespace {

constexpr const char* kKernelFile = "propagate.cl";
constexpr const char* kDefaultPropagateKernel = "chained";
// A download's staging chunk: two are pinned at once.
constexpr size_t kDownloadChunkBytes = size_t{64} << 20;

double seconds_since(std::chrono::steady_clock::time_point t0) {
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
}

struct Slice {
  cl::Buffer rows;  // components x words, row-major
  uint32_t word_begin = 0, words = 0;
};

// Rows of a slice are contiguous on the device; this copies them through two pinned
// staging buffers (CL_MEM_ALLOC_HOST_PTR, mapped once: the DMA engine reads at full bus
// speed only into pinned memory) into the slice's columns of `host` (whose word 0 is the
// matrix's word `first_word`), the pool's threads copying chunk k out of its staging
// buffer while chunk k+1 is on the bus. `host` may be unfilled (BitMatrix::unfilled):
// its pages are then first touched by those threads, in parallel.
void download_slice(cl::Context& context, cl::CommandQueue& queue, const Slice& s,
                    size_t components, BitMatrix& host, size_t first_word = 0) {
  const size_t to_word = s.word_begin - first_word;
  if (components == 0 || s.words == 0) return;
  const bool trace = config::is_set(config::kTraceDownload);
  auto t0 = std::chrono::steady_clock::now();
  const size_t row_bytes = size_t(s.words) * sizeof(word_t);
  const size_t chunk_rows =
      std::max<size_t>(1, std::min(components, kDownloadChunkBytes / row_bytes));
  const size_t chunk_bytes = chunk_rows * row_bytes;
  cl::Buffer staging[2];
  word_t* mapped[2];
  for (int i = 0; i < 2; ++i) {
    staging[i] = cl::Buffer(context, CL_MEM_ALLOC_HOST_PTR | CL_MEM_READ_WRITE, chunk_bytes);
    mapped[i] = static_cast<word_t*>(
        queue.enqueueMapBuffer(staging[i], CL_TRUE, CL_MAP_READ | CL_MAP_WRITE, 0, chunk_bytes));
  }
  const double staging_s = seconds_since(t0);
  double wait_s = 0, copy_s = 0;
  const size_t chunks = ceil_div(components, chunk_rows);
  if (trace) {
    // The bus alone: every chunk into the pinned staging buffers, nothing copied out, so the
    // trace can tell the transfer's speed from the host copy's.
    const auto tb = std::chrono::steady_clock::now();
    for (size_t k = 0; k < chunks; ++k) {
      const size_t r0 = k * chunk_rows, n = std::min(chunk_rows, components - r0);
      queue.enqueueReadBuffer(s.rows, CL_FALSE, r0 * row_bytes, n * row_bytes, mapped[k % 2]);
    }
    queue.finish();
    const double bus_s = seconds_since(tb);
    std::fprintf(stderr, "download: bus alone %.3f s for %.2f GB: %.1f GB/s\n", bus_s,
                 double(components) * double(row_bytes) / 1e9,
                 double(components) * double(row_bytes) / 1e9 / bus_s);
  }
  cl::Event pending[2];
  auto start = [&](size_t k) {
    const size_t r0 = k * chunk_rows, n = std::min(chunk_rows, components - r0);
    queue.enqueueReadBuffer(s.rows, CL_FALSE, r0 * row_bytes, n * row_bytes, mapped[k % 2], nullptr,
                            &pending[k % 2]);
  };
  start(0);
  for (size_t k = 0; k < chunks; ++k) {
    if (k + 1 < chunks) start(k + 1);
    auto tw = std::chrono::steady_clock::now();
    pending[k % 2].wait();
    auto tc = std::chrono::steady_clock::now();
    wait_s += std::chrono::duration<double>(tc - tw).count();
    const size_t r0 = k * chunk_rows, n = std::min(chunk_rows, components - r0);
    const word_t* src = mapped[k % 2];
    const bool whole_rows = to_word == 0 && s.words == host.words_padded();
    // Bands of about 1 MB: one core copies at about a fifth of the bus's speed.
    const size_t band = std::max<size_t>(1, (size_t{1} << 20) / row_bytes);
    parallel_chunks(n, band, [&](size_t a, size_t b) {
      if (whole_rows) {
        std::memcpy(host.row_ptr(r0 + a), src + a * s.words, (b - a) * row_bytes);
      } else {
        for (size_t r = a; r < b; ++r)
          std::memcpy(host.row_ptr(r0 + r) + to_word, src + r * s.words, row_bytes);
      }
    });
    copy_s += seconds_since(tc);
  }
  for (int i = 0; i < 2; ++i) queue.enqueueUnmapMemObject(staging[i], mapped[i]);
  queue.finish();
  if (trace)
    std::fprintf(stderr,
                 "download: %zu rows x %u words, %zu chunks: staging %.3f s, waits %.3f s, "
                 "copies %.3f s, total %.3f s\n",
                 components, s.words, chunks, staging_s, wait_s, copy_s, seconds_since(t0));
}

// The closure's rows on the device (or, streamed, on the host), as Closure sees them.
class DeviceRows final : public ResidentReach {
 public:
  // build_options: the sweep's, so query_pairs comes from the program already built.
  DeviceRows(ocl::Runtime& rt, const std::string& build_options, size_t components,
             std::vector<Slice> slices, uint64_t cross_pairs, std::string where)
      : context_(rt.context()),
        queue_(rt.queue()),
        program_(rt.program(kKernelFile, build_options)),
        components_(components),
        slices_(std::move(slices)),
        cross_pairs_(cross_pairs),
        where_(std::move(where)) {}
  // Streamed: the rows were copied to the host slice by slice (or, empty, not kept).
  DeviceRows(size_t components, BitMatrix host, bool kept, uint64_t cross_pairs, std::string where)
      : components_(components),
        cross_pairs_(cross_pairs),
        where_(std::move(where)),
        host_(std::move(host)),
        downloaded_(kept),
        counted_only_(!kept) {}

  size_t component_count() const override { return components_; }
  uint64_t cross_pairs() const override { return cross_pairs_; }
  std::string describe() const override { return where_; }
  size_t host_bytes() const override {
    std::lock_guard lock(mutex_);
    return downloaded_ ? host_.bytes() : 0;
  }

  bool reaches(vertex_t c, vertex_t d) const override {
    if (const BitMatrix* h = host_if_present()) return h->get(c, d);
    const Slice& s = slice_of(d);
    word_t w = 0;
    queue_.enqueueReadBuffer(s.rows, CL_TRUE,
                             (size_t(c) * s.words + (word_of(d) - s.word_begin)) * sizeof(word_t),
                             sizeof w, &w);
    return (w & bit_mask(d)) != 0;
  }

  void reaches_many(std::span<const std::pair<vertex_t, vertex_t>> pairs,
                    std::span<uint8_t> out) const override {
    if (const BitMatrix* h = host_if_present()) {
      for (size_t i = 0; i < pairs.size(); ++i) out[i] = h->get(pairs[i].first, pairs[i].second);
      return;
    }
    // One launch per slice over the pairs whose column lies in it.
    for (const Slice& s : slices_) {
      std::vector<uint32_t> flat;
      std::vector<size_t> where;
      for (size_t i = 0; i < pairs.size(); ++i) {
        const size_t w = word_of(pairs[i].second);
        if (w >= s.word_begin && w < size_t(s.word_begin) + s.words) {
          flat.push_back(pairs[i].first);
          flat.push_back(pairs[i].second);
          where.push_back(i);
        }
      }
      if (where.empty()) continue;
      cl::Buffer in(context_, CL_MEM_READ_ONLY | CL_MEM_COPY_HOST_PTR,
                    flat.size() * sizeof(uint32_t), flat.data());
      cl::Buffer answers(context_, CL_MEM_WRITE_ONLY, where.size());
      std::vector<uint8_t> got(where.size());
      {
        std::lock_guard lock(mutex_);  // one kernel object, its arguments set per launch
        if (!query_()) query_ = cl::Kernel(program_, "query_pairs");
        query_.setArg(0, s.rows);
        query_.setArg(1, cl_uint(s.word_begin));
        query_.setArg(2, cl_uint(s.words));
        query_.setArg(3, in);
        query_.setArg(4, cl_uint(where.size()));
        query_.setArg(5, answers);
        queue_.enqueueNDRangeKernel(query_, cl::NullRange, cl::NDRange(round_up(where.size(), 64)),
                                    cl::NDRange(64));
      }
      queue_.enqueueReadBuffer(answers, CL_TRUE, 0, got.size(), got.data());
      for (size_t k = 0; k < where.size(); ++k) out[where[k]] = got[k];
    }
  }

  BitMatrix host_columns(uint32_t word_begin, uint32_t word_end) const override {
    BitMatrix m(components_, bits_in_words(word_end - word_begin), {}, WordOrder::kRowMajor);
    if (const BitMatrix* h = host_if_present()) {
      for (size_t r = 0; r < components_; ++r)
        for (uint32_t w = word_begin; w < word_end && w < h->words_padded(); ++w)
          m.set_word(r, w - word_begin, h->word(r, w));
      return m;
    }
    std::lock_guard lock(mutex_);
    for (const Slice& s : slices_)
      if (s.word_begin >= word_begin && s.word_begin + s.words <= word_end)
        download_slice(context_, queue_, s, components_, m, word_begin);
      else if (s.word_begin < word_end && s.word_begin + s.words > word_begin)
        throw std::invalid_argument("host_columns: a range that cuts a device slice");
    return m;
  }

  const BitMatrix& host_rows() const override {
    std::lock_guard lock(mutex_);
    if (counted_only_)
      throw std::runtime_error(
          "the closure (" + where_ +
          ") was larger than the device and only counted; ask for its rows before computing it "
          "(an output or verification does)");
    if (!downloaded_) {
      // When the slices cover every word (one process), nothing needs zeroing first; a
      // rank's range leaves the other columns zero.
      size_t covered = 0;
      for (const Slice& s : slices_) covered += s.words;
      BitMatrix m = covered == words_for_bits(components_)
                        ? BitMatrix::unfilled(components_, components_, {}, WordOrder::kRowMajor)
                        : BitMatrix(components_, components_, {}, WordOrder::kRowMajor);
      for (const Slice& s : slices_) download_slice(context_, queue_, s, components_, m);
      host_ = std::move(m);
      downloaded_ = true;
    }
    return host_;
  }

 private:
  const BitMatrix* host_if_present() const {
    std::lock_guard lock(mutex_);
    if (counted_only_) throw std::runtime_error("the closure (" + where_ + ") was only counted");
    return downloaded_ ? &host_ : nullptr;
  }
  const Slice& slice_of(vertex_t d) const {
    const size_t w = word_of(d);
    for (const Slice& s : slices_)
      if (w >= s.word_begin && w < size_t(s.word_begin) + s.words) return s;
    throw std::out_of_range("DeviceRows: column out of range");
  }

  mutable cl::Context context_;
  mutable cl::CommandQueue queue_;
  cl::Program program_;
  size_t components_;
  std::vector<Slice> slices_;
  uint64_t cross_pairs_;
  std::string where_;
  mutable std::mutex mutex_;
  mutable cl::Kernel query_;
  mutable BitMatrix host_;
  mutable bool downloaded_ = false;
  bool counted_only_ = false;
};

}  // namespace

std::string PropagateKernel::describe() const {
  const char* base = sweep == kChained ? "chained" : sweep == kBlocked ? "blocked" : "plain";
  return base + (unit_bits == 32 ? std::string() : std::to_string(unit_bits));
}

ChainedBlocks chained_blocks(const CsrDag& dag) {
  constexpr size_t B = ChainedBlocks::kRows;
  const size_t C = dag.offsets.size() - 1;
  constexpr size_t P = ChainedBlocks::kFirst;
  ChainedBlocks out;
  out.masks.assign(C, 0);
  const size_t blocks = ceil_div(C, B);
  out.ext_offsets.assign(blocks + 1, 0);
  out.first.assign(blocks * P, {uint32_t(B), ChainedBlocks::kNone});
  std::vector<size_t> firsts(blocks, 0);
  for (size_t c = 0; c < C; ++c) {
    const size_t begin = c / B * B, end = std::min(begin + B, C), k = c / B;
    for (uint64_t e = dag.offsets[c]; e < dag.offsets[c + 1]; ++e) {
      const size_t d = dag.targets[e];
      if (d <= c || d >= C)
        throw std::invalid_argument("propagate: the condensation is not in topological order");
      const std::array<uint32_t, 2> item{uint32_t(c - begin), uint32_t(d)};
      if (d < end)
        out.masks[c] |= uint32_t{1} << (d - begin);
      else if (firsts[k] < P)
        out.first[k * P + firsts[k]++] = item;
      else
        out.ext_items.push_back(item);
    }
    out.ext_offsets[c / B + 1] = out.ext_items.size();
    // Two in-block successors besides c + 1: the block needs the kernel's general path.
    const uint32_t others = out.masks[c] & ~(c + 1 < end ? uint32_t{1} << (c + 1 - begin) : 0);
    if (std::popcount(others) >= 2) out.masks[begin] |= 1;
  }
  return out;
}

PropagateKernel resolve_propagate_kernel(const std::string& name, size_t max_work_group) {
  std::string n = name;
  if (n.empty()) {
    n = config::text(config::kPropagateKernel);
    if (n.empty()) n = kDefaultPropagateKernel;
  }
  PropagateKernel k;
  const size_t digits = n.find_first_of("0123456789");
  const std::string base = n.substr(0, digits);
  const std::string bits = digits == std::string::npos ? "32" : n.substr(digits);
  if ((base != "chained" && base != "blocked" && base != "plain") ||
      (bits != "32" && bits != "16" && bits != "8"))
    throw UsageError("propagate: unknown kernel '" + n +
                     "' (chained, blocked or plain, optionally followed by 16 or 8: "
                     "the columns a work-item owns)");
  k.sweep = base == "chained"   ? PropagateKernel::kChained
            : base == "blocked" ? PropagateKernel::kBlocked
                                : PropagateKernel::kPlain;
  // The chained and blocked sweeps run in work-groups of 32.
  if (max_work_group < 32) k.sweep = PropagateKernel::kPlain;
  k.unit_bits = unsigned(std::stoul(bits));
  return k;
}

std::string DevicePropagationStats::describe() const {
  char buf[256];
  std::snprintf(buf, sizeof buf, "%zu column slice%s of %zu words, %s; %s kernel %.3f s, %s moved",
                slices, slices == 1 ? "" : "s", slice_words,
                resident ? "resident on the device" : "streamed (larger than the device)",
                kernel.c_str(), kernel_s, format_bytes(double(kernel_bytes)).c_str());
  std::string out = buf;
  if (kernel_s > 0) out += " (" + format_bytes(double(kernel_bytes) / kernel_s) + "/s)";
  return out;
}

Closure closure_propagate_device(const SccResult& scc, const CsrDag& dag, ocl::Runtime& rt,
                                 const DevicePropagationOptions& o, DevicePropagationStats* out) {
  DevicePropagationStats stats;
  const size_t C = scc.component_count();
  if (dag.offsets.size() != C + 1) throw std::invalid_argument("propagate: CSR size differs");
  if (C >= (size_t{1} << 32) - 64)
    throw std::invalid_argument("propagate: more than 2^32 components");
  const size_t all_words = words_for_bits(C);
  // This call's word-columns: [first_word, first_word + W).
  const size_t first_word = std::min<size_t>(o.word_begin, all_words);
  const size_t last_word = o.word_end ? std::min<size_t>(o.word_end, all_words) : all_words;
  if (last_word < first_word) throw std::invalid_argument("propagate: empty word range");
  const size_t W = last_word - first_word;
  const auto& dev = rt.device();

  // Component sizes matter only where a component holds several vertices.
  std::vector<uint32_t> sizes(C, 0);
  for (vertex_t c : scc.component_of) ++sizes[c];
  const bool weighted = std::any_of(sizes.begin(), sizes.end(), [](uint32_t s) { return s > 1; });

  // Slices: each one allocation, all resident when the budget holds them.
  const size_t row_bytes = sizeof(word_t);
  size_t budget =
      o.device_budget_bytes ? o.device_budget_bytes : size_t(0.85 * double(dev.global_mem_bytes));
  size_t max_words = W;
  if (C > 0)
    max_words = std::min(max_words, std::max<size_t>(1, dev.max_alloc_bytes / (C * row_bytes)));
  const size_t forced = o.max_slice_words ? o.max_slice_words : config::count(config::kSliceWords);
  if (forced) max_words = std::min(max_words, forced);
  const uint64_t total_bytes = uint64_t(C) * W * row_bytes;
  const bool resident = total_bytes <= budget;
  if (!resident && C > 0)
    max_words = std::min(max_words, std::max<size_t>(1, budget / (C * row_bytes)));
  max_words = std::max<size_t>(max_words, 1);
  stats.slice_words = std::min(max_words, std::max<size_t>(W, 1));
  stats.slices = W ? ceil_div(W, max_words) : 0;
  stats.resident = resident;

  // The condensation's CSR (and sizes) is all that crosses the bus on the way in.
  auto t0 = std::chrono::steady_clock::now();
  cl::Context& ctx = rt.context();
  cl::CommandQueue& queue = rt.queue();
  std::vector<Slice> slices;
  uint64_t cross = 0;
  if (C > 0) {
    std::vector<cl_ulong> offsets(dag.offsets.begin(), dag.offsets.end());
    cl::Buffer offsets_buf(ctx, CL_MEM_READ_ONLY | CL_MEM_COPY_HOST_PTR,
                           offsets.size() * sizeof(cl_ulong), offsets.data());
    cl::Buffer targets_buf(ctx, CL_MEM_READ_ONLY,
                           std::max<size_t>(dag.targets.size(), 1) * sizeof(uint32_t));
    if (!dag.targets.empty())
      queue.enqueueWriteBuffer(targets_buf, CL_FALSE, 0, dag.targets.size() * sizeof(uint32_t),
                               dag.targets.data());
    cl::Buffer sizes_buf(ctx, CL_MEM_READ_ONLY, weighted ? C * sizeof(uint32_t) : 4);
    if (weighted)
      queue.enqueueWriteBuffer(sizes_buf, CL_FALSE, 0, C * sizeof(uint32_t), sizes.data());
    queue.finish();
    stats.csr_bytes = offsets.size() * 8 + dag.targets.size() * 4 + (weighted ? C * 4 : 0);
    stats.upload_s = seconds_since(t0);

    // Bytes the sweep moves: every word written once; a successor's word read unless it
    // is c+1 (kept in a register) or lies above the column's word (known zero).
    uint64_t read_words = 0;
    for (size_t c = 0; c < C; ++c)
      for (uint64_t e = dag.offsets[c]; e < dag.offsets[c + 1]; ++e) {
        const size_t d = dag.targets[e];
        if (d == c + 1) continue;
        const size_t first = word_of(d + 1);  // the first word holding a column above d
        read_words += last_word - std::clamp(first, first_word, last_word);
      }
    stats.kernel_bytes = (uint64_t(C) * W + read_words) * sizeof(word_t);

    auto t1 = std::chrono::steady_clock::now();
    const PropagateKernel kernel = resolve_propagate_kernel(o.kernel, dev.max_work_group);
    stats.kernel = kernel.describe();
    const char* entry = kernel.sweep == PropagateKernel::kChained   ? "propagate_columns_chained"
                        : kernel.sweep == PropagateKernel::kBlocked ? "propagate_columns_blocked"
                                                                    : "propagate_columns";
    // The chained sweep's split of the CSR (ChainedBlocks), uploaded once for every slice.
    cl::Buffer masks_buf, first_buf, ext_offsets_buf, ext_items_buf;
    if (kernel.sweep == PropagateKernel::kChained) {
      const ChainedBlocks blocks = chained_blocks(dag);
      auto upload = [&](const void* data, size_t bytes) {
        cl::Buffer b(ctx, CL_MEM_READ_ONLY, std::max<size_t>(bytes, 8));
        if (bytes) queue.enqueueWriteBuffer(b, CL_FALSE, 0, bytes, data);
        return b;
      };
      masks_buf = upload(blocks.masks.data(), blocks.masks.size() * sizeof(uint32_t));
      first_buf = upload(blocks.first.data(), blocks.first.size() * sizeof(blocks.first[0]));
      ext_offsets_buf =
          upload(blocks.ext_offsets.data(), blocks.ext_offsets.size() * sizeof(uint64_t));
      ext_items_buf =
          upload(blocks.ext_items.data(), blocks.ext_items.size() * sizeof(blocks.ext_items[0]));
      queue.finish();
      stats.csr_bytes += blocks.masks.size() * 4 + blocks.first.size() * 8 +
                         blocks.ext_offsets.size() * 8 + blocks.ext_items.size() * 8;
    }
    std::string build_options = "-DUNIT_BITS=" + std::to_string(kernel.unit_bits) +
                                " -DWEIGHTED=" + (weighted ? "1" : "0") +
                                " -DCHAIN_PREFETCH=" + std::to_string(ChainedBlocks::kFirst);
    // Timing experiments only: kernels/propagate.cl's DIAG_* switches.
    if (const std::string extra = config::text(config::kPropagateOptions); !extra.empty())
      build_options += " " + extra;
    const uint32_t units_per_word = 32 / kernel.unit_bits;
    const size_t local = dev.max_work_group >= 32 ? 32 : 1;
    BitMatrix host;
    if (!resident && o.rows_needed) host = BitMatrix(C, C, {}, WordOrder::kRowMajor);
    cl_ulong first_start = ~cl_ulong{0}, last_end = 0;
    auto note_event = [&](const cl::Event& e) {
      first_start = std::min(first_start, e.getProfilingInfo<CL_PROFILING_COMMAND_START>());
      last_end = std::max(last_end, e.getProfilingInfo<CL_PROFILING_COMMAND_END>());
    };
    const size_t group = std::min<size_t>(256, std::max<size_t>(1, dev.max_work_group));
    size_t pow2 = 1;
    while (pow2 * 2 <= group) pow2 *= 2;
    // Resident slices go up to kSlicesPerLaunch to a launch (the kernels' SLICE_ARGS): one
    // slice does not fill the GPU, and launches on separate queues ran one after another
    // on the H200. Streamed slices go one at a time, each freed after its download.
    constexpr size_t kSlicesPerLaunch = 4;
    const size_t per_launch = resident ? kSlicesPerLaunch : 1;
    cl::Buffer total(ctx, CL_MEM_READ_WRITE, sizeof(cl_ulong));
    queue.enqueueFillBuffer(total, cl_ulong{0}, 0, sizeof(cl_ulong));
    for (size_t k0 = 0; k0 < stats.slices; k0 += per_launch) {
      const size_t count = std::min(per_launch, stats.slices - k0);
      std::vector<Slice> launch(count);
      for (size_t i = 0; i < count; ++i) {
        Slice& s = launch[i];
        s.word_begin = uint32_t(first_word + (k0 + i) * max_words);
        s.words = uint32_t(std::min(max_words, W - (k0 + i) * max_words));
        s.rows = cl::Buffer(ctx, CL_MEM_READ_WRITE, C * s.words * row_bytes);
      }
      const size_t full_units = size_t(launch[0].words) * units_per_word;
      const size_t last_units = size_t(launch.back().words) * units_per_word;
      const size_t groups_per_slice = ceil_div(full_units, local);
      cl::Buffer partial(ctx, CL_MEM_READ_WRITE, count * full_units * sizeof(cl_ulong));
      queue.enqueueFillBuffer(partial, cl_ulong{0}, 0, count * full_units * sizeof(cl_ulong));
      cl::Kernel sweep = rt.kernel(kKernelFile, build_options, entry);
      cl_uint arg = 0;
      if (kernel.sweep == PropagateKernel::kChained) {
        sweep.setArg(arg++, masks_buf);
        sweep.setArg(arg++, first_buf);
        sweep.setArg(arg++, ext_offsets_buf);
        sweep.setArg(arg++, ext_items_buf);
      } else {
        sweep.setArg(arg++, offsets_buf);
        sweep.setArg(arg++, targets_buf);
      }
      for (size_t i = 0; i < kSlicesPerLaunch; ++i)  // unused pointers repeat the first
        sweep.setArg(arg++, launch[i < count ? i : 0].rows);
      sweep.setArg(arg++, cl_uint(C));
      sweep.setArg(arg++, cl_uint(launch[0].word_begin * units_per_word));
      sweep.setArg(arg++, cl_uint(full_units));
      sweep.setArg(arg++, cl_uint(count));
      sweep.setArg(arg++, cl_uint(last_units));
      sweep.setArg(arg++, sizes_buf);
      sweep.setArg(arg++, partial);
      cl::Event ev;
      queue.enqueueNDRangeKernel(sweep, cl::NullRange,
                                 cl::NDRange(count * groups_per_slice * local), cl::NDRange(local),
                                 nullptr, &ev);
      // From the sweep's program: another set of options would compile the file again.
      cl::Kernel sum = rt.kernel(kKernelFile, build_options, "sum_counts");
      sum.setArg(0, partial);
      sum.setArg(1, cl_uint(count * full_units));
      sum.setArg(2, total);
      sum.setArg(3, cl::Local(pow2 * sizeof(cl_ulong)));
      queue.enqueueNDRangeKernel(sum, cl::NullRange, cl::NDRange(pow2), cl::NDRange(pow2));
      ev.wait();
      note_event(ev);
      for (Slice& s : launch) {
        if (resident) {
          slices.push_back(std::move(s));
        } else if (o.rows_needed) {
          // Streamed: keep this slice's rows on the host, then free it.
          auto td = std::chrono::steady_clock::now();
          download_slice(ctx, queue, s, C, host);
          stats.download_s += seconds_since(td);
        }
      }
    }
    queue.enqueueReadBuffer(total, CL_TRUE, 0, sizeof cross, &cross);
    if (last_end > first_start) stats.kernel_s = double(last_end - first_start) * 1e-9;
    stats.compute_s = seconds_since(t1) - stats.download_s;
    std::string where = dev.name + ", " + stats.describe();
    if (out) *out = stats;
    std::shared_ptr<const ResidentReach> reach =
        resident
            ? std::make_shared<DeviceRows>(rt, build_options, C, std::move(slices), cross, where)
            : std::make_shared<DeviceRows>(C, std::move(host), o.rows_needed, cross, where);
    return Closure::from_resident(scc.component_of, scc.cyclic, std::move(reach));
  }
  if (out) *out = stats;
  return Closure::from_resident(
      scc.component_of, scc.cyclic,
      std::make_shared<DeviceRows>(rt, "", 0, std::vector<Slice>{}, 0, dev.name + ", empty"));
}

Closure closure_propagate_device(const Graph& g, ocl::Runtime& rt,
                                 const DevicePropagationOptions& o, DevicePropagationStats* stats) {
  SccResult scc = strongly_connected_components(g);
  const CsrDag dag = condensation_csr(g, scc);
  return closure_propagate_device(scc, dag, rt, o, stats);
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
