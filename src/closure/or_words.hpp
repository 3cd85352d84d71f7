// dst |= src over word runs: the propagations' hot loop, with AVX2 where the CPU has it.
#pragma once

#include <cstddef>

#include "closure/bitmatrix.hpp"

namespace closure {

// dst[i] |= src[i] for i < n; the two runs must not overlap.
void or_words(word_t* __restrict dst, const word_t* __restrict src, size_t n);

}  // namespace closure
