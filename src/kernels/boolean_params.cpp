// Boolean kernel parameters: options, validation, parsing.
#include "kernels/boolean_params.hpp"

#include <sstream>
#include <stdexcept>

namespace closure {

std::string BooleanParams::build_options() const {
  return "-cl-std=CL1.2 -Dtile_n=" + std::to_string(tile_n) + " -DTILE_M=" + std::to_string(tile_m);
}

std::string BooleanParams::to_string() const {
  return "tile_n=" + std::to_string(tile_n) + ",tile_m=" + std::to_string(tile_m);
}

void BooleanParams::validate(const ocl::DeviceInfo& device) const {
  if (tile_n < 1 || tile_n > 32 || tile_m < 1 || tile_m > 8)
    throw std::invalid_argument("Boolean kernel parameters " + to_string() +
                                " out of range (tile_n 1..32, tile_m 1..8)");
  const size_t group = size_t(32 * tile_n) * tile_n;
  if (group > device.max_work_group)
    throw std::invalid_argument("Boolean kernel parameters " + to_string() + " need work-groups of " +
                                std::to_string(group) + " work-items; " + device.name +
                                " allows " + std::to_string(device.max_work_group));
  const size_t local = 2 * local_buffer_words() * sizeof(word_t);
  if (local > device.local_mem_bytes)
    throw std::invalid_argument("Boolean kernel parameters " + to_string() + " need " +
                                std::to_string(local) + " bytes of local memory; " +
                                device.name + " has " + std::to_string(device.local_mem_bytes));
}

BooleanParams parse_boolean_params(const std::string& text, BooleanParams base) {
  std::stringstream in(text);
  std::string item;
  while (std::getline(in, item, ',')) {
    const auto eq = item.find('=');
    if (eq == std::string::npos) throw std::invalid_argument("expected key=value, got '" + item + "'");
    const std::string key = item.substr(0, eq);
    int value = 0;
    try {
      value = std::stoi(item.substr(eq + 1));
    } catch (const std::exception&) {
      throw std::invalid_argument("not a number in '" + item + "'");
    }
    if (key == "tile_n") base.tile_n = value;
    else if (key == "tile_m") base.tile_m = value;
    else throw std::invalid_argument("unknown Boolean kernel parameter '" + key + "' (tile_n, tile_m)");
  }
  return base;
}

}  // namespace closure
