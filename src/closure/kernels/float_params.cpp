// Float kernel parameters: options, launch geometry, validation, parsing.
#include "closure/kernels/float_params.hpp"

#include <functional>
#include <sstream>
#include <stdexcept>

#include "closure/kernels/param_text.hpp"

namespace closure {
namespace {

size_t round_up_to(size_t x, size_t m) {
  return (std::max<size_t>(x, 1) + m - 1) / m * m;
}

}  // namespace

namespace float_params_detail {

void check_range(const std::string& what, const char* key, int value, int lo, int hi) {
  if (value < lo || value > hi)
    throw std::invalid_argument(what + ": " + key + "=" + std::to_string(value) +
                                " out of range (" + std::to_string(lo) + ".." + std::to_string(hi) +
                                ")");
}

void check_group(const std::string& what, const char* kernel, size_t items,
                 const ocl::DeviceInfo& device) {
  if (items > device.max_work_group)
    throw std::invalid_argument(what + ": " + kernel + " needs work-groups of " +
                                std::to_string(items) + " work-items; " + device.name + " allows " +
                                std::to_string(device.max_work_group));
}

void check_local(const std::string& what, const char* kernel, size_t bytes,
                 const ocl::DeviceInfo& device) {
  if (bytes > device.local_mem_bytes)
    throw std::invalid_argument(what + ": " + kernel + " needs " + std::to_string(bytes) +
                                " bytes of local memory; " + device.name + " has " +
                                std::to_string(device.local_mem_bytes));
}

void parse_pairs(const std::string& text, const char* keys,
                 const std::function<bool(const std::string&, int)>& set) {
  parse_key_values(text, keys, set);
}

}  // namespace float_params_detail

using namespace float_params_detail;

std::string FloatGemmParams::build_options() const {
  return "-cl-std=CL1.2 -DTS=" + std::to_string(ts) + " -DTILE_WIDTH=" + std::to_string(tile_width);
}

std::string FloatGemmParams::to_string() const {
  return "ts=" + std::to_string(ts) + ",tile_width=" + std::to_string(tile_width) +
         ",group=" + std::to_string(group);
}

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
  check_range(what, "ts", ts, 1, 64);
  check_range(what, "tile_width", tile_width, 1, 64);
  check_range(what, "group", group, 1, 64);
  check_group(what, "myGEMM2 (TS*TS)", size_t(ts) * ts, device);
  check_group(what, "MatrixMulKernel (TILE_WIDTH^2)", size_t(tile_width) * tile_width, device);
  check_group(what, "myAdd/myGEMM1/myGEMM1b (group^2)", size_t(group) * group, device);
  check_local(what, "myGEMM2", gemm2_local_bytes(), device);
  check_local(what, "MatrixMulKernel", tiled_local_bytes(), device);
}

std::string BookMmulParams::build_options() const {
  return "-cl-std=CL1.2 -DPRIVATE_K=" + std::to_string(private_k);
}

std::string BookMmulParams::to_string() const {
  return "row_group=" + std::to_string(row_group) + ",private_k=" + std::to_string(private_k);
}

cl::NDRange BookMmulParams::row_global(size_t m) const {
  return {round_up_to(m, row_group)};
}

void BookMmulParams::validate(const ocl::DeviceInfo& device) const {
  const std::string what = "book mmul parameters " + to_string();
  check_range(what, "row_group", row_group, 1, 1 << 16);
  // Awrk[PRIVATE_K] is private memory per work-item; beyond 16 KiB it only spills.
  check_range(what, "private_k", private_k, 1, 4096);
  check_group(what, "mmul_row*", size_t(row_group), device);
  check_local(what, "mmul_row_private_local (Bwrk)", local_bytes(), device);
}

FloatGemmParams parse_float_gemm_params(const std::string& text, FloatGemmParams base) {
  parse_pairs(text, "ts, tile_width, group", [&](const std::string& key, int value) {
    if (key == "ts")
      base.ts = value;
    else if (key == "tile_width")
      base.tile_width = value;
    else if (key == "group")
      base.group = value;
    else
      return false;
    return true;
  });
  return base;
}

BookMmulParams parse_book_mmul_params(const std::string& text, BookMmulParams base) {
  parse_pairs(text, "row_group, private_k", [&](const std::string& key, int value) {
    if (key == "row_group")
      base.row_group = value;
    else if (key == "private_k")
      base.private_k = value;
    else
      return false;
    return true;
  });
  return base;
}

}  // namespace closure
