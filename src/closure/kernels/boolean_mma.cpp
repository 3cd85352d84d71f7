// Host side of the tensor-core Boolean product: parameters, the vendor guard with its
// silent fallback, the layout passes and the launch of mma_mul.
#include "closure/kernels/boolean_mma.hpp"

#include <algorithm>
#include <cstdlib>
#include <sstream>
#include <stdexcept>
#include <string_view>

#include "closure/config.hpp"
#include "closure/errors.hpp"
#include "closure/kernels/param_text.hpp"
#include "closure/ocl/error.hpp"
#include "closure/ocl/verdict_cache.hpp"

namespace closure {

static constexpr const char* kMmaFile = "boolean_mma.cl";
static constexpr int kWarpLanes = 32;  // work-items of a warp: one accumulator each per 32 results

std::string MmaParams::build_options(bool ptx) const {
  return "-cl-std=CL1.2" + params_defines(*this) + (ptx ? " -DMMA_PTX=1" : "");
}

void MmaParams::validate(const ocl::DeviceInfo& device) const {
  const std::string what = "MMA parameters " + to_string();
  check_param_ranges(*this, what);
  // Accumulators are one register each; past 128 a warp tile spills.
  if (warp_m * warp_n / kWarpLanes > 128)
    throw UsageError(what + " need " + std::to_string(warp_m * warp_n / kWarpLanes) +
                     " accumulator registers per work-item (at most 128)");
  // The write-back gathers the block's words in the stages' local memory.
  if (block_cols() > 512 * k_steps)
    throw UsageError(what + ": a block's columns exceed 512 * k_steps");
  if (size_t(threads()) > device.max_work_group)
    throw DeviceError(what + " need work-groups of " + std::to_string(threads()) + " work-items; " +
                      device.name + " allows " + std::to_string(device.max_work_group));
  if (local_bytes() > device.local_mem_bytes)
    throw DeviceError(what + " need " + std::to_string(local_bytes()) + " bytes of local memory; " +
                      device.name + " has " + std::to_string(device.local_mem_bytes));
}

bool mma_device_supported(const ocl::DeviceInfo& device) {
  // NVIDIA's own OpenCL platform (not PoCL's CUDA back end, whose vendor string is the
  // same): only its compiler is known to pass inline PTX through to ptxas.
  return device.is_gpu && device.vendor.find("NVIDIA") != std::string::npos &&
         device.platform.find("NVIDIA") != std::string::npos;
}

BooleanMma::BooleanMma(ocl::Runtime& runtime, Mode mode)
    : BooleanMma(runtime, tuned_mma_params(runtime.device()), mode) {}

BooleanMma::BooleanMma(ocl::Runtime& runtime, MmaParams params, Mode mode)
    : runtime_(runtime), params_(params) {
  build(mode);
}

void BooleanMma::build(Mode mode) {
  const bool ptx = mode == Mode::kAuto;
  if (ptx && !mma_device_supported(runtime_.device())) {
    reason_ = "not an NVIDIA OpenCL device";
    return;
  }
  if (ptx && config::text(kMmaSwitchEnv) == "off") {
    reason_ = std::string("switched off by ") + kMmaSwitchEnv + "=off";
    return;
  }
  try {
    params_.validate(runtime_.device());
    const std::string options = params_.build_options(ptx);
    transpose_ = runtime_.kernel(kMmaFile, options, "bit_transpose");
    pack_ = runtime_.kernel(kMmaFile, options, "mma_pack");
    pack_t_ = runtime_.kernel(kMmaFile, options, "mma_pack_transposed");
    mul_ = runtime_.kernel(kMmaFile, options, "mma_mul");
  } catch (const std::exception& e) {
    // The portable kernels serve instead; the reason is kept for `closure bench bool`.
    reason_ = std::string("MMA kernels did not build: ") + e.what();
    return;
  }
  available_ = true;
  // Once per device, driver and parameter set (with the program cache, in memory and on
  // disk), not once per engine: the check costs a few products and their layouts.
  if (ptx && !ocl::cached_verdict(runtime_, kMmaFile, params_.build_options(ptx), "mma-self-check",
                                  [&] { return self_check(); })) {
    available_ = false;
    reason_ = "MMA self-check against the host product failed";
  }
}

// Small products of awkward shape against the naive host reference, in both modes the
// engines use (any shapes; upper-triangular square operands, whose zero blocks are
// skipped), with this parameter set (so the cp.async ring too when stages > 0): a driver
// or layout surprise can only cost speed, never a wrong closure.
bool BooleanMma::self_check() {
  auto to_device = [&](const BitMatrix& m) {
    DeviceBitMatrix d = DeviceBitMatrix::like(m);
    d.buffer = cl::Buffer(runtime_.context(), CL_MEM_READ_WRITE | CL_MEM_COPY_HOST_PTR, m.bytes(),
                          const_cast<word_t*>(m.data()));
    return d;
  };
  auto product_is_right = [&](const BitMatrix& a, const BitMatrix& b, BitMatrix c, bool upper) {
    DeviceBitMatrix da = to_device(a), db = to_device(b), dc = to_device(c);
    multiply_or(dc, da, db, upper);
    naive_multiply_or(c, a, b);
    BitMatrix got(c.rows(), c.cols());
    runtime_.queue().enqueueReadBuffer(dc.buffer, CL_TRUE, 0, got.bytes(), got.data());
    return got == c && got.padding_is_zero();
  };
  try {
    const size_t n = 2 * size_t(std::max(params_.block_rows(), params_.block_cols())) + 77;
    return product_is_right(BitMatrix::random(200, 700, 0.01, 1),
                            BitMatrix::random(700, 333, 0.01, 2),
                            BitMatrix::random(200, 333, 0.001, 3), false) &&
           product_is_right(BitMatrix::random(n, n, 0.02, 4, {}, true),
                            BitMatrix::random(n, n, 0.02, 5, {}, true),
                            BitMatrix::random(n, n, 0.001, 6, {}, true), true);
  } catch (const std::exception&) {
    return false;
  }
}

cl::Buffer& BooleanMma::scratch(cl::Buffer& buffer, size_t& have, size_t bytes) {
  if (bytes > have) {
    buffer = cl::Buffer(runtime_.context(), CL_MEM_READ_WRITE, bytes);
    have = bytes;
  }
  return buffer;
}

DeviceBitMatrix BooleanMma::transpose(const DeviceBitMatrix& x) {
  if (!available_) throw InternalError("BooleanMma::transpose: " + reason_);
  DeviceBitMatrix t = x.transposed_shape();
  ocl::checked("transposing a device matrix", [&] {
    t.buffer = cl::Buffer(runtime_.context(), CL_MEM_READ_WRITE, t.bytes());
    transpose_.setArg(0, t.buffer);
    transpose_.setArg(1, x.buffer);
    transpose_.setArg(2, cl_int(x.rows_padded));
    transpose_.setArg(3, cl_int(x.words_padded));
    transpose_.setArg(4, cl_int(t.rows_padded));
    runtime_.queue().enqueueNDRangeKernel(
        transpose_, cl::NullRange, cl::NDRange(t.rows_padded, t.words_padded), cl::NDRange(32, 1));
    return 0;
  });
  return t;
}

cl::Event BooleanMma::multiply_or(DeviceBitMatrix& c, const DeviceBitMatrix& a,
                                  const DeviceBitMatrix& b, bool upper_triangular) {
  if (!available_) throw InternalError("BooleanMma::multiply_or: " + reason_);
  if (a.cols != b.rows || c.rows != a.rows || c.cols != b.cols)
    throw InternalError("BooleanMma::multiply_or: operand shapes do not agree");
  if (upper_triangular && (a.rows != a.cols || b.rows != b.cols))
    throw InternalError("BooleanMma::multiply_or: triangular operands must be square");
  const size_t bm = params_.block_rows(), bn = params_.block_cols();
  const size_t a_rowblocks = round_up(a.rows_padded, bm) / 16;
  // B^T has B.cols rows (padded to B's words) and B.rows_padded bits of K.
  const size_t b_rowblocks = round_up(b.padded_cols(), bn) / 16;
  const size_t k_words = std::max(a.words_padded, words_for_bits(b.rows_padded));
  const size_t kblocks = round_up(ceil_div(k_words, 8), size_t(params_.k_steps));
  const size_t pa_words = kblocks * a_rowblocks * 128, pb_words = kblocks * b_rowblocks * 128;

  return ocl::checked("running the MMA Boolean product", [&] {
    auto& q = runtime_.queue();
    layout_events_.clear();
    cl::Buffer& pa = scratch(pa_, pa_bytes_, pa_words * sizeof(word_t));
    cl::Buffer& pb = scratch(pb_, pb_bytes_, pb_words * sizeof(word_t));
    auto pack = [&](cl::Kernel& k, cl::Buffer& p, const DeviceBitMatrix& x, size_t rowblocks,
                    size_t group, size_t groups) {
      k.setArg(0, p);
      k.setArg(1, x.buffer);
      k.setArg(2, cl_int(x.rows_padded));
      k.setArg(3, cl_int(x.words_padded));
      k.setArg(4, cl_int(rowblocks));
      cl::Event e;
      q.enqueueNDRangeKernel(k, cl::NullRange, cl::NDRange(group * groups, kblocks),
                             cl::NDRange(group, 1), nullptr, &e);
      layout_events_.push_back(e);
    };
    pack(pack_, pa, a, a_rowblocks, 128, a_rowblocks);
    pack(pack_t_, pb, b, b_rowblocks, 256, b_rowblocks / 2);

    const size_t blocks = (a_rowblocks * 16 / bm) * (b_rowblocks * 16 / bn);
    mul_.setArg(0, c.buffer);
    mul_.setArg(1, pa);
    mul_.setArg(2, pb);
    mul_.setArg(3, cl_int(c.rows_padded));
    mul_.setArg(4, cl_int(c.words_padded));
    mul_.setArg(5, cl_int(a_rowblocks));
    mul_.setArg(6, cl_int(b_rowblocks));
    mul_.setArg(7, cl_int(kblocks));
    mul_.setArg(8, cl_int(upper_triangular ? 1 : 0));
    q.enqueueNDRangeKernel(mul_, cl::NullRange, cl::NDRange(blocks * params_.threads()),
                           cl::NDRange(params_.threads()), nullptr, &product_event_);
    return product_event_;
  });
}

BooleanMma::Timing BooleanMma::last_timing() const {
  Timing t;
  for (const auto& e : layout_events_) {
    e.wait();
    t.layout_s += ocl::event_seconds(e);
  }
  if (product_event_()) {
    product_event_.wait();
    t.product_s = ocl::event_seconds(product_event_);
  }
  return t;
}

}  // namespace closure
