// The tensor-core product's layouts and write-back against the host reference: on any
// device in emulation (the MMA computed in OpenCL C over the same packed operands), and
// with the real 1-bit MMA where the device is NVIDIA's (skipped elsewhere).
#include <gtest/gtest.h>
#include <unistd.h>

#include <filesystem>

#include "closure/kernels/boolean_mma.hpp"
#include "closure/kernels/tuning.hpp"
#include "closure/ocl/kernel_source.hpp"
#include "closure/ocl/verdict_cache.hpp"
#include "kernel_testbed.hpp"
#include "test_support.hpp"

namespace closure {
namespace {

using testing::test_runtime;

using testing::matches_reference;

// Small tiles keep the emulation quick and put several blocks and K stages in every case.
const MmaParams kEmulatedParams[] = {
    {16, 32, 1, 1, 1, 2, 0},
    {32, 32, 2, 1, 2, 1, 0},
    {16, 64, 2, 2, 1, 3, 0},
};

void check_products(BooleanMma& mma, BooleanKernels& k, const std::string& what) {
  // Square, awkward sizes; then rectangular shapes with K not a multiple of 256.
  for (size_t n : {1, 33, 100, 257, 300}) {
    for (double density : {0.0, 0.02, 0.5}) {
      const BitMatrix a = BitMatrix::random(n, n, density, 7 * n + 1);
      const BitMatrix b = BitMatrix::random(n, n, density, 9 * n + 2);
      const BitMatrix c0 = BitMatrix::random(n, n, 0.01, 13 * n + 3);
      DeviceBitMatrix dc = k.upload(c0), da = k.upload(a), db = k.upload(b);
      mma.multiply_or(dc, da, db);
      const BitMatrix got = k.download(dc);
      EXPECT_TRUE(got.padding_is_zero()) << what << " n=" << n << ": wrote into padding";
      ASSERT_TRUE(matches_reference(got, c0, a, b, what))
          << what << " n=" << n << " density=" << density;
    }
  }
  const size_t shapes[][3] = {{1, 300, 7}, {65, 33, 257}, {200, 1, 31}, {130, 600, 64}};
  for (const auto& s : shapes) {
    const BitMatrix a = BitMatrix::random(s[0], s[1], 0.1, s[0] + s[1]);
    const BitMatrix b = BitMatrix::random(s[1], s[2], 0.1, s[1] + s[2]);
    const BitMatrix c0(s[0], s[2]);
    DeviceBitMatrix dc = k.upload(c0), da = k.upload(a), db = k.upload(b);
    mma.multiply_or(dc, da, db);
    ASSERT_TRUE(matches_reference(k.download(dc), c0, a, b, what))
        << what << " " << s[0] << "x" << s[1] << "x" << s[2];
  }
  // Upper-triangular operands with the triangular block skipping.
  for (size_t n : {63, 257, 520}) {
    const BitMatrix a = BitMatrix::random(n, n, 0.05, 3 * n, {}, true);
    const BitMatrix c0 = BitMatrix::random(n, n, 0.01, 5 * n, {}, true);
    DeviceBitMatrix dc = k.upload(c0), da = k.upload(a);
    mma.multiply_or(dc, da, da, true);
    ASSERT_TRUE(matches_reference(k.download(dc), c0, a, a, what)) << what << " triangular n=" << n;
  }
}

TEST(BooleanMma, EmulatedProductMatchesReference) {
  CLOSURE_REQUIRE_DEVICE();
  BooleanKernels k(*test_runtime(), BooleanParams{2, 2});
  for (const MmaParams& p : kEmulatedParams) {
    BooleanMma mma(*test_runtime(), p, BooleanMma::Mode::kEmulate);
    ASSERT_TRUE(mma.available()) << mma.unavailable_reason();
    check_products(mma, k, p.to_string());
  }
}

TEST(BooleanMma, TransposeMatchesHost) {
  CLOSURE_REQUIRE_DEVICE();
  BooleanKernels k(*test_runtime(), BooleanParams{1, 1});
  BooleanMma mma(*test_runtime(), kEmulatedParams[0], BooleanMma::Mode::kEmulate);
  for (auto [r, c] : {std::pair<size_t, size_t>{1, 1}, {31, 65}, {100, 33}, {257, 300}}) {
    const BitMatrix x = BitMatrix::random(r, c, 0.3, r * c);
    const DeviceBitMatrix t = mma.transpose(k.upload(x));
    BitMatrix got(t.rows, t.cols, {t.rows_padded, t.words_padded});
    test_runtime()->queue().enqueueReadBuffer(t.buffer, CL_TRUE, 0, t.bytes(), got.data());
    EXPECT_TRUE(got.padding_is_zero());
    ASSERT_TRUE(got == x.transposed()) << r << "x" << c;
  }
}

// The real tensor-core path: only where the device is NVIDIA's (the H200 in
// tools/gpu-bench.sh); elsewhere it must say why it is unavailable.
TEST(BooleanMma, TensorCoreProductMatchesReferenceWhereAvailable) {
  CLOSURE_REQUIRE_DEVICE();
  BooleanMma mma(*test_runtime());
  if (!mma.available()) {
    EXPECT_FALSE(mma.unavailable_reason().empty());
    GTEST_SKIP() << "no tensor-core path: " << mma.unavailable_reason();
  }
  BooleanKernels k(*test_runtime(), BooleanParams{2, 2});
  check_products(mma, k, mma.params().to_string());
}

// The self-check runs once per device and parameter set in a process, not once per
// engine; the cp.async ring (stages 3 and 4) is checked and right as well.
TEST(BooleanMma, SelfCheckRunsOncePerDeviceAndCoversTheRing) {
  CLOSURE_REQUIRE_DEVICE();
  CLOSURE_REQUIRE_DEVICE_FEATURE(mma_device_supported(test_runtime()->device()),
                                 "not an NVIDIA OpenCL device");
  BooleanKernels k(*test_runtime(), BooleanParams{2, 2});
  for (int stages : {0, 3, 4}) {
    MmaParams p = tuned_mma_params(test_runtime()->device());
    p.stages = stages;
    // A deeper ring holds more stages: halve the K blocks a stage when it does not fit.
    if (p.local_bytes() > test_runtime()->device().local_mem_bytes) p.k_steps = 1;
    BooleanMma first(*test_runtime(), p);
    ASSERT_TRUE(first.available()) << p.to_string() << ": " << first.unavailable_reason();
    const int before = ocl::verdicts_computed();
    BooleanMma second(*test_runtime(), p);
    EXPECT_TRUE(second.available());
    EXPECT_EQ(ocl::verdicts_computed(), before) << "self-check ran again for " << p.to_string();
    check_products(second, k, p.to_string());
  }
}

// Verdicts are computed once per (device, program, question) and passing ones persist.
TEST(VerdictCache, ComputesOncePerKeyAndKeepsPassesOnDisk) {
  CLOSURE_REQUIRE_DEVICE();
  const std::string options = "-cl-std=CL1.2 -DVERDICT_TEST=" + std::to_string(::getpid());
  int calls = 0;
  auto pass = [&] { return ++calls, true; };
  auto fail = [&] { return ++calls, false; };
  EXPECT_TRUE(ocl::cached_verdict(*test_runtime(), "boolean_util.cl", options, "t1", pass));
  EXPECT_TRUE(ocl::cached_verdict(*test_runtime(), "boolean_util.cl", options, "t1", fail));
  EXPECT_EQ(calls, 1);
  EXPECT_FALSE(ocl::cached_verdict(*test_runtime(), "boolean_util.cl", options, "t2", fail));
  EXPECT_FALSE(ocl::cached_verdict(*test_runtime(), "boolean_util.cl", options, "t2", pass));
  EXPECT_EQ(calls, 2);
  const std::string dir = ocl::program_cache_dir();
  if (!dir.empty()) {
    const std::string key = ocl::program_cache_key(test_runtime()->device(), options,
                                                   ocl::kernel_source("boolean_util.cl"));
    EXPECT_TRUE(std::filesystem::exists(dir + "/" + key + ".t1.ok"));
    EXPECT_FALSE(std::filesystem::exists(dir + "/" + key + ".t2.ok"));
    std::filesystem::remove(dir + "/" + key + ".t1.ok");
  }
}

TEST(BooleanMma, InvalidParametersAreRefused) {
  ocl::DeviceInfo device;
  device.name = "test device";
  device.max_work_group = 256;
  device.local_mem_bytes = 48 * 1024;
  EXPECT_NO_THROW((MmaParams{}.validate(device)));
  EXPECT_THROW((MmaParams{48, 64}.validate(device)), UsageError);            // warp_m
  EXPECT_THROW((MmaParams{128, 128}.validate(device)), UsageError);          // registers
  EXPECT_THROW((MmaParams{64, 64, 4, 4}.validate(device)), DeviceError);     // 512 items
  EXPECT_THROW((MmaParams{64, 64, 4, 2, 4}.validate(device)), DeviceError);  // local
  EXPECT_THROW(parse_mma_params("warp_q=1"), UsageError);
  EXPECT_THROW((MmaParams{64, 64, 4, 2, 1, 8, 2}.validate(device)), UsageError);
  EXPECT_EQ(parse_mma_params("warps_m=4,k_steps=1,stages=3"), (MmaParams{64, 64, 4, 2, 1, 16, 3}));
}

}  // namespace
}  // namespace closure
