// clcubic_mul and clutri_mul against the host reference: awkward sizes, densities, fixed
// seeds, bit-exact; canaries around the result; invalid parameters refused.
#include <gtest/gtest.h>

#include "closure/kernels/boolean_kernels.hpp"
#include "kernel_testbed.hpp"
#include "test_support.hpp"

namespace closure {
namespace {

using testing::kAwkwardSizes;
using testing::test_runtime;

constexpr double kDensities[] = {0.0, 0.02, 0.5, 1.0};

using testing::matches_reference;
BitMatrix reference(BitMatrix c, const BitMatrix& a, const BitMatrix& b) {
  return testing::reference_product(std::move(c), a, b);
}

BitMatrix device_product(BooleanKernels& k, const BitMatrix& c0, const BitMatrix& a,
                         const BitMatrix& b, bool triangular) {
  DeviceBitMatrix dc = k.upload(c0), da = k.upload(a), db = k.upload(b);
  if (triangular)
    k.utri_mul(dc, da, db);
  else
    k.cubic_mul(dc, da, db);
  BitMatrix out = k.download(dc);
  EXPECT_TRUE(out.padding_is_zero()) << "kernel wrote into padding";
  return out;
}

class BooleanKernelSizes : public ::testing::TestWithParam<BooleanParams> {};

TEST_P(BooleanKernelSizes, CubicMatchesReferenceOnAwkwardSquares) {
  CLOSURE_REQUIRE_DEVICE();
  BooleanKernels k(*test_runtime(), GetParam());
  for (size_t n : kAwkwardSizes) {
    for (double density : kDensities) {
      if (n == 1000 && density > 0 && density < 1) continue;  // covered below, once
      const BitMatrix a = BitMatrix::random(n, n, density, 11 * n + 1);
      const BitMatrix b = BitMatrix::random(n, n, density, 13 * n + 2);
      const BitMatrix c0 = BitMatrix::random(n, n, 0.01, 17 * n + 3);
      ASSERT_TRUE(
          matches_reference(device_product(k, c0, a, b, false), c0, a, b, GetParam().to_string()))
          << "n=" << n << " density=" << density << " " << GetParam().to_string();
    }
  }
  const BitMatrix a = BitMatrix::random(999, 999, 0.004, 5);
  const BitMatrix c0(999, 999);
  const BitMatrix expect = reference(c0, a, a);
  EXPECT_GT(expect.popcount(), 1000u);  // the input is not trivial
  EXPECT_TRUE(device_product(k, c0, a, a, false) == expect);
}

TEST_P(BooleanKernelSizes, CubicHandlesRectangularOperands) {
  CLOSURE_REQUIRE_DEVICE();
  BooleanKernels k(*test_runtime(), GetParam());
  const size_t shapes[][3] = {{1, 300, 7}, {65, 33, 257}, {200, 1, 31}, {33, 129, 64}};
  for (const auto& s : shapes) {
    const BitMatrix a = BitMatrix::random(s[0], s[1], 0.1, s[0] + s[1]);
    const BitMatrix b = BitMatrix::random(s[1], s[2], 0.1, s[1] + s[2]);
    const BitMatrix c0(s[0], s[2]);
    ASSERT_TRUE(
        matches_reference(device_product(k, c0, a, b, false), c0, a, b, GetParam().to_string()))
        << s[0] << "x" << s[1] << "x" << s[2];
  }
}

TEST_P(BooleanKernelSizes, TriangularMatchesReference) {
  CLOSURE_REQUIRE_DEVICE();
  BooleanKernels k(*test_runtime(), GetParam());
  for (size_t n : kAwkwardSizes) {
    for (double density : kDensities) {
      const BitMatrix a = BitMatrix::random(n, n, density, 19 * n + 1, {}, true);
      const BitMatrix b = BitMatrix::random(n, n, density, 23 * n + 2, {}, true);
      const BitMatrix c0 = BitMatrix::random(n, n, 0.01, 29 * n + 3, {}, true);
      ASSERT_TRUE(
          matches_reference(device_product(k, c0, a, b, true), c0, a, b, GetParam().to_string()))
          << "n=" << n << " density=" << density << " " << GetParam().to_string();
    }
  }
}

INSTANTIATE_TEST_SUITE_P(Params, BooleanKernelSizes,
                         ::testing::Values(BooleanParams{2, 2}, BooleanParams{1, 1},
                                           BooleanParams{1, 4}, BooleanParams{4, 2},
                                           // wide register tiles (vector loads of B) and
                                           // K chunks that differ from the row tile
                                           BooleanParams{2, 2, 8, 2}, BooleanParams{1, 1, 2, 8},
                                           BooleanParams{2, 4, 4, 1}, BooleanParams{1, 2, 3, 3}),
                         [](const auto& info) {
                           const BooleanParams p = info.param.resolved();
                           return "n" + std::to_string(p.tile_n) + "_m" + std::to_string(p.tile_m) +
                                  "_w" + std::to_string(p.tile_w) + "_k" + std::to_string(p.tile_k);
                         });

// The product runs on a window of a larger canary-filled buffer: nothing outside the
// window, and no padding word inside it, may change (M4RI's mzd_check_pattern idea).
TEST(BooleanKernelCanary, NothingOutsideTheResultChanges) {
  CLOSURE_REQUIRE_DEVICE();
  auto& rt = *test_runtime();
  BooleanKernels k(rt, BooleanParams{2, 2});
  for (bool triangular : {false, true}) {
    const size_t n = 100;
    const BitMatrix a = BitMatrix::random(n, n, 0.3, 3, {}, triangular);
    const BitMatrix c0(n, n, k.params().padding());
    DeviceBitMatrix da = k.upload(a), db = k.upload(a);
    DeviceBitMatrix shape = k.allocate(n, n);
    const size_t guard = 4096;  // bytes; a multiple of every base-address alignment
    const size_t total = guard + shape.bytes() + guard;
    std::vector<word_t> pattern(total / sizeof(word_t), 0xA5A5A5A5u);
    // The canary inside the window: padding words (rows >= n, words >= 4) get the pattern.
    std::vector<word_t> window(c0.data(), c0.data() + c0.word_count());
    for (size_t w = 0; w < c0.words_padded(); ++w)
      for (size_t r = 0; r < c0.rows_padded(); ++r)
        if (r >= n || w >= c0.words_per_row()) window[w * c0.rows_padded() + r] = 0xA5A5A5A5u;
    std::copy(window.begin(), window.end(), pattern.begin() + guard / sizeof(word_t));
    cl::Buffer whole(rt.context(), CL_MEM_READ_WRITE | CL_MEM_COPY_HOST_PTR, total, pattern.data());
    cl_buffer_region region{guard, shape.bytes()};
    DeviceBitMatrix dc = shape;
    dc.buffer = whole.createSubBuffer(CL_MEM_READ_WRITE, CL_BUFFER_CREATE_TYPE_REGION, &region);
    if (triangular)
      k.utri_mul(dc, da, db);
    else
      k.cubic_mul(dc, da, db);
    std::vector<word_t> after(pattern.size());
    rt.queue().enqueueReadBuffer(whole, CL_TRUE, 0, total, after.data());
    for (size_t i = 0; i < guard / sizeof(word_t); ++i) {
      ASSERT_EQ(after[i], 0xA5A5A5A5u) << "before the window, word " << i;
      ASSERT_EQ(after[after.size() - 1 - i], 0xA5A5A5A5u) << "after the window";
    }
    BitMatrix expect = reference(BitMatrix(n, n), a, a);
    for (size_t w = 0; w < c0.words_padded(); ++w)
      for (size_t r = 0; r < c0.rows_padded(); ++r) {
        const word_t got = after[guard / sizeof(word_t) + w * c0.rows_padded() + r];
        if (r >= n || w >= c0.words_per_row())
          ASSERT_EQ(got, 0xA5A5A5A5u) << "padding word (" << r << "," << w << ")";
        else
          ASSERT_EQ(got, expect.word(r, w)) << "word (" << r << "," << w << ")";
      }
  }
}

TEST(BooleanKernelParams, InvalidParametersAreRefusedWithTheLimit) {
  ocl::DeviceInfo device;
  device.name = "test device";
  device.max_work_group = 256;
  device.local_mem_bytes = 16 * 1024;
  EXPECT_NO_THROW((BooleanParams{2, 2}.validate(device)));
  try {
    BooleanParams{4, 1}.validate(device);  // 128 x 4 = 512 work-items
    FAIL() << "expected a refusal";
  } catch (const DeviceError& e) {  // the device's limit
    EXPECT_NE(std::string(e.what()).find("512 work-items"), std::string::npos) << e.what();
  }
  try {
    // A: (34*8+1)*8 words, B: 32*8*(8+4)+4 words: 21,040 bytes
    BooleanParams{2, 4}.validate(device);
    FAIL() << "expected a refusal";
  } catch (const DeviceError& e) {
    EXPECT_NE(std::string(e.what()).find("local memory"), std::string::npos) << e.what();
  }
  // The user's values (--kernel-params, CLOSURE_BOOL_PARAMS): usage errors, at parse time.
  EXPECT_THROW((BooleanParams{0, 2}.validate(device)), UsageError);
  EXPECT_THROW(parse_boolean_params("tile_q=3"), UsageError);
  EXPECT_THROW(parse_boolean_params("tile_n=0"), UsageError);
  EXPECT_THROW(parse_boolean_params("tile_n=x"), UsageError);
  EXPECT_THROW((BooleanParams{1, 16, 8}.validate(device)), UsageError);  // 128 acc
  EXPECT_EQ(parse_boolean_params("tile_m=4", {2, 2}), (BooleanParams{2, 4}));
  EXPECT_EQ(parse_boolean_params("tile_w=8,tile_k=2", {2, 2}), (BooleanParams{2, 2, 8, 2}));
  // The padding quantum divides by every tile: rows, words of C and K chunks.
  EXPECT_EQ((BooleanParams{2, 2, 8, 3}.tile_words()), 48);
  EXPECT_EQ((BooleanParams{2, 2}.tile_rows()), 128);
}

}  // namespace
}  // namespace closure
