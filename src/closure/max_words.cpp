// Free functions with restrict pointers and local counts, so gcc vectorises them, and an
// AVX2 copy picked once where the CPU has it (as or_words.cpp; SSE2 has no unsigned 32-bit
// maximum, so the plain copy stays scalar there).
#include "closure/max_words.hpp"

#include <algorithm>

#include "closure/cpu_features.hpp"

namespace closure {
namespace {

[[gnu::always_inline]] inline void max_body(uint32_t* __restrict dst,
                                            const uint32_t* __restrict src, size_t n) {
  for (size_t i = 0; i < n; ++i) dst[i] = std::max(dst[i], src[i]);
}
[[gnu::always_inline]] inline uint64_t sum_body(const uint32_t* src, size_t n) {
  uint64_t s = 0;
  for (size_t i = 0; i < n; ++i) s += src[i];
  return s;
}
[[gnu::always_inline]] inline uint64_t max_sum_body(uint32_t* __restrict dst,
                                                    const uint32_t* __restrict src, size_t n) {
  uint64_t s = 0;
  for (size_t i = 0; i < n; ++i) {
    dst[i] = std::max(dst[i], src[i]);
    s += dst[i];
  }
  return s;
}
void max_plain(uint32_t* __restrict dst, const uint32_t* __restrict src, size_t n) {
  max_body(dst, src, n);
}
uint64_t sum_plain(const uint32_t* src, size_t n) {
  return sum_body(src, n);
}
uint64_t max_sum_plain(uint32_t* __restrict dst, const uint32_t* __restrict src, size_t n) {
  return max_sum_body(dst, src, n);
}
#if defined(__x86_64__) && defined(__GNUC__)
[[gnu::target("avx2")]] void max_avx2(uint32_t* __restrict dst, const uint32_t* __restrict src,
                                      size_t n) {
  max_body(dst, src, n);
}
[[gnu::target("avx2")]] uint64_t sum_avx2(const uint32_t* src, size_t n) {
  return sum_body(src, n);
}
[[gnu::target("avx2")]] uint64_t max_sum_avx2(uint32_t* __restrict dst,
                                              const uint32_t* __restrict src, size_t n) {
  return max_sum_body(dst, src, n);
}
bool have_avx2() {
  return kCpuAvx2;
}
#else
void max_avx2(uint32_t* dst, const uint32_t* src, size_t n) {
  max_plain(dst, src, n);
}
uint64_t sum_avx2(const uint32_t* src, size_t n) {
  return sum_plain(src, n);
}
uint64_t max_sum_avx2(uint32_t* dst, const uint32_t* src, size_t n) {
  return max_sum_plain(dst, src, n);
}
bool have_avx2() {
  return false;
}
#endif

}  // namespace

void max_words(uint32_t* __restrict dst, const uint32_t* __restrict src, size_t n) {
  if (have_avx2())
    max_avx2(dst, src, n);
  else
    max_plain(dst, src, n);
}

uint64_t sum_words(const uint32_t* src, size_t n) {
  return have_avx2() ? sum_avx2(src, n) : sum_plain(src, n);
}

uint64_t max_words_and_sum(uint32_t* __restrict dst, const uint32_t* __restrict src, size_t n) {
  return have_avx2() ? max_sum_avx2(dst, src, n) : max_sum_plain(dst, src, n);
}

}  // namespace closure
