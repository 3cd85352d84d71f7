// BooleanParams: the one parameter set of the portable Boolean product kernels
// (kernels/boolean_mul.cl). Its table renders the build options, keys the program cache,
// parses and checks; the methods below size the launch, the padding and local memory.
#pragma once

#include <CL/opencl.hpp>
#include <string>

#include "closure/bitmatrix.hpp"
#include "closure/kernels/param_table.hpp"
#include "closure/ocl/device.hpp"

namespace closure {

// member, kernel macro, default (= the kernel's #define), allowed, meaning
#define CLOSURE_BOOLEAN_PARAMS(X)                                                         \
  X(tile_n, "tile_n", 2, range(1, 32), "work-group is (32*tile_n) x tile_n work-items")   \
  X(tile_m, "TILE_M", 2, range(1, 16), "rows of C per work-item")                         \
  X(tile_w, "TILE_W", 0, range(0, 16), "words of C per work-item along a row; 0: tile_m") \
  X(tile_k, "TILE_K", 0, range(0, 64), "words of K per local-memory tile; 0: tile_n * tile_m")

struct BooleanParams {
  CLOSURE_BOOLEAN_PARAMS(CLOSURE_PARAM_MEMBER)

  int words_per_item() const { return tile_w > 0 ? tile_w : tile_m; }
  int k_words() const { return tile_k > 0 ? tile_k : tile_n * tile_m; }
  int group_words() const { return tile_n * words_per_item(); }  // tile_width
  // The padding quantum: matrices are padded to tile_rows() rows and tile_words() words
  // (tile_rows() = 32 * tile_words(), so a square matrix stays square in bits, and every
  // kernel tile, row group and K chunk divides it). Block algorithms cut on this grid.
  int tile_words() const;
  int tile_rows() const { return int(bits_in_words(size_t(tile_words()))); }
  Padding padding() const { return {size_t(tile_rows()), size_t(tile_words())}; }
  // The kernel's own local arrays (A tile with buffer_address's padding, B tile with its
  // row stride), for the refusal before compiling; the kernel declares them itself.
  size_t local_bytes() const;
  cl::NDRange local_size() const { return {size_t(32 * tile_n), size_t(tile_n)}; }
  std::string build_options() const;
  std::string to_string() const { return params_to_string(*this); }  // "tile_n=2,...,tile_k=4"

  // Throws std::invalid_argument, naming the limit, when the device cannot run these
  // parameters (work-group size, local memory) or they are out of range.
  void validate(const ocl::DeviceInfo& device) const;
  // The same parameters with the derived defaults written out (for comparisons).
  BooleanParams resolved() const { return {tile_n, tile_m, words_per_item(), k_words()}; }
  bool operator==(const BooleanParams& o) const { return params_equal(*this, o); }
};

CLOSURE_PARAM_TABLE(BooleanParams, "boolean", "boolean_mul.cl", CLOSURE_BOOLEAN_PARAMS);

// Parses "tile_n=4,tile_m=2,tile_w=8,tile_k=4" (any key may be left out); throws on
// anything else.
inline BooleanParams parse_boolean_params(const std::string& text, BooleanParams base = {}) {
  return parse_params(text, base);
}

}  // namespace closure
