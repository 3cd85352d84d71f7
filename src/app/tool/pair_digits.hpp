// The two numbers of a pair line "u v" converted together in one vector (x86-64 with AVX2;
// pair_lines.cpp reads `query --pairs` lines with it where kCpuAvx2).
#pragma once

#if defined(__x86_64__)
#include <immintrin.h>

#include <cstdint>

namespace closure::reach {

// For a line "u v" of a and b digits (index (a - 1) * 8 + b - 1): the byte shuffle that
// puts u's digits right-aligned in bytes 0-7 and v's in bytes 8-15, zeros before them.
struct DigitPlaces {
  alignas(16) uint8_t at[64][16];
};
constexpr DigitPlaces digit_places() {
  DigitPlaces t{};
  for (unsigned a = 1; a <= 8; ++a)
    for (unsigned b = 1; b <= 8; ++b)
      for (unsigned j = 0; j < 8; ++j) {
        uint8_t* m = t.at[(a - 1) * 8 + b - 1];
        m[j] = j >= 8 - a ? uint8_t(j - (8 - a)) : 0x80;
        m[8 + j] = j >= 8 - b ? uint8_t(a + 1 + j - (8 - b)) : 0x80;
      }
  return t;
}
inline constexpr DigitPlaces kDigitPlaces = digit_places();

// The values of a line's two numbers, a and b digits (1 to 8 each) around one byte, all
// within its first 16 bytes (a + b < 16), from `digits`, those 16 bytes less '0' each: the digits
// shuffled into place, then three multiply-adds (SSSE3's and SSE4.1's, in AVX2's encoding). Only
// digit bytes are read.
__attribute__((target("avx2"))) inline void pair_digit_values(__m128i digits, unsigned a,
                                                              unsigned b, uint32_t& u,
                                                              uint32_t& v) {
  const __m128i placed = _mm_shuffle_epi8(
      digits,
      _mm_load_si128(reinterpret_cast<const __m128i*>(kDigitPlaces.at[(a - 1) * 8 + b - 1])));
  const __m128i pairs = _mm_maddubs_epi16(placed, _mm_set1_epi16(0x010A));  // 10, 1
  const __m128i fours = _mm_madd_epi16(pairs, _mm_set1_epi32(0x00010064));  // 100, 1
  const __m128i both = _mm_madd_epi16(_mm_packus_epi32(fours, fours),       // 10000, 1
                                      _mm_set1_epi32(0x00012710));
  u = uint32_t(_mm_cvtsi128_si32(both));
  v = uint32_t(_mm_extract_epi32(both, 1));
}

// The same from the line's text at p (16 bytes readable), for callers of another target.
__attribute__((target("avx2"))) inline void pair_digit_values(const char* p, unsigned a, unsigned b,
                                                              uint32_t& u, uint32_t& v) {
  const __m128i x = _mm_loadu_si128(reinterpret_cast<const __m128i*>(p));
  pair_digit_values(_mm_sub_epi8(x, _mm_set1_epi8('0')), a, b, u, v);
}

}  // namespace closure::reach
#endif
