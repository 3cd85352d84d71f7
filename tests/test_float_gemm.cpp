// Float GEMM kernels and host loops against the naive double reference: awkward and
// non-square sizes, fixed seeds, a stated tolerance; myAdd exact; stores stay inside C;
// invalid parameters refused.
#include <gtest/gtest.h>

#include <cmath>
#include <string>

#include "kernels/float_gemm.hpp"
#include "kernels/host_gemm.hpp"
#include "test_support.hpp"

namespace closure {
namespace {

using testing::test_runtime;

// |got - exact| <= kTolerance * sum_k |a_ik * b_kj| for every element. Float rounding of
// a K-term dot product stays under about K * 6e-8 of that sum (1.6e-5 at K = 257, 6e-5 at
// K = 1000) in any summation order; a dropped tile of K (the seeds' K/TS bug) costs about
// (K % TS) / K, 1e-2 and more at these sizes, so it cannot hide under the tolerance.
constexpr double kTolerance = 1e-4;

// The awkward sizes of test_support.hpp but 1000: the row kernels of the book take
// seconds each at order 1000 on PoCL's two cores; FloatGemmNearThousand covers the order
// with the fast kernels.
constexpr size_t kSquareSizes[] = {1, 7, 31, 32, 33, 63, 65, 100, 257};
constexpr GemmShape kRectangular[] = {{33, 100, 7}, {7, 1, 65},   {1, 257, 1},  {100, 33, 63},
                                      {65, 7, 257}, {31, 32, 33}, {257, 65, 1}, {1, 1, 100}};

struct Params {
  const char* name;
  FloatGemmParams gemm;
  BookMmulParams book;
};

// Default: the shipped parameters. Small: tiles that every test size overruns, a row
// group that divides none of them (padding work-items must still reach the barriers), and
// PRIVATE_K = 16 so that K is chunked with a remainder.
const Params kParamSets[] = {
    {"Default", {}, {}}, {"Small", {8, 4, 4}, {7, 16}}, {"Odd", {5, 3, 3}, {33, 100}}};

std::string describe(GemmVariant v, GemmShape s, const Params& p) {
  return std::string(variant_name(v)) + " " + std::to_string(s.m) + "x" + std::to_string(s.k) +
         "x" + std::to_string(s.n) + " (" + p.name + ": " + p.gemm.to_string() + "," +
         p.book.to_string() + ")";
}

// The variant on random operands of one fixed seed per shape, against the reference.
void expect_matches_reference(FloatKernels& k, GemmVariant v, GemmShape s, const Params& p) {
  const StorageOrder order = variant_order(v);
  const auto a = random_matrix(s.a_count(), 1000003 * s.m + 1009 * s.k + 1);
  const auto b = random_matrix(s.b_count(), 1000003 * s.k + 1009 * s.n + 2);
  const GemmReference ref = reference_gemm(s, a, b, order);
  const std::vector<float> got = k.multiply(v, s, a, b);
  EXPECT_LE(max_relative_error(got, order, ref), kTolerance) << describe(v, s, p);
}

class FloatGemmKernels : public ::testing::TestWithParam<Params> {};

TEST_P(FloatGemmKernels, EveryVariantMatchesReferenceOnAwkwardSquares) {
  CLOSURE_REQUIRE_DEVICE();
  FloatKernels k(*test_runtime(), GetParam().gemm, GetParam().book);
  for (GemmVariant v : kGemmVariants)
    for (size_t n : kSquareSizes) expect_matches_reference(k, v, {n, n, n}, GetParam());
}

TEST_P(FloatGemmKernels, EveryVariantMatchesReferenceOnRectangularShapes) {
  CLOSURE_REQUIRE_DEVICE();
  FloatKernels k(*test_runtime(), GetParam().gemm, GetParam().book);
  for (GemmVariant v : kGemmVariants)
    for (GemmShape s : kRectangular) expect_matches_reference(k, v, s, GetParam());
}

// C is a window of a larger buffer filled with a canary: no kernel may store outside it,
// whatever work-items its rounded-up NDRange adds.
TEST_P(FloatGemmKernels, StoresStayInsideTheResult) {
  CLOSURE_REQUIRE_DEVICE();
  auto& rt = *test_runtime();
  FloatKernels k(rt, GetParam().gemm, GetParam().book);
  const GemmShape s{33, 65, 31};
  const float canary = -12345.5f;
  const size_t guard = 4096 / sizeof(float);  // 4 KiB: a multiple of every base alignment
  for (GemmVariant v : kGemmVariants) {
    const auto a = random_matrix(s.a_count(), 7), b = random_matrix(s.b_count(), 8);
    std::vector<float> pattern(guard + s.c_count() + guard, canary);
    const cl::Buffer da = k.upload(a), db = k.upload(b);
    cl::Buffer whole = k.upload(pattern);
    cl_buffer_region region{guard * sizeof(float), s.c_count() * sizeof(float)};
    const cl::Buffer dc =
        whole.createSubBuffer(CL_MEM_READ_WRITE, CL_BUFFER_CREATE_TYPE_REGION, &region);
    k.multiply(v, s, da, db, dc);
    const std::vector<float> after = k.download(whole, pattern.size());
    for (size_t i = 0; i < guard; ++i) {
      ASSERT_EQ(after[i], canary) << describe(v, s, GetParam()) << ": before C, element " << i;
      ASSERT_EQ(after[guard + s.c_count() + i], canary)
          << describe(v, s, GetParam()) << ": after C, element " << i;
    }
    const std::vector<float> c(after.begin() + guard, after.begin() + guard + s.c_count());
    EXPECT_LE(max_relative_error(c, variant_order(v), reference_gemm(s, a, b, variant_order(v))),
              kTolerance)
        << describe(v, s, GetParam());
  }
}

INSTANTIATE_TEST_SUITE_P(FloatGemm, FloatGemmKernels, ::testing::ValuesIn(kParamSets),
                         [](const auto& info) { return std::string(info.param.name); });

// Order near 1000, non-square and no dimension a multiple of 16, for the two tiled kernels
// and myGEMM1 only (about a second each on PoCL); the others are covered up to 257 above.
TEST(FloatGemmNearThousand, FastKernelsMatchReference) {
  CLOSURE_REQUIRE_DEVICE();
  FloatKernels k(*test_runtime());
  const Params p = kParamSets[0];
  for (GemmVariant v :
       {GemmVariant::kMyGemm2, GemmVariant::kMatrixMulKernel, GemmVariant::kMyGemm1})
    expect_matches_reference(k, v, {999, 1000, 1001}, p);
}

TEST(FloatGemmAdd, MyAddIsExact) {
  CLOSURE_REQUIRE_DEVICE();
  for (const Params& p : kParamSets) {
    FloatKernels k(*test_runtime(), p.gemm, p.book);
    for (size_t m : {size_t(1), size_t(7), size_t(33), size_t(257)})
      for (size_t n : {size_t(1), size_t(31), size_t(100)}) {
        const auto a = random_matrix(m * n, m + 100 * n), b = random_matrix(m * n, m + 100 * n + 1);
        const std::vector<float> got = k.add(m, n, a, b);
        for (size_t i = 0; i < m * n; ++i)
          ASSERT_EQ(got[i], a[i] + b[i])
              << "myAdd " << m << "x" << n << " element " << i << " " << p.name;
      }
  }
}

TEST(FloatGemmKernelErrors, BadShapesAndBuffersAreRefused) {
  CLOSURE_REQUIRE_DEVICE();
  FloatKernels k(*test_runtime());
  const auto small = k.upload(std::vector<float>(10));
  EXPECT_THROW(k.multiply(GemmVariant::kMyGemm2, {4, 4, 4}, small, small, small),
               std::invalid_argument);
  EXPECT_THROW(k.multiply(GemmVariant::kMyGemm2, {0, 4, 4}, small, small, small),
               std::invalid_argument);
  EXPECT_THROW(
      k.multiply(GemmVariant::kMmulRow, {2, 2, 2}, std::vector<float>(3), std::vector<float>(4)),
      std::invalid_argument);
}

// The book's loops: seq in float, ijk / ikj / kij in double.
TEST(FloatGemmHostLoops, EveryLoopMatchesReference) {
  std::vector<GemmShape> shapes(std::begin(kRectangular), std::end(kRectangular));
  for (size_t n : kSquareSizes) shapes.push_back({n, n, n});
  for (GemmShape s : shapes) {
    const auto a = random_matrix(s.a_count(), 3 * s.m + s.k),
               b = random_matrix(s.b_count(), 5 * s.n + s.k);
    const GemmReference ref = reference_gemm(s, a, b, StorageOrder::kRowMajor);
    HostGemm host(s, a, b);
    for (HostLoop loop : kHostLoops) {
      host.run(loop);
      host.run(loop);  // twice: the accumulating double loops must start from zero
      // The double loops differ from the reference only by summation order in double.
      const double tolerance = host_loop_is_double(loop) ? 1e-12 : kTolerance;
      EXPECT_LE(max_relative_error(host.result(loop), StorageOrder::kRowMajor, ref), tolerance)
          << host_loop_name(loop) << " " << s.m << "x" << s.k << "x" << s.n;
    }
  }
}

// The reference itself, on a product small enough to check by hand.
TEST(FloatGemmReference, KnownProductInBothOrders) {
  const GemmShape s{2, 3, 2};
  // A = [1 2 3; 4 5 6], B = [7 8; 9 10; 11 12], A*B = [58 64; 139 154].
  const std::vector<float> a{1, 2, 3, 4, 5, 6}, b{7, 8, 9, 10, 11, 12};
  const GemmReference ref = reference_gemm(s, a, b, StorageOrder::kRowMajor);
  EXPECT_EQ(ref.c, (std::vector<double>{58, 64, 139, 154}));
  const auto ac = reorder(a, 2, 3, StorageOrder::kRowMajor, StorageOrder::kColumnMajor);
  const auto bc = reorder(b, 3, 2, StorageOrder::kRowMajor, StorageOrder::kColumnMajor);
  EXPECT_EQ(ac, (std::vector<float>{1, 4, 2, 5, 3, 6}));
  EXPECT_EQ(reference_gemm(s, ac, bc, StorageOrder::kColumnMajor).c, ref.c);
  EXPECT_EQ(
      max_relative_error(std::vector<float>{58, 139, 64, 154}, StorageOrder::kColumnMajor, ref), 0);
  EXPECT_GT(max_relative_error(std::vector<float>{58, 64, 139, 155}, StorageOrder::kRowMajor, ref),
            1e-3);
  EXPECT_TRUE(std::isinf(
      max_relative_error(std::vector<float>{58, 64, 139, NAN}, StorageOrder::kRowMajor, ref)));
}

void expect_refusal(const std::function<void()>& f, const std::string& needle) {
  try {
    f();
    ADD_FAILURE() << "expected a refusal mentioning '" << needle << "'";
  } catch (const std::invalid_argument& e) {
    EXPECT_NE(std::string(e.what()).find(needle), std::string::npos) << e.what();
  }
}

TEST(FloatGemmParams, InvalidParametersAreRefusedWithTheLimit) {
  ocl::DeviceInfo device;
  device.name = "test device";
  device.max_work_group = 256;
  device.local_mem_bytes = 4 * 1024;
  EXPECT_NO_THROW((FloatGemmParams{16, 16, 16}.validate(device)));
  EXPECT_NO_THROW((BookMmulParams{250, 1024}.validate(device)));
  expect_refusal([&] { FloatGemmParams{32, 16, 16}.validate(device); }, "1024 work-items");
  expect_refusal([&] { FloatGemmParams{16, 32, 16}.validate(device); }, "MatrixMulKernel");
  expect_refusal([&] { FloatGemmParams{16, 16, 17}.validate(device); }, "289 work-items");
  expect_refusal([&] { BookMmulParams{257, 16}.validate(device); }, "257 work-items");
  expect_refusal([&] { BookMmulParams{64, 2048}.validate(device); }, "local memory");
  expect_refusal([&] { FloatGemmParams{0, 16, 16}.validate(device); }, "out of range");
  device.max_work_group = 4096;
  device.local_mem_bytes = 2 * 1024;  // two 16 x 16 float tiles need exactly 2 KiB
  EXPECT_NO_THROW((FloatGemmParams{16, 16, 16}.validate(device)));
  expect_refusal([&] { FloatGemmParams{17, 16, 16}.validate(device); }, "local memory");
}

TEST(FloatGemmParams, RefusedBeforeCompilingOnTheTestDevice) {
  CLOSURE_REQUIRE_DEVICE();
  const auto& device = test_runtime()->device();
  expect_refusal(
      [&] {
        FloatKernels(*test_runtime(), {}, {int(device.max_work_group) + 1, 16});
      },
      device.name);
}

TEST(FloatGemmParams, ParsingAndBuildOptions) {
  EXPECT_EQ(parse_float_gemm_params("ts=8,group=4"), (FloatGemmParams{8, 16, 4}));
  EXPECT_EQ(parse_book_mmul_params("private_k=512"), (BookMmulParams{250, 512}));
  EXPECT_THROW(parse_float_gemm_params("ts=8x"), std::invalid_argument);
  EXPECT_THROW(parse_float_gemm_params("tile=8"), std::invalid_argument);
  EXPECT_THROW(parse_book_mmul_params("row_group"), std::invalid_argument);
  EXPECT_EQ((FloatGemmParams{8, 32, 4}.build_options()), "-cl-std=CL1.2 -DTS=8 -DTILE_WIDTH=32");
  EXPECT_EQ((BookMmulParams{64, 100}.build_options()), "-cl-std=CL1.2 -DPRIVATE_K=100");
}

}  // namespace
}  // namespace closure
