// Popcounts of word runs (see popcount.hpp).
#include "closure/popcount.hpp"

#include <bit>
#include <cstring>

#if defined(__x86_64__) && defined(__GNUC__)
#include <immintrin.h>
#endif

#include "closure/cpu_features.hpp"

namespace closure {

namespace {

// Popcounts. Baseline x86-64 has no popcnt instruction and gcc then calls a slow
// library routine (it dominated pair counting); where the CPU has the instruction, a
// copy compiled for it is picked once at first use. (Not target_clones: its ifunc
// resolver runs before sanitizer runtimes start and crashed a -fsanitize=thread build.)
[[gnu::always_inline]] inline uint64_t popcount_words_body(const word_t* w, size_t n) {
  uint64_t c = 0;
  size_t i = 0;
  for (; i + 2 <= n; i += 2) {  // two words per popcount
    uint64_t pair;
    std::memcpy(&pair, w + i, sizeof pair);
    c += std::popcount(pair);
  }
  if (i < n) c += std::popcount(w[i]);
  return c;
}
[[gnu::always_inline]] inline void add_popcounts_body(const word_t* w, size_t n, uint64_t* counts) {
  for (size_t i = 0; i < n; ++i) counts[i] += std::popcount(w[i]);
}

uint64_t popcount_words_plain(const word_t* w, size_t n) {
  return popcount_words_body(w, n);
}
void add_popcounts_plain(const word_t* w, size_t n, uint64_t* c) {
  add_popcounts_body(w, n, c);
}

#if defined(__x86_64__) && defined(__GNUC__)
[[gnu::target("popcnt")]] uint64_t popcount_words_hw(const word_t* w, size_t n) {
  return popcount_words_body(w, n);
}
[[gnu::target("popcnt")]] void add_popcounts_hw(const word_t* w, size_t n, uint64_t* c) {
  add_popcounts_body(w, n, c);
}
bool have_popcnt() {
  return kCpuPopcnt;
}
// Sixteen words a step (a row of a few hundred columns in a few steps, where popcnt takes
// one instruction a pair), the tail by a masked load.
[[gnu::target("avx512f,avx512vpopcntdq")]] uint64_t popcount_words_avx512(const word_t* w,
                                                                          size_t n) {
  __m512i acc = _mm512_setzero_si512();
  size_t i = 0;
  for (; i + 16 <= n; i += 16)
    acc = _mm512_add_epi64(acc, _mm512_popcnt_epi64(_mm512_loadu_si512(w + i)));
  if (i < n) {
    const __mmask16 tail = __mmask16((1u << (n - i)) - 1);
    acc = _mm512_add_epi64(acc, _mm512_popcnt_epi64(_mm512_maskz_loadu_epi32(tail, w + i)));
  }
  // Summed through memory: gcc 12's _mm512_reduce_add_epi64 warns of an undefined operand.
  alignas(64) uint64_t lanes[8];
  _mm512_store_si512(lanes, acc);
  uint64_t total = 0;
  for (uint64_t lane : lanes) total += lane;
  return total;
}
bool have_avx512_popcount() {
  return kCpuAvx512Popcount;
}
#else
uint64_t popcount_words_hw(const word_t* w, size_t n) {
  return popcount_words_plain(w, n);
}
void add_popcounts_hw(const word_t* w, size_t n, uint64_t* c) {
  add_popcounts_plain(w, n, c);
}
bool have_popcnt() {
  return false;
}
uint64_t popcount_words_avx512(const word_t* w, size_t n) {
  return popcount_words_plain(w, n);
}
bool have_avx512_popcount() {
  return false;
}
#endif

}  // namespace

uint64_t popcount_words(const word_t* w, size_t n) {
  if (have_avx512_popcount()) return popcount_words_avx512(w, n);
  return have_popcnt() ? popcount_words_hw(w, n) : popcount_words_plain(w, n);
}
void add_popcounts(const word_t* w, size_t n, uint64_t* counts) {
  if (have_popcnt())
    add_popcounts_hw(w, n, counts);
  else
    add_popcounts_plain(w, n, counts);
}

}  // namespace closure
