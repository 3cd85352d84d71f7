// Float GEMM kernels and host loops against the naive double reference: awkward and
// non-square sizes, fixed seeds, a stated tolerance; myAdd exact; stores stay inside C;
// invalid parameters refused; myGEMM_tuned's parameter sets against a fake H200.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <optional>
#include <string>

#include "closure/errors.hpp"
#include "gemm/float_gemm.hpp"
#include "gemm/host_gemm.hpp"
#include "gemm/sgemm_tuned.hpp"
#include "gemm/sgemm_tuned_params.hpp"
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
  std::optional<SgemmTunedParams> tuned;  // none: the device's default set
};

// Default: the shipped parameters. Small: tiles that every test size overruns, a row
// group that divides none of them (padding work-items must still reach the barriers), and
// PRIVATE_K = 16 so that K is chunked with a remainder; myGEMM_tuned with float2 vectors
// and 16 vectors of B per tile for 32 work-items (the guarded staging loop). Odd: sizes
// that are not powers of two anywhere, scalar loads, an odd padding of local B.
const Params kParamSets[] = {
    {"Default", {}, {}, std::nullopt},
    {"Small", {8, 4, 4}, {7, 16}, SgemmTunedParams{16, 8, 4, 2, 2, 2, 2, 2, 1}},
    {"Odd", {5, 3, 3}, {33, 100}, SgemmTunedParams{12, 20, 3, 3, 5, 1, 1, 1, 0}}};

std::string describe(GemmVariant v, GemmShape s, const Params& p) {
  return std::string(variant_name(v)) + " " + std::to_string(s.m) + "x" + std::to_string(s.k) +
         "x" + std::to_string(s.n) + " (" + p.name + ": " + p.gemm.to_string() + "," +
         p.book.to_string() + (p.tuned ? "," + p.tuned->to_string() : std::string()) + ")";
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
  FloatKernels k(*test_runtime(), GetParam().gemm, GetParam().book, GetParam().tuned);
  for (GemmVariant v : kGemmVariants)
    for (size_t n : kSquareSizes) expect_matches_reference(k, v, {n, n, n}, GetParam());
}

TEST_P(FloatGemmKernels, EveryVariantMatchesReferenceOnRectangularShapes) {
  CLOSURE_REQUIRE_DEVICE();
  FloatKernels k(*test_runtime(), GetParam().gemm, GetParam().book, GetParam().tuned);
  for (GemmVariant v : kGemmVariants)
    for (GemmShape s : kRectangular) expect_matches_reference(k, v, s, GetParam());
}

// C is a window of a larger buffer filled with a canary: no kernel may store outside it,
// whatever work-items its rounded-up NDRange adds.
TEST_P(FloatGemmKernels, StoresStayInsideTheResult) {
  CLOSURE_REQUIRE_DEVICE();
  auto& rt = *test_runtime();
  FloatKernels k(rt, GetParam().gemm, GetParam().book, GetParam().tuned);
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
  for (GemmVariant v : {GemmVariant::kMyGemm2, GemmVariant::kMatrixMulKernel, GemmVariant::kMyGemm1,
                        GemmVariant::kMyGemmTuned})
    expect_matches_reference(k, v, {999, 1000, 1001}, p);
}

// myGEMM_tuned alone with the sets the table above does not run: the H200-leaning default
// (compiled and checked on this device too, as far as it allows), float8 vectors, the CPU
// default and the last-resort set. Sizes at the 128 tiles' edges, non-square, and a
// product of whole tiles that must run without padding.
TEST(FloatGemmTuned, ParameterSetsMatchReferenceAtTileEdges) {
  CLOSURE_REQUIRE_DEVICE();
  auto& rt = *test_runtime();
  const SgemmTunedParams sets[] = {sgemm_tuned_gpu_default(),
                                   {64, 32, 16, 8, 4, 8, 8, 8, 1},
                                   sgemm_tuned_cpu_default(),
                                   kSgemmTunedMinimal};
  const GemmShape shapes[] = {{1, 1, 1},    {127, 129, 128}, {129, 17, 255},
                              {256, 31, 1}, {5, 300, 257},   {128, 48, 128}};
  for (const SgemmTunedParams& t : sets) {
    try {
      t.validate(rt.device());
    } catch (const Error& e) {
      ADD_FAILURE() << "the test device refuses " << t.to_string() << ": " << e.what();
      continue;
    }
    FloatKernels k(rt, {}, {}, t);
    const Params p{"Tuned", {}, {}, t};
    for (GemmShape s : shapes) expect_matches_reference(k, GemmVariant::kMyGemmTuned, s, p);
  }
}

