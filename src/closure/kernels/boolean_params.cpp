// Boolean kernel parameters: padding quantum, local memory, validation.
#include "closure/kernels/boolean_params.hpp"

#include <numeric>
#include <stdexcept>

namespace closure {

int BooleanParams::tile_words() const {
  return std::lcm(std::lcm(tile_n * tile_m, group_words()), k_words());
}

size_t BooleanParams::local_bytes() const {
  // boolean_mul.cl: A_buf[col_stride * TILE_K], col_stride = 34 * tile_n * TILE_M + 1;
  // B_buf[32 * TILE_K * b_stride], b_stride = tile_width + 4.
  const size_t a_words = size_t(34 * tile_n * tile_m + 1) * size_t(k_words());
  const size_t b_words = bits_in_words(size_t(k_words())) * size_t(group_words() + 4);
  return (a_words + b_words) * sizeof(word_t);
}

std::string BooleanParams::build_options() const {
  return "-cl-std=CL1.2" + params_defines(*this);
}

void BooleanParams::validate(const ocl::DeviceInfo& device) const {
  check_param_ranges(*this, "Boolean kernel parameters " + to_string());
  // More accumulators than this spill to memory on every device we know: refuse early.
  if (tile_m * words_per_item() > 64)
    throw UsageError("Boolean kernel parameters " + to_string() + " need " +
                     std::to_string(tile_m * words_per_item()) +
                     " accumulator words per work-item (at most 64)");
  const size_t group = size_t(32 * tile_n) * tile_n;
  if (group > device.max_work_group)
    throw DeviceError("Boolean kernel parameters " + to_string() + " need work-groups of " +
                      std::to_string(group) + " work-items; " + device.name + " allows " +
                      std::to_string(device.max_work_group));
  if (local_bytes() > device.local_mem_bytes)
    throw DeviceError("Boolean kernel parameters " + to_string() + " need " +
                      std::to_string(local_bytes()) + " bytes of local memory; " + device.name +
                      " has " + std::to_string(device.local_mem_bytes));
}

}  // namespace closure
