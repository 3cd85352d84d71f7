// The host's word loops against the plain loops they stand for: popcounts and ORs over every
// length from 0 to 80 words at every alignment (the vector bodies' masked and scalar tails),
// and the CPU features they are picked by against the compiler's own reading.
#include <gtest/gtest.h>

#include <bit>
#include <random>
#include <vector>

#include "closure/cpu_features.hpp"
#include "closure/or_words.hpp"
#include "closure/popcount.hpp"

namespace closure {
namespace {

TEST(WordLoops, PopcountsAndOrsMatchThePlainLoops) {
  std::mt19937 rng(20261205);
  std::vector<word_t> a(100), b(100);
  for (size_t offset = 0; offset < 17; ++offset)
    for (size_t n = 0; n <= 80; ++n) {
      for (auto& w : a) w = rng();
      for (auto& w : b) w = rng() & rng();  // sparser words too
      uint64_t expect = 0;
      for (size_t i = 0; i < n; ++i) expect += std::popcount(a[offset + i]);
      EXPECT_EQ(popcount_words(a.data() + offset, n), expect) << n << " at " << offset;
      std::vector<uint64_t> counts(n, 7), want(n);
      for (size_t i = 0; i < n; ++i) want[i] = 7 + std::popcount(b[offset + i]);
      add_popcounts(b.data() + offset, n, counts.data());
      EXPECT_EQ(counts, want) << n << " at " << offset;
      std::vector<word_t> ored(a), or_want(a);
      for (size_t i = 0; i < n; ++i) or_want[offset + i] |= b[offset + i];
      or_words(ored.data() + offset, b.data() + offset, n);
      EXPECT_EQ(ored, or_want) << n << " at " << offset;  // nothing outside [offset, +n)
    }
}

TEST(WordLoops, CpuFeaturesAgreeWithTheCompilersReading) {
#if defined(__x86_64__) && defined(__GNUC__)
  __builtin_cpu_init();
  EXPECT_EQ(cpu_has_popcnt(), __builtin_cpu_supports("popcnt") != 0);
  EXPECT_EQ(cpu_has_avx2(), __builtin_cpu_supports("avx2") != 0);
  EXPECT_EQ(cpu_has_avx512_popcount(), __builtin_cpu_supports("avx512f") != 0 &&
                                           __builtin_cpu_supports("avx512vpopcntdq") != 0);
#else
  EXPECT_FALSE(cpu_has_avx512_popcount());
#endif
}

}  // namespace
}  // namespace closure
