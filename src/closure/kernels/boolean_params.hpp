// BooleanParams: the one parameter set of the Boolean product kernels. It renders the
// build options, keys the program cache and sizes the launch; nothing else repeats a tile.
#pragma once

#include <CL/opencl.hpp>
#include <string>

#include "closure/bitmatrix.hpp"
#include "closure/ocl/device.hpp"

namespace closure {

struct BooleanParams {
  int tile_n = 2;  // work-group is (32*tile_n) x tile_n work-items
  int tile_m = 2;  // rows of C per work-item (TILE_M)
  int tile_w = 0;  // words of C per work-item along a row (TILE_W); 0: tile_m
  int tile_k = 0;  // words of K per local-memory tile (TILE_K); 0: tile_n * tile_m

  int words_per_item() const { return tile_w > 0 ? tile_w : tile_m; }
  int k_words() const { return tile_k > 0 ? tile_k : tile_n * tile_m; }
  int group_rows() const { return 32 * tile_n * tile_m; }        // tile_nrows
  int group_words() const { return tile_n * words_per_item(); }  // tile_width
  // The padding quantum: matrices are padded to tile_rows() rows and tile_words() words
  // (tile_rows() = 32 * tile_words(), so a square matrix stays square in bits, and every
  // kernel tile, row group and K chunk divides it). Block algorithms cut on this grid.
  int tile_words() const;
  int tile_rows() const { return 32 * tile_words(); }
  Padding padding() const { return {size_t(tile_rows()), size_t(tile_words())}; }
  size_t a_buffer_words() const;  // local A tile, with buffer_address's padding
  size_t b_buffer_words() const;  // local B tile
  size_t local_bytes() const { return (a_buffer_words() + b_buffer_words()) * sizeof(word_t); }
  cl::NDRange local_size() const { return {size_t(32 * tile_n), size_t(tile_n)}; }
  std::string build_options() const;
  std::string to_string() const;  // "tile_n=2,tile_m=2,tile_w=2,tile_k=4"

  // Throws std::invalid_argument, naming the limit, when the device cannot run these
  // parameters (work-group size, local memory) or they are out of range.
  void validate(const ocl::DeviceInfo& device) const;
  // The same parameters with the derived defaults written out (for comparisons).
  BooleanParams resolved() const { return {tile_n, tile_m, words_per_item(), k_words()}; }
  bool operator==(const BooleanParams& o) const {
    const BooleanParams a = resolved(), b = o.resolved();
    return a.tile_n == b.tile_n && a.tile_m == b.tile_m && a.tile_w == b.tile_w &&
           a.tile_k == b.tile_k;
  }
};

// Parses "tile_n=4,tile_m=2,tile_w=8,tile_k=4" (any key may be left out); throws on
// anything else.
BooleanParams parse_boolean_params(const std::string& text, BooleanParams base = {});

}  // namespace closure
