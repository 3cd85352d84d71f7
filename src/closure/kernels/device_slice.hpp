// A column slice of the propagation's rows on the device, and its copy to the host.
#pragma once

#include <CL/opencl.hpp>
#include <cstddef>
#include <cstdint>

#include "closure/bitmatrix.hpp"

namespace closure {

// Word-columns [word_begin, word_begin + words) of every row, row-major in one
// allocation: components x words words.
struct DeviceSlice {
  cl::Buffer rows;
  uint32_t word_begin = 0, words = 0;

  bool holds_word(size_t w) const { return w >= word_begin && w < size_t(word_begin) + words; }
};

// Copies the slice's rows into its columns of `host`, whose word 0 is the matrix's word
// `first_word`. `host` may be unfilled (BitMatrix::unfilled): its pages are then first
// touched by the pool's threads, in parallel.
void download_slice(cl::Context& context, cl::CommandQueue& queue, const DeviceSlice& s,
                    size_t components, BitMatrix& host, size_t first_word = 0);

}  // namespace closure
