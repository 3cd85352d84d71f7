// A free function with restrict pointers and a local count, so gcc vectorises it (a count
// read through a row reference could alias the words and kept it scalar); an AVX2 copy
// where the CPU has it, picked once (not by target_clones, whose ifunc resolver breaks
// sanitizer builds).
#include "closure/or_words.hpp"

#include "closure/cpu_features.hpp"

namespace closure {
namespace {

[[gnu::always_inline]] inline void or_body(word_t* __restrict dst, const word_t* __restrict src,
                                           size_t n) {
  for (size_t i = 0; i < n; ++i) dst[i] |= src[i];
}
void or_plain(word_t* __restrict dst, const word_t* __restrict src, size_t n) {
  or_body(dst, src, n);
}
#if defined(__x86_64__) && defined(__GNUC__)
[[gnu::target("avx2")]] void or_avx2(word_t* __restrict dst, const word_t* __restrict src,
                                     size_t n) {
  or_body(dst, src, n);
}
bool have_avx2() {
  return kCpuAvx2;
}
#else
void or_avx2(word_t* dst, const word_t* src, size_t n) {
  or_plain(dst, src, n);
}
bool have_avx2() {
  return false;
}
#endif

}  // namespace

void or_words(word_t* __restrict dst, const word_t* __restrict src, size_t n) {
  if (have_avx2())
    or_avx2(dst, src, n);
  else
    or_plain(dst, src, n);
}

}  // namespace closure
