// The tensor-core Boolean product for NVIDIA devices (kernels/boolean_mma.cl): C |= A * B
// with the 1-bit MMA (AND + POPC) reached through inline PTX from OpenCL. Elsewhere, or
// when NVIDIA's compiler refuses it, available() is false and callers use BooleanKernels.
#pragma once

#include <CL/opencl.hpp>
#include <string>
#include <vector>

#include "closure/config.hpp"
#include "closure/kernels/boolean_kernels.hpp"
#include "closure/ocl/runtime.hpp"

namespace closure {

// The tile geometry of mma_mul: one table renders the build options, keys the program
// cache, parses and checks; the methods size the launch and local memory.
// member, kernel macro, default (= the kernel's #define), allowed, meaning
#define CLOSURE_MMA_PARAMS(X)                                                              \
  X(warp_m, "MMA_WM", 64, powers_of_two(16, 128), "rows of C per warp")                    \
  X(warp_n, "MMA_WN", 64, powers_of_two(32, 128), "columns of C per warp")                 \
  X(warps_m, "MMA_WARPS_M", 2, powers_of_two(1, 8), "warps of a work-group along rows")    \
  X(warps_n, "MMA_WARPS_N", 2, powers_of_two(1, 8), "warps of a work-group along columns") \
  X(k_steps, "MMA_KSTEPS", 2, powers_of_two(1, 4), "256-bit K blocks per local stage")     \
  X(group_m, "MMA_GROUP_M", 16, range(1, 64), "row blocks per raster group (L2 reuse)")    \
  X(stages, "MMA_STAGES", 0, one_of(0, 3, 4), "0: two stages through registers; 3, 4: cp.async")

struct MmaParams {
  CLOSURE_MMA_PARAMS(CLOSURE_PARAM_MEMBER)

  int block_rows() const { return warp_m * warps_m; }
  int block_cols() const { return warp_n * warps_n; }
  int threads() const { return 32 * warps_m * warps_n; }
  int ring() const { return stages > 0 ? stages : 2; }
  // The stages of A and B chunks (512 bytes each); the write-back reuses them.
  size_t local_bytes() const {
    return size_t(ring() * (block_rows() + block_cols()) / 16) * k_steps * 512;
  }
  std::string build_options(bool ptx) const;
  std::string to_string() const { return params_to_string(*this); }  // "warp_m=64,...,stages=0"
  // Throws std::invalid_argument, naming the limit, for values the kernel or device refuse.
  void validate(const ocl::DeviceInfo& device) const;
  bool operator==(const MmaParams&) const = default;
};

CLOSURE_PARAM_TABLE(MmaParams, "mma", "boolean_mma.cl", CLOSURE_MMA_PARAMS);

// Parses "warp_m=64,warps_n=2,..." (any key may be left out); throws on anything else.
inline MmaParams parse_mma_params(const std::string& text, MmaParams base = {}) {
  return parse_params(text, base);
}

inline constexpr const char* kMmaParamsEnv = config::kMmaParams;
// CLOSURE_MMA=off keeps the tensor cores out (available() false), e.g. to time the
// portable kernels inside a closure.
inline constexpr const char* kMmaSwitchEnv = config::kMma;
// The tuned geometry for this device (CLOSURE_MMA_PARAMS overrides).
MmaParams tuned_mma_params(const ocl::DeviceInfo& device);

// True for devices whose OpenCL compiler takes the 1-bit MMA's inline PTX (NVIDIA's).
bool mma_device_supported(const ocl::DeviceInfo& device);

// C |= A * B on tensor cores. A's rows are already packed along K and are reordered into
// the MMA fragment order (mma_pack); B's columns must be packed along K, so B is
// transposed and reordered in one pass (mma_pack_transposed); then mma_mul. The layout
// passes cost O(n^2); their scratch buffers are kept between calls.
class BooleanMma {
 public:
  enum class Mode {
    kAuto,     // NVIDIA devices only, with PTX; self-checked once against the host
    kEmulate,  // any device, the MMA computed in plain OpenCL C (tests of the layouts)
  };

  explicit BooleanMma(ocl::Runtime& runtime, Mode mode = Mode::kAuto);
  BooleanMma(ocl::Runtime& runtime, MmaParams params, Mode mode = Mode::kAuto);

  // Whether multiply_or may be called; when not, why (for reports).
  bool available() const { return available_; }
  const std::string& unavailable_reason() const { return reason_; }
  const MmaParams& params() const { return params_; }

  // C |= A * B over the Boolean semiring, any shapes that agree (A.cols == B.rows, C is
  // A.rows x B.cols) and any padding. `upper_triangular` promises both operands are
  // upper triangular (a DAG in topological order): blocks known to be zero are skipped.
  // Returns the product kernel's event; all work is enqueued on the runtime's queue.
  cl::Event multiply_or(DeviceBitMatrix& c, const DeviceBitMatrix& a, const DeviceBitMatrix& b,
                        bool upper_triangular = false);

  // T = X^T on the device (T: X.cols x X.rows, padded to 32 both ways at least).
  DeviceBitMatrix transpose(const DeviceBitMatrix& x);

  // Device seconds of the last multiply_or (profiling events; waits for them).
  struct Timing {
    double layout_s = 0;   // packing (and transposing B)
    double product_s = 0;  // mma_mul
  };
  Timing last_timing() const;

 private:
  void build(Mode mode);
  bool self_check();
  cl::Buffer& scratch(cl::Buffer& buffer, size_t& have, size_t bytes);

  ocl::Runtime& runtime_;
  MmaParams params_;
  bool available_ = false;
  std::string reason_;
  cl::Kernel transpose_, pack_, pack_t_, mul_;
  cl::Buffer pa_, pb_;
  size_t pa_bytes_ = 0, pb_bytes_ = 0;
  std::vector<cl::Event> layout_events_;
  cl::Event product_event_;
};

}  // namespace closure
