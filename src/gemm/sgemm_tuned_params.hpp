// SgemmTunedParams: the one parameter set of myGEMM_tuned (kernels/sgemm_tuned.cl). It
// renders the build options, keys the program cache, validates against the device,
// sizes the padding and the launch; and the per-device defaults and the sweep grid.
#pragma once

#include <CL/opencl.hpp>
#include <string>
#include <vector>

#include "closure/kernels/param_table.hpp"
#include "closure/ocl/device.hpp"
#include "gemm/host_gemm.hpp"

namespace closure {

// member, kernel macro, default (= the kernel's #define), allowed, meaning
#define CLOSURE_SGEMM_TUNED_PARAMS(X)                                                   \
  X(tsm, "TSM", 128, range(1, 256), "rows of C per work-group")                         \
  X(tsn, "TSN", 128, range(1, 256), "columns of C per work-group")                      \
  X(tsk, "TSK", 16, range(1, 64), "depth of the local tiles of A and B")                \
  X(wptm, "WPTM", 8, range(1, 16), "rows of C per work-item")                           \
  X(wptn, "WPTN", 8, range(1, 16), "columns of C per work-item")                        \
  X(vwm, "VWM", 4, range(1, 8), "vector width along M (A loads, C stores): 1, 2, 4, 8") \
  X(vwk, "VWK", 4, range(1, 8), "vector width along K (B loads): 1, 2, 4, 8")           \
  X(padb, "PADB", 0, range(0, 32), "floats of padding per column of local B")           \
  X(prf, "PRF", 0, range(0, 1), "1 prefetches the next tiles into registers")

struct SgemmTunedParams {
  CLOSURE_SGEMM_TUNED_PARAMS(CLOSURE_PARAM_MEMBER)

  int rtsm() const { return tsm / wptm; }  // work-items along dimension 0
  int rtsn() const { return tsn / wptn; }  // work-items along dimension 1
  size_t group_items() const { return size_t(rtsm()) * size_t(rtsn()); }
  // Alm (TSK x TSM) and Blm (TSN x (TSK + PADB)) floats.
  size_t local_bytes() const {
    return sizeof(float) * (size_t(tsk) * tsm + size_t(tsn) * (size_t(tsk) + padb));
  }
  std::string build_options() const { return "-cl-std=CL1.2" + params_defines(*this); }
  // "tsm=128,tsn=128,tsk=16,wptm=8,wptn=8,vwm=4,vwk=4,padb=0,prf=0"
  std::string to_string() const { return params_to_string(*this); }

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

CLOSURE_PARAM_TABLE(SgemmTunedParams, "sgemm", "sgemm_tuned.cl", CLOSURE_SGEMM_TUNED_PARAMS);

// The tuning database's built-in rows for GPUs and CPUs (gemm/gemm_tables.cpp says why
// each), parsed on first use: not at every process's start, where a run that never
// multiplies a float would pay for parsing the whole table.
const SgemmTunedParams& sgemm_tuned_gpu_default();
const SgemmTunedParams& sgemm_tuned_cpu_default();
// Valid on any OpenCL device (64 work-items, 1.5 KiB local memory, scalar loads): the
// last resort when no row of the database validates on a device.
inline constexpr SgemmTunedParams kSgemmTunedMinimal{16, 16, 8, 2, 2, 1, 1, 0, 0};

// The tuned set for a device from the tuning database (device, vendor, type, default; the
// first row that validates on the device), else kSgemmTunedMinimal.
SgemmTunedParams sgemm_tuned_params_for(const ocl::DeviceInfo& device);

// A small grid around the GPU default for `closure bench gemm --sweep`: tile shapes,
// register blocks, TSK, padding and prefetch with float4, and each shape with float2. Every set
// validates on a device with 1024-item work-groups and 48 KiB of local memory (the H200's OpenCL
// limits); on others, the caller skips what does not validate.
std::vector<SgemmTunedParams> sgemm_tuned_sweep_grid();

// Parse "tsm=64,wptm=4" (any key may be left out; the rest come from base); throw
// std::invalid_argument on anything else.
inline SgemmTunedParams parse_sgemm_tuned_params(const std::string& text, SgemmTunedParams base) {
  return parse_params(text, base);
}

}  // namespace closure
