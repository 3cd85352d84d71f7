// Float kernel parameters: options, launch geometry, validation, parsing.
#include "gemm/float_params.hpp"

#include <stdexcept>

#include "closure/errors.hpp"

namespace closure {
namespace {

size_t round_up_to(size_t x, size_t m) {
  return (std::max<size_t>(x, 1) + m - 1) / m * m;
}

}  // namespace

namespace float_params_detail {

void check_group(const std::string& what, const char* kernel, size_t items,
                 const ocl::DeviceInfo& device) {
  if (items > device.max_work_group)
    throw DeviceError(what + ": " + kernel + " needs work-groups of " + std::to_string(items) +
                      " work-items; " + device.name + " allows " +
                      std::to_string(device.max_work_group));
}

void check_local(const std::string& what, const char* kernel, size_t bytes,
                 const ocl::DeviceInfo& device) {
  if (bytes > device.local_mem_bytes)
    throw DeviceError(what + ": " + kernel + " needs " + std::to_string(bytes) +
                      " bytes of local memory; " + device.name + " has " +
                      std::to_string(device.local_mem_bytes));
}

}  // namespace float_params_detail

using namespace float_params_detail;

cl::NDRange FloatGemmParams::simple_global(size_t dim0, size_t dim1) const {
  return {round_up_to(dim0, group), round_up_to(dim1, group)};
}

cl::NDRange FloatGemmParams::gemm2_global(size_t m, size_t n) const {
  return {round_up_to(m, ts), round_up_to(n, ts)};
}

cl::NDRange FloatGemmParams::tiled_global(size_t m, size_t n) const {
  return {round_up_to(n, tile_width), round_up_to(m, tile_width)};
}

void FloatGemmParams::validate(const ocl::DeviceInfo& device) const {
  const std::string what = "float GEMM parameters " + to_string();
  check_param_ranges(*this, what);
  check_group(what, "myGEMM2 (TS*TS)", size_t(ts) * ts, device);
  check_group(what, "MatrixMulKernel (TILE_WIDTH^2)", size_t(tile_width) * tile_width, device);
  check_group(what, "myAdd/myGEMM1/myGEMM1b (group^2)", size_t(group) * group, device);
  check_local(what, "myGEMM2", gemm2_local_bytes(), device);
  check_local(what, "MatrixMulKernel", tiled_local_bytes(), device);
}

cl::NDRange BookMmulParams::row_global(size_t m) const {
  return {round_up_to(m, row_group)};
}

void BookMmulParams::validate(const ocl::DeviceInfo& device) const {
  const std::string what = "book mmul parameters " + to_string();
  check_param_ranges(*this, what);
  check_group(what, "mmul_row*", size_t(row_group), device);
  check_local(what, "mmul_row_private_local (Bwrk)", local_bytes(), device);
}

}  // namespace closure
