// SgemmTunedParams: the one parameter set of myGEMM_tuned (kernels/sgemm_tuned.cl). It
// renders the build options, keys the program cache, validates against the device,
// sizes the padding and the launch; and the per-device defaults and the sweep grid.
#pragma once

#include <CL/opencl.hpp>
#include <string>
#include <vector>

#include "closure/kernels/host_gemm.hpp"
#include "closure/ocl/device.hpp"

namespace closure {

struct SgemmTunedParams {
  int tsm = 128;  // TSM: rows of C per work-group
  int tsn = 128;  // TSN: columns of C per work-group
  int tsk = 16;   // TSK: depth of the local tiles of A and B
  int wptm = 8;   // WPTM: rows of C per work-item
  int wptn = 8;   // WPTN: columns of C per work-item
  int vwm = 4;    // VWM: vector width along M (A loads, C stores)
  int vwk = 4;    // VWK: vector width along K (B loads)
  int padb = 0;   // PADB: floats of padding per column of local B
  int prf = 0;    // PRF: 1 prefetches the next tiles into registers during the multiply

  int rtsm() const { return tsm / wptm; }  // work-items along dimension 0
  int rtsn() const { return tsn / wptn; }  // work-items along dimension 1
  size_t group_items() const { return size_t(rtsm()) * size_t(rtsn()); }
  // Alm (TSK x TSM) and Blm (TSN x (TSK + PADB)) floats.
  size_t local_bytes() const {
    return sizeof(float) * (size_t(tsk) * tsm + size_t(tsn) * (size_t(tsk) + padb));
  }
  std::string build_options() const;
  // "tsm=128,tsn=128,tsk=16,wptm=8,wptn=8,vwm=4,vwk=4,padb=0,prf=0"
  std::string to_string() const;

  // The shape the kernel runs on: m, n, k rounded up to TSM, TSN, TSK.
  GemmShape padded(GemmShape s) const;
  cl::NDRange local_size() const { return {size_t(rtsm()), size_t(rtsn())}; }
  // For a padded shape: one work-group per TSM x TSN tile of C.
  cl::NDRange global_size(GemmShape padded) const {
    return {padded.m / size_t(wptm), padded.n / size_t(wptn)};
  }

  // Throws std::invalid_argument, naming the limit, when the values are out of range or
  // inconsistent (divisibility, vector widths) or the device cannot run them (work-group
  // size, local memory).
  void validate(const ocl::DeviceInfo& device) const;
  bool operator==(const SgemmTunedParams&) const = default;
};

// The GPU default: the winner of the H200 sweep at n = 8192 (docs/benchmarks.md:
// 26.8 ms, 41.0 TFLOP/s, 81% of PyTorch's fp32 matmul with TF32 off; the previous
// 128 x 128 x 16, 8 x 8 default ran 37.6 ms). 64 x 128 tiles of C, TSK = 32, 256
// work-items of 4 x 8 results, float4 loads, B padded by 4 in local memory, the next
// tile prefetched into registers; 24 KiB of local memory.
inline constexpr SgemmTunedParams kSgemmTunedGpuDefault{64, 128, 32, 4, 8, 4, 4, 4, 1};
// The CPU (PoCL) default: 64 x 64 tiles, 64 work-items of 8 x 8 results. On PoCL's CPU
// device here it ran 53 GFLOPS at n = 1024, twice the GPU default's 25 and ahead of every
// other set of the sweep grid (docs/kernels.md).
inline constexpr SgemmTunedParams kSgemmTunedCpuDefault{64, 64, 16, 8, 8, 4, 4, 0, 0};
// Valid on any OpenCL device (64 work-items, 1.5 KiB local memory, scalar loads): the
// last resort when neither set above validates.
inline constexpr SgemmTunedParams kSgemmTunedMinimal{16, 16, 8, 2, 2, 1, 1, 0, 0};

// The default for a device: the GPU set on GPUs, else the CPU set, falling back to the
// next set when one does not validate on the device.
SgemmTunedParams sgemm_tuned_params_for(const ocl::DeviceInfo& device);

// A small grid around the GPU default for `closure bench gemm --sweep`: tile shapes,
// register blocks, TSK, padding and prefetch with float4, and each shape with float2. Every set
// validates on a device with 1024-item work-groups and 48 KiB of local memory (the H200's OpenCL
// limits); on others, the caller skips what does not validate.
std::vector<SgemmTunedParams> sgemm_tuned_sweep_grid();

// Parse "tsm=64,wptm=4" (any key may be left out; the rest come from base); throw
// std::invalid_argument on anything else.
SgemmTunedParams parse_sgemm_tuned_params(const std::string& text, SgemmTunedParams base);

}  // namespace closure
