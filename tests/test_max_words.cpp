// The chain count's row loops (max_words.hpp) against plain loops, on awkward lengths
// (around the vector widths) and counts near 2^32, whose sums need 64 bits.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdint>
#include <random>
#include <vector>

#include "closure/max_words.hpp"

namespace closure {
namespace {

std::vector<uint32_t> random_counts(size_t n, std::mt19937& rng, bool huge) {
  std::vector<uint32_t> v(n);
  for (auto& x : v) x = huge ? 0xffffffffu - (rng() & 0xff) : rng() % 1000;
  return v;
}

TEST(MaxWords, MaximumAndSumsEqualPlainLoops) {
  std::mt19937 rng(7);
  for (bool huge : {false, true})
    for (size_t n : {0, 1, 3, 7, 8, 9, 15, 16, 17, 31, 33, 64, 100, 1000, 1031}) {
      const std::vector<uint32_t> a = random_counts(n, rng, huge), b = random_counts(n, rng, huge);
      std::vector<uint32_t> want(n);
      uint64_t want_sum = 0;
      for (size_t i = 0; i < n; ++i) want_sum += want[i] = std::max(a[i], b[i]);
      std::vector<uint32_t> got = a;
      max_words(got.data(), b.data(), n);
      EXPECT_EQ(got, want) << "max_words, n " << n;
      EXPECT_EQ(sum_words(got.data(), n), want_sum) << "sum_words, n " << n;
      got = a;
      EXPECT_EQ(max_words_and_sum(got.data(), b.data(), n), want_sum) << "n " << n;
      EXPECT_EQ(got, want) << "max_words_and_sum, n " << n;
    }
}

}  // namespace
}  // namespace closure
