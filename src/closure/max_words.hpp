// The chain count's hot loops (algorithms/chain_count.hpp): an element-wise maximum and a
// sum over runs of 32-bit counts, with AVX2 where the CPU has it (as or_words.hpp).
#pragma once

#include <cstddef>
#include <cstdint>

namespace closure {

// dst[i] = max(dst[i], src[i]) for i < n; the two runs must not overlap.
void max_words(uint32_t* __restrict dst, const uint32_t* __restrict src, size_t n);
// src[0] + ... + src[n - 1], without overflow.
uint64_t sum_words(const uint32_t* src, size_t n);
// max_words(dst, src, n), returning the sum of dst[0, n) after it: a row's last maximum and
// its sum in one pass.
uint64_t max_words_and_sum(uint32_t* __restrict dst, const uint32_t* __restrict src, size_t n);

}  // namespace closure
