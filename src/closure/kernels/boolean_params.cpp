// Boolean kernel parameters: options, validation, parsing.
#include "closure/kernels/boolean_params.hpp"

#include <numeric>
#include <sstream>
#include <stdexcept>

#include "closure/kernels/param_text.hpp"

namespace closure {

int BooleanParams::tile_words() const {
  return std::lcm(std::lcm(tile_n * tile_m, group_words()), k_words());
}

size_t BooleanParams::a_buffer_words() const {
  return size_t(34 * tile_n * tile_m + 1) * size_t(k_words());  // col_stride * TILE_K
}

size_t BooleanParams::b_buffer_words() const {
  // 32*TILE_K * b_stride, and 4 words the kernel may skip to align its vector loads
  return size_t(32 * k_words()) * size_t(group_words() + 4) + 4;
}

std::string BooleanParams::build_options() const {
  return "-cl-std=CL1.2 -Dtile_n=" + std::to_string(tile_n) +
         " -DTILE_M=" + std::to_string(tile_m) + " -DTILE_W=" + std::to_string(words_per_item()) +
         " -DTILE_K=" + std::to_string(k_words());
}

std::string BooleanParams::to_string() const {
  return "tile_n=" + std::to_string(tile_n) + ",tile_m=" + std::to_string(tile_m) +
         ",tile_w=" + std::to_string(words_per_item()) + ",tile_k=" + std::to_string(k_words());
}

void BooleanParams::validate(const ocl::DeviceInfo& device) const {
  if (tile_n < 1 || tile_n > 32 || tile_m < 1 || tile_m > 16 || tile_w < 0 || tile_w > 16 ||
      tile_k < 0 || tile_k > 64)
    throw std::invalid_argument("Boolean kernel parameters " + to_string() +
                                " out of range (tile_n 1..32, tile_m 1..16, tile_w 1..16, "
                                "tile_k 1..64)");
  // More accumulators than this spill to memory on every device we know: refuse early.
  if (tile_m * words_per_item() > 64)
    throw std::invalid_argument("Boolean kernel parameters " + to_string() + " need " +
                                std::to_string(tile_m * words_per_item()) +
                                " accumulator words per work-item (at most 64)");
  const size_t group = size_t(32 * tile_n) * tile_n;
  if (group > device.max_work_group)
    throw std::invalid_argument("Boolean kernel parameters " + to_string() +
                                " need work-groups of " + std::to_string(group) + " work-items; " +
                                device.name + " allows " + std::to_string(device.max_work_group));
  if (local_bytes() > device.local_mem_bytes)
    throw std::invalid_argument("Boolean kernel parameters " + to_string() + " need " +
                                std::to_string(local_bytes()) + " bytes of local memory; " +
                                device.name + " has " + std::to_string(device.local_mem_bytes));
}

BooleanParams parse_boolean_params(const std::string& text, BooleanParams base) {
  parse_key_values(text, "tile_n, tile_m, tile_w, tile_k", [&](const std::string& key, int value) {
    int* field = key == "tile_n"   ? &base.tile_n
                 : key == "tile_m" ? &base.tile_m
                 : key == "tile_w" ? &base.tile_w
                 : key == "tile_k" ? &base.tile_k
                                   : nullptr;
    if (field) *field = value;
    return field != nullptr;
  });
  return base;
}

}  // namespace closure
