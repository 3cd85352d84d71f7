// FloatGemmParams and BookMmulParams: the one parameter set of each float kernel family.
// Each renders its build options, keys the program cache and sizes its launches.
#pragma once

#include <CL/opencl.hpp>
#include <string>

#include "closure/kernels/param_table.hpp"
#include "closure/ocl/device.hpp"

namespace closure {

// kernels/float_gemm.cl: myAdd, myGEMM1, myGEMM1b, myGEMM2 and MatrixMulKernel.
// member, kernel macro ("" = launch only), default (= the kernel's #define), allowed, meaning
#define CLOSURE_FLOAT_GEMM_PARAMS(X)                                                 \
  X(ts, "TS", 16, range(1, 64), "myGEMM2's work-groups and local tiles are TS x TS") \
  X(tile_width, "TILE_WIDTH", 16, range(1, 64), "the same for MatrixMulKernel")      \
  X(group, "", 16, range(1, 64), "myAdd/myGEMM1/myGEMM1b work-groups are group x group")

struct FloatGemmParams {
  CLOSURE_FLOAT_GEMM_PARAMS(CLOSURE_PARAM_MEMBER)

  std::string build_options() const { return "-cl-std=CL1.2" + params_defines(*this); }
  std::string to_string() const { return params_to_string(*this); }  // "ts=16,...,group=16"
  // Local memory of one work-group: two tiles of floats.
  size_t gemm2_local_bytes() const { return 2 * sizeof(float) * size_t(ts) * ts; }
  size_t tiled_local_bytes() const { return 2 * sizeof(float) * size_t(tile_width) * tile_width; }

  // Launch geometry for an M x N result (column-major family: dimension 0 walks rows;
  // myGEMM1b and MatrixMulKernel walk columns along dimension 0). Ranges are rounded up to
  // whole work-groups; the kernels guard the edges.
  cl::NDRange simple_local() const { return {size_t(group), size_t(group)}; }
  cl::NDRange simple_global(size_t dim0, size_t dim1) const;
  cl::NDRange gemm2_local() const { return {size_t(ts), size_t(ts)}; }
  cl::NDRange gemm2_global(size_t m, size_t n) const;
  cl::NDRange tiled_local() const { return {size_t(tile_width), size_t(tile_width)}; }
  cl::NDRange tiled_global(size_t m, size_t n) const;  // (columns, rows)

  // Throws std::invalid_argument, naming the limit, when the device cannot run these
  // parameters (work-group size, local memory) or they are out of range.
  void validate(const ocl::DeviceInfo& device) const;
  bool operator==(const FloatGemmParams&) const = default;
};

// kernels/book_mmul.cl: mmul_element, mmul_row, mmul_row_private, mmul_row_private_local.
// Awrk[PRIVATE_K] is private memory per work-item; beyond 16 KiB it only spills.
#define CLOSURE_BOOK_MMUL_PARAMS(X)                                                   \
  X(row_group, "", 250, range(1, 1 << 16), "work-items per group of the row kernels") \
  X(private_k, "PRIVATE_K", 1024, range(1, 4096), "floats of A's row / B's column a chunk")

struct BookMmulParams {
  CLOSURE_BOOK_MMUL_PARAMS(CLOSURE_PARAM_MEMBER)

  std::string build_options() const { return "-cl-std=CL1.2" + params_defines(*this); }
  std::string to_string() const { return params_to_string(*this); }         // "row_group=250,..."
  size_t local_bytes() const { return sizeof(float) * size_t(private_k); }  // Bwrk

  // mmul_element: the exact M x N range with the local size left to the implementation,
  // as in the book (the kernel guards its range itself).
  cl::NDRange element_global(size_t m, size_t n) const { return {m, n}; }
  cl::NDRange row_local() const { return {size_t(row_group)}; }
  cl::NDRange row_global(size_t m) const;

  void validate(const ocl::DeviceInfo& device) const;
  bool operator==(const BookMmulParams&) const = default;
};

CLOSURE_PARAM_TABLE(FloatGemmParams, "float_gemm", "float_gemm.cl", CLOSURE_FLOAT_GEMM_PARAMS);

CLOSURE_PARAM_TABLE(BookMmulParams, "book_mmul", "book_mmul.cl", CLOSURE_BOOK_MMUL_PARAMS);

// Parse "ts=8,tile_width=32" / "row_group=64,private_k=512" (keys may be left out);
// throw UsageError on anything else.
inline FloatGemmParams parse_float_gemm_params(const std::string& text, FloatGemmParams base = {}) {
  return parse_params(text, base);
}
inline BookMmulParams parse_book_mmul_params(const std::string& text, BookMmulParams base = {}) {
  return parse_params(text, base);
}

// Shared by the float parameter sets (here and sgemm_tuned_params.*), so that every one
// words its refusals alike. Each throws std::invalid_argument naming the limit.
namespace float_params_detail {
void check_group(const std::string& what, const char* kernel, size_t items,
                 const ocl::DeviceInfo& device);
void check_local(const std::string& what, const char* kernel, size_t bytes,
                 const ocl::DeviceInfo& device);
}  // namespace float_params_detail

}  // namespace closure
