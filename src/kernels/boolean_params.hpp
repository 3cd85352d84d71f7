// BooleanParams: the one parameter set of the Boolean product kernels. It renders the
// build options, keys the program cache and sizes the launch; nothing else repeats a tile.
#pragma once

#include <CL/opencl.hpp>
#include <string>

#include "bitmatrix.hpp"
#include "ocl/device.hpp"

namespace closure {

struct BooleanParams {
  int tile_n = 2;  // work-group is (32*tile_n) x tile_n work-items
  int tile_m = 2;  // words of C per work-item along each axis (TILE_M)

  int tile_words() const { return tile_n * tile_m; }     // tile_width in the kernel
  int tile_rows() const { return 32 * tile_n * tile_m; }  // tile_nrows (= tile bits)
  Padding padding() const { return {size_t(tile_rows()), size_t(tile_words())}; }
  size_t local_buffer_words() const { return size_t(34 * tile_words() + 1) * tile_words(); }
  cl::NDRange local_size() const { return {size_t(32 * tile_n), size_t(tile_n)}; }
  std::string build_options() const;
  std::string to_string() const;  // "tile_n=2,tile_m=2"

  // Throws std::invalid_argument, naming the limit, when the device cannot run these
  // parameters (work-group size, local memory) or they are out of range.
  void validate(const ocl::DeviceInfo& device) const;
  bool operator==(const BooleanParams&) const = default;
};

// Parses "tile_n=4,tile_m=2" (either key may be left out); throws on anything else.
BooleanParams parse_boolean_params(const std::string& text, BooleanParams base = {});

}  // namespace closure