// Whole tiles run in place; a ragged dimension pads exactly the operands it touches.
TEST(FloatGemmTuned, PadsOnlyRaggedOperands) {
  CLOSURE_REQUIRE_DEVICE();
  auto& rt = *test_runtime();
  const SgemmTunedParams t{32, 32, 8, 4, 4, 4, 4, 4, 1};
  SgemmTuned tuned(rt, t);
  FloatKernels k(rt, {}, {}, t);
  struct Case {
    GemmShape shape;
    size_t pads, unpads;
  };
  const Case cases[] = {{{64, 16, 96}, 0, 0},  // whole tiles
                        {{64, 17, 96}, 2, 0},  // K ragged: A and B padded, C in place
                        {{65, 16, 96}, 1, 1},  // M ragged: A and C
                        {{64, 16, 95}, 1, 1},  // N ragged: B and C
                        {{1, 1, 1}, 2, 1}};
  for (const Case& c : cases) {
    const GemmShape s = c.shape;
    const auto a = random_matrix(s.a_count(), 41), b = random_matrix(s.b_count(), 42);
    const cl::Buffer da = k.upload(a), db = k.upload(b);
    const cl::Buffer dc = k.upload(std::vector<float>(s.c_count()));
    const SgemmTunedRun run = tuned.multiply(s, da, db, dc);
    run.last().wait();
    EXPECT_EQ(run.pads.size(), c.pads) << s.m << "x" << s.k << "x" << s.n;
    EXPECT_EQ(run.unpads.size(), c.unpads) << s.m << "x" << s.k << "x" << s.n;
    EXPECT_GT(run.gemm_seconds(), 0);
    EXPECT_LE(max_relative_error(k.download(dc, s.c_count()), StorageOrder::kColumnMajor,
                                 reference_gemm(s, a, b, StorageOrder::kColumnMajor)),
              kTolerance)
        << s.m << "x" << s.k << "x" << s.n;
  }
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
  EXPECT_THROW(k.multiply(GemmVariant::kMyGemm2, {4, 4, 4}, small, small, small), InternalError);
  EXPECT_THROW(k.multiply(GemmVariant::kMyGemm2, {0, 4, 4}, small, small, small), UsageError);
  EXPECT_THROW(
      k.multiply(GemmVariant::kMmulRow, {2, 2, 2}, std::vector<float>(3), std::vector<float>(4)),
      InternalError);
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
  } catch (const Error& e) {  // usage (ranges, rules) or device (its limits)
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

// The H200's OpenCL limits (docs/benchmarks.md): 48 KiB of local memory, 1024 work-items.
ocl::DeviceInfo fake_h200() {
  ocl::DeviceInfo device;
  device.name = "fake NVIDIA H200";
  device.is_gpu = true;
  device.max_work_group = 1024;
  device.local_mem_bytes = 48 * 1024;
  return device;
}

TEST(FloatGemmTunedParams, GpuDefaultAndSweepGridValidateOnTheH200Limits) {
  const ocl::DeviceInfo h200 = fake_h200();
  EXPECT_EQ(sgemm_tuned_params_for(h200), sgemm_tuned_gpu_default());
  EXPECT_NO_THROW(sgemm_tuned_gpu_default().validate(h200));
  EXPECT_EQ(sgemm_tuned_gpu_default().group_items(), 256u);
  // A: TSK x TSM floats; B: TSN columns of TSK + PADB floats.
  EXPECT_EQ(sgemm_tuned_gpu_default().local_bytes(), 4u * (32 * 64 + 128 * (32 + 4)));
  const auto grid = sgemm_tuned_sweep_grid();
  EXPECT_GE(grid.size(), 24u);
  EXPECT_NE(std::find(grid.begin(), grid.end(), sgemm_tuned_gpu_default()), grid.end());
  for (const auto& p : grid) EXPECT_NO_THROW(p.validate(h200)) << p.to_string();
  // The launch of n = 8192: whole tiles, no padding, 128 x 64 groups of 16 x 16.
  const GemmShape big{8192, 8192, 8192};
  EXPECT_EQ(sgemm_tuned_gpu_default().padded(big).m, 8192u);
  EXPECT_EQ(sgemm_tuned_gpu_default().global_size(big)[0], 2048u);
  EXPECT_EQ(sgemm_tuned_gpu_default().local_size()[1], 16u);
}

TEST(FloatGemmTunedParams, DefaultsFollowTheDeviceAndStaySafe) {
  ocl::DeviceInfo cpu;
  cpu.name = "fake CPU";
  cpu.is_cpu = true;
  cpu.max_work_group = 4096;
  cpu.local_mem_bytes = 256 * 1024;
  EXPECT_EQ(sgemm_tuned_params_for(cpu), sgemm_tuned_cpu_default());
  // A small GPU that refuses both defaults gets the set that runs anywhere.
  ocl::DeviceInfo tiny = fake_h200();
  tiny.max_work_group = 64;
  tiny.local_mem_bytes = 2 * 1024;
  EXPECT_EQ(sgemm_tuned_params_for(tiny), kSgemmTunedMinimal);
  EXPECT_NO_THROW(kSgemmTunedMinimal.validate(tiny));
}

TEST(FloatGemmTunedParams, InvalidSetsAreRefusedWithTheRule) {
  const ocl::DeviceInfo h200 = fake_h200();
  // The rules are checked on top of one fixed set (128 x 128 x 16 tiles, 8 x 8 each).
  auto with = [](const char* text) {
    return parse_sgemm_tuned_params(text, SgemmTunedParams{128, 128, 16, 8, 8, 4, 4, 0, 0});
  };
  expect_refusal([&] { with("wptm=4,wptn=2").validate(h200); }, "2048 work-items");
  expect_refusal([&] { with("tsk=64").validate(h200); }, "local memory");
  expect_refusal([&] { with("tsm=100").validate(h200); }, "tsm must be a multiple of wptm");
  expect_refusal([&] { with("tsn=100").validate(h200); }, "tsn must be a multiple of wptn");
  expect_refusal([&] { with("vwm=3").validate(h200); }, "vwm and vwk must be 1, 2, 4 or 8");
  expect_refusal([&] { with("wptm=4,vwm=8").validate(h200); }, "wptm must be a multiple of vwm");
  expect_refusal([&] { with("tsk=6").validate(h200); }, "tsk must be a multiple of vwk");
  expect_refusal([&] { with("padb=2").validate(h200); }, "padb must be a multiple of vwk");
  expect_refusal([&] { with("tsm=256,wptm=16,wptn=16").validate(h200); }, "accumulators");
  expect_refusal([&] { with("tsk=0").validate(h200); }, "out of range");
  expect_refusal([&] { with("prf=2").validate(h200); }, "out of range");
}

TEST(FloatGemmTunedParams, RefusedBeforeCompilingOnTheTestDevice) {
  CLOSURE_REQUIRE_DEVICE();
  const auto& device = test_runtime()->device();
  // One element per work-item on 256 x 256 tiles: 65536 work-items, more than any device
  // allows.
  const SgemmTunedParams huge{256, 256, 8, 1, 1, 1, 1, 0, 0};
  expect_refusal([&] { FloatKernels(*test_runtime(), {}, {}, huge); }, device.name);
  expect_refusal([&] { SgemmTuned(*test_runtime(), huge); }, "65536 work-items");
}

TEST(FloatGemmTunedParams, ParsingAndBuildOptions) {
  const SgemmTunedParams base{128, 128, 16, 8, 8, 4, 4, 0, 0};
  EXPECT_EQ(parse_sgemm_tuned_params("tsm=64,padb=4,prf=1", base),
            (SgemmTunedParams{64, 128, 16, 8, 8, 4, 4, 4, 1}));
  EXPECT_THROW(parse_sgemm_tuned_params("tsx=64", {}), UsageError);
  EXPECT_THROW(parse_sgemm_tuned_params("tsm=", {}), UsageError);
  EXPECT_EQ(base.build_options(),
            "-cl-std=CL1.2 -DTSM=128 -DTSN=128 -DTSK=16 -DWPTM=8 -DWPTN=8 -DVWM=4 -DVWK=4 "
            "-DPADB=0 -DPRF=0");
  EXPECT_EQ(base.to_string(), "tsm=128,tsn=128,tsk=16,wptm=8,wptn=8,vwm=4,vwk=4,padb=0,prf=0");
  EXPECT_EQ(parse_sgemm_tuned_params(sgemm_tuned_gpu_default().to_string(), {}),
            sgemm_tuned_gpu_default());
  EXPECT_EQ(parse_sgemm_tuned_params(sgemm_tuned_cpu_default().to_string(), {}),
            sgemm_tuned_cpu_default());
  const GemmShape p = base.padded({1000, 1, 129});  // m, k, n
  EXPECT_EQ(p.m, 1024u);
  EXPECT_EQ(p.k, 16u);
  EXPECT_EQ(p.n, 256u);
}

TEST(FloatGemmParams, ParsingAndBuildOptions) {
  EXPECT_EQ(parse_float_gemm_params("ts=8,group=4"), (FloatGemmParams{8, 16, 4}));
  EXPECT_EQ(parse_book_mmul_params("private_k=512"), (BookMmulParams{250, 512}));
  EXPECT_THROW(parse_float_gemm_params("ts=8x"), UsageError);
  EXPECT_THROW(parse_float_gemm_params("tile=8"), UsageError);
  EXPECT_THROW(parse_book_mmul_params("row_group"), UsageError);
  EXPECT_EQ((FloatGemmParams{8, 32, 4}.build_options()), "-cl-std=CL1.2 -DTS=8 -DTILE_WIDTH=32");
  EXPECT_EQ((BookMmulParams{64, 100}.build_options()), "-cl-std=CL1.2 -DPRIVATE_K=100");
}

}  // namespace
}  // namespace closure
