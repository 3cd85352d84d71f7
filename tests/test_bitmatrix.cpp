// BitMatrix: layout, bit access, conversions, padding invariants and the host products.
#include <gtest/gtest.h>

#include <random>

#include "closure/bitmatrix.hpp"
#include "closure/errors.hpp"

namespace closure {
namespace {

TEST(BitMatrix, LayoutIsColumnMajorOverWords) {
  BitMatrix m(5, 70, Padding{8, 4});
  EXPECT_EQ(m.rows_padded(), 8u);
  EXPECT_EQ(m.words_padded(), 4u);
  m.set(3, 33);  // word 1, bit 1
  EXPECT_EQ(m.data()[1 * 8 + 3], 2u);
  EXPECT_TRUE(m.get(3, 33));
  EXPECT_FALSE(m.get(3, 32));
  EXPECT_EQ(m.popcount(), 1u);
}

TEST(BitMatrix, RowMajorOrderHoldsTheSameBits) {
  BitMatrix m = BitMatrix::random(37, 71, 0.3, 7);
  BitMatrix rows = m.repadded({}, WordOrder::kRowMajor);
  EXPECT_EQ(rows.row_ptr(5)[1], m.word(5, 1));
  EXPECT_TRUE(rows == m);
  EXPECT_TRUE(rows.repadded(Padding{64, 2}) == m);
}

TEST(BitMatrix, SetWordMasksPaddingBits) {
  BitMatrix m(3, 40, Padding{4, 2});
  m.set_word(1, 1, ~word_t{0});
  EXPECT_TRUE(m.padding_is_zero());
  EXPECT_EQ(m.popcount(), 8u);
}

TEST(BitMatrix, PairsRoundTripAndTranspose) {
  std::vector<std::pair<uint32_t, uint32_t>> pairs{{0, 64}, {2, 0}, {64, 64}, {2, 0}};
  BitMatrix m = BitMatrix::from_pairs(65, 65, pairs, Padding{128, 4});
  EXPECT_EQ(m.popcount(), 3u);
  auto out = m.to_pairs();
  std::sort(out.begin(), out.end());
  EXPECT_EQ(out, (std::vector<std::pair<uint32_t, uint32_t>>{{0, 64}, {2, 0}, {64, 64}}));
  BitMatrix t = m.transposed();
  EXPECT_TRUE(t.get(64, 0));
  EXPECT_TRUE(t.get(0, 2));
  EXPECT_TRUE(t.transposed() == m);
}

TEST(BitMatrix, EqualityIgnoresPaddingAmount) {
  BitMatrix a = BitMatrix::random(33, 33, 0.5, 1);
  BitMatrix b = a.repadded(Padding{256, 8});
  EXPECT_TRUE(a == b);
  b.set(0, 0, !b.get(0, 0));
  EXPECT_FALSE(a == b);
}

TEST(BitMatrix, RandomIsDeterministicAndUpperStrict) {
  BitMatrix a = BitMatrix::random(100, 100, 0.5, 42, {}, true);
  EXPECT_TRUE(a == BitMatrix::random(100, 100, 0.5, 42, {}, true));
  for (size_t r = 0; r < 100; ++r)
    for (size_t c = 0; c <= r; ++c) ASSERT_FALSE(a.get(r, c));
  EXPECT_GT(a.popcount(), 2000u);
}

TEST(BitMatrix, NaiveProductOnAHandExample) {
  // A = [[0,1],[0,0]], B = [[0,0],[1,0]] => A*B = [[1,0],[0,0]]
  BitMatrix a(2, 2), b(2, 2), c(2, 2);
  a.set(0, 1);
  b.set(1, 0);
  naive_multiply_or(c, a, b);
  EXPECT_TRUE(c.get(0, 0));
  EXPECT_EQ(c.popcount(), 1u);
}

TEST(BitMatrix, HostProductMatchesNaiveOnAwkwardShapes) {
  for (size_t m : {1, 31, 33, 65}) {
    for (size_t k : {1, 32, 63, 100}) {
      for (size_t n : {7, 64, 65}) {
        for (double density : {0.0, 0.05, 0.5}) {
          BitMatrix a = BitMatrix::random(m, k, density, m * 1000 + k);
          BitMatrix b = BitMatrix::random(k, n, density, k * 1000 + n);
          BitMatrix c0 = BitMatrix::random(m, n, 0.01, 9);
          BitMatrix expect = c0, got = c0;
          naive_multiply_or(expect, a, b);
          host_multiply_or(got, a, b);
          ASSERT_TRUE(got == expect) << m << "x" << k << "x" << n << " d=" << density;
          ASSERT_TRUE(got.padding_is_zero());
        }
      }
    }
  }
}

TEST(BitMatrix, RowBlockKeepsTheColumnsAndTheOrder) {
  for (WordOrder order : {WordOrder::kColumnMajor, WordOrder::kRowMajor}) {
    const BitMatrix m = BitMatrix::random(97, 71, 0.3, 5).repadded({4, 2}, order);
    const BitMatrix b = m.row_block(33, 40);
    ASSERT_EQ(b.rows(), 40u);
    ASSERT_EQ(b.cols(), 71u);
    EXPECT_EQ(b.order(), order);
    EXPECT_TRUE(b.padding_is_zero());
    for (size_t r = 0; r < 40; ++r)
      for (size_t c = 0; c < 71; ++c) ASSERT_EQ(b.get(r, c), m.get(33 + r, c)) << r << "," << c;
  }
  EXPECT_THROW(BitMatrix(10, 10).row_block(5, 6), UsageError);
}

// A matrix of several 16 MB bands is zeroed by the pool's threads (BitMatrix::allocate):
// every word zero, in both orders, after the storage of a freed matrix was reused.
TEST(BitMatrix, LargeMatricesAreZeroedInParallel) {
  for (WordOrder order : {WordOrder::kRowMajor, WordOrder::kColumnMajor}) {
    {
      BitMatrix dirty(5000, 65536 + 5, {}, order);
      std::fill(dirty.storage().begin(), dirty.storage().end(), ~word_t{0});
    }
    const BitMatrix m(5000, 65536 + 5, {}, order);
    ASSERT_GT(m.bytes(), size_t{32} << 20);
    EXPECT_TRUE(std::all_of(m.data(), m.data() + m.word_count(), [](word_t w) { return w == 0; }));
    // unfilled: the same shape, for callers that write every word.
    BitMatrix u = BitMatrix::unfilled(3, 70, {}, order);
    EXPECT_EQ(u.word_count(), BitMatrix(3, 70, {}, order).word_count());
  }
}

}  // namespace
}  // namespace closure
