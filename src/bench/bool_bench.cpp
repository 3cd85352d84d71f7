// Boolean product benchmarks: inputs, timing with profiling events, host checks, the
// parameter sweeps and the repeated-squaring closures.
#include "bench/bool_bench.hpp"

#include <algorithm>
#include <bit>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <random>
#include <sstream>
#include <stdexcept>

#include "closure/algorithms/engine_algorithms.hpp"
#include "closure/engine/dense_driver.hpp"
#include "closure/engine/device_engine.hpp"
#include "closure/engine/square.hpp"
#include "closure/errors.hpp"
#include "closure/graph/input_error.hpp"
#include "closure/kernels/boolean_kernels.hpp"
#include "closure/kernels/tuning.hpp"

namespace closure {
namespace {

double cube(size_t n) {
  return double(n) * double(n) * double(n);
}

double median(std::vector<double> v) {
  std::sort(v.begin(), v.end());
  const size_t h = v.size() / 2;
  return v.size() % 2 ? v[h] : 0.5 * (v[h - 1] + v[h]);
}

// A random n x n matrix whose product with another like it is neither empty nor full:
// each row gets about p * (its free columns) bits with p^2 * n ~ ln 2, so about half of
// the product's bits are set and a wrong kernel cannot pass by printing all ones. Rows
// are drawn by positions, not bit by bit, so n = 65536 takes a moment, not minutes.
BitMatrix random_operand(size_t n, Padding padding, uint64_t seed, bool upper_strict) {
  BitMatrix m(n, n, padding);
  std::mt19937_64 rng(seed);
  const double p = std::sqrt((upper_strict ? 3.0 : 0.7) / double(std::max<size_t>(n, 1)));
  for (size_t r = 0; r < n; ++r) {
    const size_t first = upper_strict ? r + 1 : 0;
    if (first >= n) continue;
    const size_t free = n - first;
    std::binomial_distribution<size_t> count(free, std::min(1.0, p));
    std::uniform_int_distribution<size_t> col(first, n - 1);
    for (size_t i = count(rng); i > 0; --i) m.set(r, col(rng));
  }
  return m;
}

// Rows to recompute on the host for a sampled check: both ends and random ones between.
std::vector<size_t> sample_rows(size_t n, int count, uint64_t seed) {
  std::vector<size_t> rows = {0, n - 1, n / 2};
  std::mt19937_64 rng(seed);
  std::uniform_int_distribution<size_t> pick(0, n - 1);
  while (int(rows.size()) < count) rows.push_back(pick(rng));
  return rows;
}

// "exact" / "<k> rows" when `got` equals c0 | a*b (everywhere / on sampled rows).
// `full` caches the whole expected product across the kernels of one size.
std::string check_product(const BitMatrix& got, const BitMatrix& c0, const BitMatrix& a,
                          const BitMatrix& b, const BoolBenchOptions& o, BitMatrix& full) {
  if (!got.padding_is_zero()) return "MISMATCH (padding)";
  const size_t n = a.rows();
  if (n <= o.full_check_max_n) {
    if (full.rows() != n) {
      full = c0;
      host_multiply_or(full, a, b);
    }
    return got == full ? "exact" : "MISMATCH";
  }
  const auto rows = sample_rows(n, o.sampled_rows, o.seed + n);
  std::vector<word_t> expect(b.words_per_row());
  for (size_t i : rows) {
    for (size_t w = 0; w < expect.size(); ++w) expect[w] = c0.word(i, w);
    for (size_t kw = 0; kw < a.words_per_row(); ++kw) {
      const word_t bits = a.word(i, kw);
      for_each_set_bit(&bits, kw, 1, [&](size_t k) {
        for (size_t w = 0; w < expect.size(); ++w) expect[w] |= b.word(k, w);
      });
    }
    for (size_t w = 0; w < expect.size(); ++w)
      if (got.word(i, w) != expect[w]) return "MISMATCH (row " + std::to_string(i) + ")";
  }
  return std::to_string(rows.size()) + " rows";
}

size_t matrix_bytes(size_t n, const BooleanParams& p) {
  return DeviceBitMatrix::shaped(n, n, p.padding()).bytes();
}

// Whether `count` matrices of size n (plus the MMA's three scratch copies) fit.
bool fits(const ocl::DeviceInfo& d, size_t n, const BooleanParams& p, int count) {
  const double bytes = double(matrix_bytes(n, p));
  return bytes <= double(d.max_alloc_bytes) && count * bytes <= 0.85 * double(d.global_mem_bytes);
}

template <class Run>
double timed_median(ocl::Runtime& rt, int repeat, Run run) {
  run();  // warm-up: first launch, caches, clocks
  rt.queue().finish();
  std::vector<double> s;
  for (int i = 0; i < std::max(repeat, 1); ++i) s.push_back(run());
  return median(s);
}

BoolBenchRow note_row(size_t n, const std::string& kernel, const std::string& note) {
  BoolBenchRow r;
  r.n = n;
  r.kernel = kernel;
  r.check = "-";
  r.note = note;
  return r;
}

bool wants(const BoolBenchOptions& o, const std::string& k) {
  return std::find(o.kernels.begin(), o.kernels.end(), k) != o.kernels.end();
}

}  // namespace

BoolCeilings bool_ceilings(const ocl::DeviceInfo& device) {
  BoolCeilings c;
  if (device.name.find("H200") != std::string::npos) {  // the H200's figures (docs/benchmarks.md)
    c.cuda_core_mac_s = 5e14;
    c.mma_mac_s = 4.2e15;
    c.torch_square_s = {{8192, 1.65e-3}, {16384, 10.8e-3}, {32768, 88e-3}};
  }
  return c;
}

void read_torch_times(const std::string& path, BoolCeilings& c) {
  // A regular file of a few lines: a FIFO or /dev/zero would be read without end, and
  // nothing the baseline script writes comes near the bound.
  std::error_code ec;
  const auto status = std::filesystem::status(path, ec);
  if (ec || !std::filesystem::exists(status))
    throw InputError(path, 0, "cannot open the PyTorch times (--torch-times)");
  if (!std::filesystem::is_regular_file(status))
    throw InputError(path, 0, "is not a regular file of PyTorch times (--torch-times)");
  const auto bytes = std::filesystem::file_size(path, ec);
  if (ec || bytes > kMaxTorchTimesBytes)
    throw InputError(path, 0,
                     "is larger than " + format_bytes(double(kMaxTorchTimesBytes)) +
                         ": not a file of '<square|closure> n seconds' lines (--torch-times)");
  std::ifstream in(path);
  if (!in) throw InputError(path, 0, "cannot open the PyTorch times (--torch-times)");
  std::string line;
  for (size_t number = 1; std::getline(in, line); ++number) {
    std::istringstream fields(line);
    std::string kind;
    size_t n = 0;
    double seconds = 0;
    if (!(fields >> kind) || kind[0] == '#') continue;    // blank lines and comments
    if (kind != "square" && kind != "closure") continue;  // other kinds are not ours
    if (!(fields >> n >> seconds) || !(seconds > 0) || !std::isfinite(seconds))
      throw InputError(path, number, "expected '" + kind + " n seconds' with seconds > 0");
    (kind == "square" ? c.torch_square_s : c.torch_closure_s)[n] = seconds;
  }
}

namespace {

// Rates against the ceilings and PyTorch's time for a timed row; one place, so that every
// kind of row is rated alike.
void add_rates(BoolBenchRow& r, const BoolCeilings& c) {
  if (r.seconds <= 0) return;
  const bool tri = r.kernel.find("utri") != std::string::npos;
  r.mac_s = cube(r.n) / r.seconds;
  r.work_mac_s = (tri ? cube(r.n) / 6 : cube(r.n)) / r.seconds;
  r.ceiling_mac_s = r.kernel.rfind("mma", 0) == 0 ? c.mma_mac_s : c.cuda_core_mac_s;
  if (auto it = c.torch_square_s.find(r.n); it != c.torch_square_s.end()) r.torch_s = it->second;
}

using Emit = std::function<void(BoolBenchRow)>;

// One size's operands on the host (for the checks) and on the device: the full pair, the
// upper-triangular pair, or both, as the kernels asked for need.
struct SizeInputs {
  size_t n = 0;
  BitMatrix zero, a, b, ta, tb, expect, expect_tri;
  DeviceBitMatrix da, db, dta, dtb;
};

// Draws and uploads the operands that the kernels asked for need; nothing else is made.
void make_inputs(BooleanKernels& kernels, const BoolBenchOptions& o, bool need_full, bool need_tri,
                 SizeInputs& in) {
  const size_t n = in.n;
  const Padding padding = o.params.padding();
  in.zero = BitMatrix(n, n, padding);
  if (need_full) {
    in.a = random_operand(n, padding, o.seed + 2 * n, false);
    in.b = random_operand(n, padding, o.seed + 2 * n + 1, false);
    in.da = kernels.upload(in.a);
    in.db = kernels.upload(in.b);
  }
  if (need_tri) {
    in.ta = random_operand(n, padding, o.seed + 3 * n, true);
    in.tb = random_operand(n, padding, o.seed + 3 * n + 1, true);
    in.dta = kernels.upload(in.ta);
    in.dtb = kernels.upload(in.tb);
  }
}

// One product per kernel into a fresh zero C: repeated runs OR the same bits in,
// so the result after the timed runs is still C = A * B and is checked as such.
template <class Run>
BoolBenchRow measure(ocl::Runtime& rt, BooleanKernels& kernels, const BoolBenchOptions& o,
                     SizeInputs& in, const std::string& name, bool tri, Run&& run) {
  DeviceBitMatrix dc = kernels.upload(in.zero);
  BoolBenchRow r;
  r.n = in.n;
  r.kernel = name;
  r.seconds = timed_median(rt, o.repeat, [&] { return run(dc); });
  r.check = o.check ? check_product(kernels.download(dc), in.zero, tri ? in.ta : in.a,
                                    tri ? in.tb : in.b, o, tri ? in.expect_tri : in.expect)
                    : "-";
  return r;
}

// The MMA rows of one size: the product with its transpose and packing, then the kernel
// alone (a second row, as the layout passes are not part of mma_mul).
void bench_mma_size(ocl::Runtime& rt, BooleanKernels& kernels, BooleanMma& mma,
                    const BoolBenchOptions& o, SizeInputs& in, const Emit& emit) {
  for (bool tri : {false, true}) {
    if (!wants(o, tri ? "mma-utri" : "mma")) continue;
    std::vector<double> kernel_only;
    auto r = measure(rt, kernels, o, in, tri ? "mma-utri" : "mma", tri, [&](DeviceBitMatrix& dc) {
      mma.multiply_or(dc, tri ? in.dta : in.da, tri ? in.dtb : in.db, tri);
      const auto t = mma.last_timing();
      kernel_only.push_back(t.product_s);
      return t.layout_s + t.product_s;
    });
    r.params = o.mma_params.to_string();
    r.note = "incl. transpose+pack";
    emit(r);
    BoolBenchRow k = r;
    k.kernel += "-kernel";
    k.seconds = median(kernel_only);
    k.note = "mma_mul alone";
    emit(k);
  }
}

// Every kernel asked for at one size that fits the device.
void bench_size(ocl::Runtime& rt, BooleanKernels& kernels, std::optional<BooleanMma>& mma,
                const BoolBenchOptions& o, size_t n, const Emit& emit) {
  const bool need_full = wants(o, "cubic") || (mma && mma->available() && wants(o, "mma"));
  const bool need_tri = wants(o, "utri") || (mma && mma->available() && wants(o, "mma-utri"));
  SizeInputs in;
  in.n = n;
  make_inputs(kernels, o, need_full, need_tri, in);
  if (wants(o, "cubic")) {
    auto r = measure(rt, kernels, o, in, "cubic", false, [&](DeviceBitMatrix& dc) {
      cl::Event e = kernels.cubic_mul(dc, in.da, in.db);
      e.wait();
      return ocl::event_seconds(e);
    });
    r.params = o.params.to_string();
    emit(r);
  }
  if (wants(o, "utri")) {
    auto r = measure(rt, kernels, o, in, "utri", true, [&](DeviceBitMatrix& dc) {
      cl::Event e = kernels.utri_mul(dc, in.dta, in.dtb);
      e.wait();
      return ocl::event_seconds(e);
    });
    r.params = o.params.to_string();
    emit(r);
  }
  if (mma && mma->available()) bench_mma_size(rt, kernels, *mma, o, in, emit);
}

}  // namespace

std::vector<BoolBenchRow> bench_bool_products(ocl::Runtime& rt, const BoolBenchOptions& o,
                                              const BoolCeilings& c, const BoolRowSink& sink) {
  std::vector<BoolBenchRow> out;
  BooleanKernels kernels(rt, o.params);
  std::optional<BooleanMma> mma;
  if (wants(o, "mma") || wants(o, "mma-utri")) mma.emplace(rt, o.mma_params, o.mma_mode);
  const Emit emit = [&](BoolBenchRow r) {
    add_rates(r, c);
    sink(r);
    out.push_back(r);
  };
  if (mma && !mma->available())
    emit(note_row(0, "mma", "unavailable: " + mma->unavailable_reason()));
  for (size_t n : o.sizes) {
    if (!fits(rt.device(), n, o.params, mma && mma->available() ? 6 : 3)) {
      emit(note_row(n, "all", "skipped: does not fit device memory"));
      continue;
    }
    bench_size(rt, kernels, mma, o, n, emit);
  }
  return out;
}

namespace {

// False once a failed launch has taken the context down (NVIDIA then refuses every later
// call): the sweep stops there instead of reporting every remaining candidate as failed.
bool device_alive(ocl::Runtime& rt) {
  try {
    cl::Buffer probe(rt.context(), CL_MEM_READ_WRITE, 4);
    rt.queue().enqueueFillBuffer(probe, cl_int{0}, 0, 4);
    rt.queue().finish();
    return true;
  } catch (const std::exception&) {
    std::fprintf(stderr, "bench bool: the device context is lost; the sweep stops here\n");
    return false;
  }
}

// Times one candidate's product at size n and checks it against `expect`; seconds, or 0
// when the candidate cannot run (invalid, build failure) or is wrong.
double time_candidate(ocl::Runtime& rt, const BooleanParams& p, const BitMatrix& a,
                      const BitMatrix& expect, int repeat, std::string& check) {
  try {
    p.validate(rt.device());
    BooleanKernels k(rt, p);
    DeviceBitMatrix da = k.upload(a), dc = k.allocate(a.rows(), a.cols());
    const double s = timed_median(rt, repeat, [&] {
      cl::Event e = k.cubic_mul(dc, da, da);
      e.wait();
      return ocl::event_seconds(e);
    });
    check = k.download(dc) == expect ? "exact" : "MISMATCH";
    return check == "exact" ? s : 0;
  } catch (const std::exception& e) {
    check = std::string("skipped: ") + e.what();
    return 0;
  }
}

}  // namespace

BooleanParams sweep_cubic(ocl::Runtime& rt, size_t n, int repeat, const BoolRowSink& sink) {
  const BitMatrix a = random_operand(n, {}, 77, false);
  BitMatrix expect(n, n);
  host_multiply_or(expect, a, a);
  BooleanParams best = tuned_boolean_params(rt.device());
  double best_s = 0;
  auto consider = [&](const BooleanParams& p) {
    std::string check;
    const double s = time_candidate(rt, p, a, expect, repeat, check);
    BoolBenchRow r;
    r.n = n;
    r.kernel = "sweep-cubic";
    r.params = p.to_string();
    r.seconds = s;
    if (s > 0) r.mac_s = r.work_mac_s = cube(n) / s;
    r.check = s > 0 ? check : "-";
    if (s <= 0) r.note = check.substr(0, 120);
    sink(r);
    if (s > 0 && (best_s == 0 || s < best_s)) best_s = s, best = p;
    return s > 0 || device_alive(rt);
  };
  // Stage 1: the register tile (rows x words a work-item), the K loop's main lever.
  for (int m : {1, 2, 4, 8})
    for (int w : {2, 4, 8, 16})
      if (m * w >= 4 && m * w <= 64 && !consider({2, m, w, 4})) return best;
  // Stage 2: group shape and K chunk around the best register tile.
  const BooleanParams tile = best;
  for (int tn : {1, 2, 4})
    for (int tk : {1, 2, 4, 8, 16}) {
      const BooleanParams p{tn, tile.tile_m, tile.words_per_item(), tk};
      if (!(p == tile) && !consider(p)) return best;
    }
  return best;
}

namespace {

// One MMA candidate's row at size n, timed and checked against `expect`; its seconds are 0
// when it cannot run or is wrong. Apart from sweep_mma, which only orders the candidates.
BoolBenchRow time_mma_candidate(ocl::Runtime& rt, BooleanKernels& k, const MmaParams& p,
                                const DeviceBitMatrix& da, const BitMatrix& expect, int repeat) {
  const size_t n = expect.rows();
  BoolBenchRow r;
  r.n = n;
  r.kernel = "sweep-mma";
  r.params = p.to_string();
  try {
    p.validate(rt.device());
    BooleanMma mma(rt, p);
    if (!mma.available()) throw DeviceError(mma.unavailable_reason());
    DeviceBitMatrix dc = k.allocate(n, n);
    r.seconds = timed_median(rt, repeat, [&] {
      mma.multiply_or(dc, da, da);
      return mma.last_timing().product_s;
    });
    r.check = k.download(dc) == expect ? "exact" : "MISMATCH";
    if (r.check != "exact") r.seconds = 0;
  } catch (const std::exception& e) {
    r.check = "-";
    r.note = std::string("skipped: ") + std::string(e.what()).substr(0, 120);
  }
  if (r.seconds > 0) r.mac_s = r.work_mac_s = cube(n) / r.seconds;
  return r;
}

// The `count` fastest candidates timed so far, fastest first.
std::vector<MmaParams> fastest_mma(const std::vector<std::pair<double, MmaParams>>& timed,
                                   size_t count) {
  auto sorted = timed;
  std::sort(sorted.begin(), sorted.end(),
            [](const auto& x, const auto& y) { return x.first < y.first; });
  std::vector<MmaParams> out;
  for (size_t i = 0; i < std::min(count, sorted.size()); ++i) out.push_back(sorted[i].second);
  return out;
}

}  // namespace

std::optional<MmaParams> sweep_mma(ocl::Runtime& rt, size_t n, int repeat,
                                   const BoolRowSink& sink) {
  if (!mma_device_supported(rt.device())) return std::nullopt;
  const BooleanParams kp = tuned_boolean_params(rt.device());
  BooleanKernels k(rt, kp);
  const BitMatrix a = random_operand(n, kp.padding(), 78, false);
  BitMatrix expect(n, n, kp.padding());
  host_multiply_or(expect, a, a);
  const DeviceBitMatrix da = k.upload(a);
  std::vector<std::pair<double, MmaParams>> timed;  // every candidate that ran and was right
  // Times p; false once the device context is lost (the sweep must stop).
  auto consider = [&](const MmaParams& p) {
    const BoolBenchRow r = time_mma_candidate(rt, k, p, da, expect, repeat);
    if (r.seconds > 0) timed.push_back({r.seconds, p});
    sink(r);
    return r.seconds > 0 || device_alive(rt);
  };
  auto best = [&]() -> std::optional<MmaParams> {
    auto f = fastest_mma(timed, 1);
    return f.empty() ? std::nullopt : std::optional<MmaParams>(f.front());
  };
  // Stage 1: warp tile and warps per group. Stage 2: the K pipeline (two stages of 1 or 2
  // K blocks through registers, or cp.async rings) for the three fastest shapes, the
  // cp.async candidates last: a launch that fails ends the sweep. Stage 3: raster groups.
  const int shapes[][4] = {{64, 64, 4, 2}, {64, 64, 2, 2}, {64, 64, 2, 4},  {64, 64, 8, 1},
                           {32, 64, 4, 2}, {64, 32, 4, 2}, {128, 32, 2, 4}, {32, 128, 4, 2},
                           {32, 32, 4, 4}, {64, 32, 4, 4}, {64, 32, 8, 2},  {128, 32, 2, 2}};
  for (const auto& s : shapes)
    if (!consider({s[0], s[1], s[2], s[3], 1, 8, 0})) return best();
  const auto top = fastest_mma(timed, 3);
  for (bool async : {false, true})
    for (const MmaParams& shape : top)
      for (const auto& [ks, st] :
           {std::pair{2, 0}, std::pair{1, 3}, std::pair{1, 4}, std::pair{2, 3}}) {
        if ((st > 0) != async) continue;
        MmaParams p = shape;
        p.k_steps = ks;
        p.stages = st;
        if (!consider(p)) return best();
      }
  if (auto b = best())
    for (int gm : {4, 16}) {
      MmaParams p = *b;
      p.group_m = gm;
      if (!consider(p)) break;
    }
  return best();
}

namespace {

// A random DAG in topological order: `edges` uniform pairs u < v (duplicates collapse).
BitMatrix random_dag_matrix(size_t n, size_t edges, uint64_t seed) {
  BitMatrix m(n, n);
  std::mt19937_64 rng(seed);
  std::uniform_int_distribution<size_t> pick(0, n - 1);
  for (size_t e = 0; e < edges; ++e) {
    size_t u = pick(rng), v = pick(rng);
    if (u == v) continue;
    if (u > v) std::swap(u, v);
    m.set(u, v);
  }
  return m;
}

// The device engine with its products on this bench's tensor-core parameters (a sweep's
// winner, say) rather than the tuned defaults DeviceEngine would take. The closure
// algorithms are templates over the engine, so they run on it unchanged.
class MmaEngine : public DeviceEngine {
 public:
  MmaEngine(ocl::Runtime& rt, const BooleanParams& params, BooleanMma& mma)
      : DeviceEngine(rt, params, /*tensor_cores=*/false), mma_(mma) {}
  void multiply_or(Matrix& c, const Matrix& a, const Matrix& b, bool upper = false) {
    mma_.multiply_or(c, a, b, upper);
  }

