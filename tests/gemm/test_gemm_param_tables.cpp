// The float GEMM families' parameter tables against their kernels (the checks of
// tests/param_table_checks.hpp, as tests/test_param_tables.cpp runs them for the Boolean
// families) and myGEMM_tuned's row of the tuning database.
#include <gtest/gtest.h>

#include <cstdlib>
#include <string>

#include "closure/kernels/tuning_database.hpp"
#include "gemm/float_params.hpp"
#include "gemm/gemm_tables.hpp"
#include "gemm/sgemm_tuned_params.hpp"
#include "param_table_checks.hpp"
#include "test_support.hpp"

namespace closure {
namespace {

using testing::expect_kernel_defaults_match;
using testing::expect_local;
using testing::expect_table_covers_kernel;
using testing::test_runtime;

// The family's kernels and rows are its own, known once it adds them (every entry point of
// src/gemm does so first; these tests read the tables directly).
class GemmTables : public ::testing::Environment {
 public:
  void SetUp() override { use_gemm_tables(); }
};
const ::testing::Environment* const kGemmTables =
    ::testing::AddGlobalTestEnvironment(new GemmTables);

TEST(GemmParamTables, EveryKernelTunableHasARowAndEveryRowAMacro) {
  expect_table_covers_kernel<SgemmTunedParams>();
  expect_table_covers_kernel<FloatGemmParams>();
  expect_table_covers_kernel<BookMmulParams>();
}

TEST(GemmParamTables, KernelDefaultsAreTheTableDefaults) {
  CLOSURE_REQUIRE_DEVICE();
  expect_kernel_defaults_match<SgemmTunedParams>();
  expect_kernel_defaults_match<FloatGemmParams>();
  expect_kernel_defaults_match<BookMmulParams>();
}

TEST(GemmParamTables, RenderFromTheTable) {
  // Launch-only values (group) are in the text but not in the build options.
  EXPECT_EQ(FloatGemmParams{}.to_string(), "ts=16,tile_width=16,group=16");
  EXPECT_EQ(FloatGemmParams{}.build_options(), "-cl-std=CL1.2 -DTS=16 -DTILE_WIDTH=16");
}

TEST(GemmParamTables, LocalMemoryIsWhatTheKernelsDeclare) {
  CLOSURE_REQUIRE_DEVICE();
  ocl::Runtime& rt = *test_runtime();
  auto local_of = [&](const char* file, const std::string& options, const char* name) {
    cl::Kernel k = rt.kernel(file, options, name);
    return k.getWorkGroupInfo<CL_KERNEL_LOCAL_MEM_SIZE>(rt.device().device);
  };
  for (const SgemmTunedParams& p : {SgemmTunedParams{}, kSgemmTunedMinimal}) {
    if (p.group_items() > rt.device().max_work_group) continue;
    expect_local(local_of("sgemm_tuned.cl", p.build_options(), "myGEMM_tuned"), p.local_bytes(),
                 p.to_string());
  }
  const BookMmulParams book{64, 512};
  expect_local(local_of("book_mmul.cl", book.build_options(), "mmul_row_private_local"),
               book.local_bytes(), book.to_string());
}

TEST(GemmTuningDatabase, BuiltInSgemmRowParsesAndValidates) {
  const ocl::DeviceInfo h200 = testing::h200_description();
  ::setenv(kTuningEnv, "off", 1);
  EXPECT_EQ(sgemm_tuned_params_for(h200), sgemm_tuned_gpu_default());
  ::unsetenv(kTuningEnv);
}

}  // namespace
}  // namespace closure