 private:
  BooleanMma& mma_;
};

}  // namespace

std::vector<ClosureBenchRow> bench_bool_closures(
    ocl::Runtime& rt, const std::vector<size_t>& sizes, double degree, const BooleanParams& params,
    const MmaParams& mma_params, BooleanMma::Mode mma_mode, const BoolCeilings& c,
    const std::function<void(const ClosureBenchRow&)>& sink) {
  std::vector<ClosureBenchRow> out;
  BooleanMma mma(rt, mma_params, mma_mode);
  for (size_t n : sizes) {
    const double torch = c.torch_closure_s.count(n) ? c.torch_closure_s.at(n) : 0;
    // Checked before the host matrix is drawn: a size past the device is past the host too.
    if (!fits(rt.device(), n, params, mma.available() ? 6 : 3)) {
      ClosureBenchRow r;
      r.n = n;
      r.torch_s = torch;
      r.method = "all";
      r.check = "skipped: does not fit device memory";
      sink(r);
      out.push_back(r);
      continue;
    }
    const BitMatrix adjacency = random_dag_matrix(n, size_t(degree * double(n)), 1000 + n);
    auto emit = [&](ClosureBenchRow r) {
      r.n = n;
      r.edges = adjacency.popcount();
      r.torch_s = torch;
      sink(r);
      out.push_back(r);
    };
    // Every method must give the same closure; the first one computed is the reference.
    BitMatrix reference;
    auto record = [&](const std::string& method, const BitMatrix& r, const DenseStats& st) {
      std::string check = "reference";
      if (reference.rows() == 0)
        reference = r;
      else
        check = r == reference ? "same" : "MISMATCH";
      ClosureBenchRow row;
      row.method = method;
      row.rounds = st.rounds;
      row.compute_s = st.compute_s;
      row.closure_pairs = r.popcount();
      row.check = check;
      emit(row);
    };
    for (DenseAlgorithm alg : {DenseAlgorithm::kSquare, DenseAlgorithm::kRecursive}) {
      const std::string name = alg == DenseAlgorithm::kSquare ? "squaring" : "recursive";
      if (mma.available()) {
        MmaEngine e(rt, params, mma);
        DenseStats st;
        const BitMatrix r = dense_closure_on(e, adjacency, alg, true, kRecursiveBaseBits, st);
        record(name + ", mma", r, st);
      }
      DeviceEngine e(rt, params, /*tensor_cores=*/false);
      DenseStats st;
      const BitMatrix r = dense_closure_on(e, adjacency, alg, true, kRecursiveBaseBits, st);
      record(name + ", portable", r, st);
    }
  }
  return out;
}

}  // namespace closure
