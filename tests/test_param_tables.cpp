// The parameter tables against the kernels: every tunable macro of a .cl file has a row,
// every row's default is the kernel's own #define (evaluated by compiling the source with
// no options), the local memory the host refuses on is what the compiled kernel uses,
// and the tuning database's rows parse and are searched device, vendor, type, default.
// The Boolean families here; the float GEMM ones in tests/gemm/test_gemm_param_tables.cpp.
#include <gtest/gtest.h>
#include <unistd.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <string>

#include "closure/errors.hpp"
#include "closure/kernels/boolean_kernels.hpp"
#include "closure/kernels/boolean_mma.hpp"
#include "closure/kernels/propagate_params.hpp"
#include "closure/kernels/tuning.hpp"
#include "closure/kernels/tuning_database.hpp"
#include "param_table_checks.hpp"
#include "test_support.hpp"

namespace closure {
namespace {

using testing::expect_kernel_defaults_match;
using testing::expect_local;
using testing::expect_table_covers_kernel;
using testing::test_runtime;

TEST(ParamTables, EveryKernelTunableHasARowAndEveryRowAMacro) {
  expect_table_covers_kernel<BooleanParams>();
  expect_table_covers_kernel<MmaParams>();
  expect_table_covers_kernel<PropagateParams>();
}

TEST(ParamTables, KernelDefaultsAreTheTableDefaults) {
  CLOSURE_REQUIRE_DEVICE();
  expect_kernel_defaults_match<BooleanParams>();
  expect_kernel_defaults_match<MmaParams>();
  expect_kernel_defaults_match<PropagateParams>();
}

TEST(ParamTables, RenderParseAndRefuseFromTheTable) {
  const BooleanParams p{4, 2, 8, 0};
  EXPECT_EQ(p.to_string(), "tile_n=4,tile_m=2,tile_w=8,tile_k=8");
  EXPECT_EQ(p.build_options(), "-cl-std=CL1.2 -Dtile_n=4 -DTILE_M=2 -DTILE_W=8 -DTILE_K=8");
  EXPECT_EQ(parse_boolean_params(p.to_string()), p);
  // One key=value parser for every family (param_text.hpp): a stray comma, a missing '=',
  // a non-number and an unknown key are each refused.
  for (const char* bad :
       {"tile_n=4,", "tile_n=4,,tile_m=2", ",tile_n=4", "tile_n", "tile_n=x", "tile_q=1"})
    EXPECT_THROW(parse_boolean_params(bad), UsageError) << bad;
  const MmaParams m{};
  EXPECT_EQ(parse_mma_params(m.to_string(), MmaParams{16, 32, 1, 1, 1, 1, 3}), m);
  EXPECT_NE(m.build_options(false).find("-DMMA_STAGES=0"), std::string::npos);
  EXPECT_NE(m.build_options(true).find("-DMMA_PTX=1"), std::string::npos);
  ocl::DeviceInfo big;
  big.max_work_group = 1 << 20;
  big.local_mem_bytes = size_t(1) << 30;
  try {
    MmaParams{64, 64, 2, 2, 2, 16, 2}.validate(big);
    FAIL() << "stages=2 accepted";
  } catch (const UsageError& e) {  // out of the table's range: the user's value
    EXPECT_NE(std::string(e.what()).find("stages 0/3/4"), std::string::npos) << e.what();
    EXPECT_NE(std::string(e.what()).find("warp_m 16/32/64/128"), std::string::npos) << e.what();
  }
}

TEST(ParamTables, LocalMemoryIsWhatTheKernelsDeclare) {
  CLOSURE_REQUIRE_DEVICE();
  ocl::Runtime& rt = *test_runtime();
  auto local_of = [&](const char* file, const std::string& options, const char* name) {
    cl::Kernel k = rt.kernel(file, options, name);
    return k.getWorkGroupInfo<CL_KERNEL_LOCAL_MEM_SIZE>(rt.device().device);
  };
  for (const BooleanParams& p : {BooleanParams{2, 2}, BooleanParams{1, 1, 3, 3}}) {
    expect_local(local_of("boolean_mul.cl", p.build_options(), "clcubic_mul"), p.local_bytes(),
                 p.to_string());
    expect_local(local_of("boolean_mul.cl", p.build_options(), "clutri_mul"), p.local_bytes(),
                 p.to_string());
  }
  const MmaParams mma{32, 32, 1, 1, 1, 4, 0};
  expect_local(local_of("boolean_mma.cl", mma.build_options(false), "mma_mul"), mma.local_bytes(),
               mma.to_string());
}

TEST(TuningDatabase, BuiltInRowsParseAndValidateForEveryFamily) {
  const ocl::DeviceInfo h200 = testing::h200_description();
  ::setenv(kTuningEnv, "off", 1);
  EXPECT_EQ(tuned_boolean_params(h200), (BooleanParams{4, 4, 8, 4}));
  EXPECT_EQ(tuned_params<MmaParams>(h200), MmaParams{});
  ocl::DeviceInfo other = h200;
  other.name = "GeForce something";
  EXPECT_EQ(tuned_boolean_params(other), (BooleanParams{4, 4, 8, 4}));  // by vendor
  other.vendor = "Someone";
  EXPECT_EQ(tuned_boolean_params(other), (BooleanParams{2, 2}));  // the default row
  ::unsetenv(kTuningEnv);
  EXPECT_THROW(parse_tuning_rows("boolean device=x", "t"), UsageError);
  EXPECT_THROW(parse_tuning_rows("boolean gpu tile_n=2", "t"), UsageError);
  EXPECT_THROW(parse_tuning_rows("boolean device=\"a b tile_n=2", "t"), UsageError);
  const auto rows = parse_tuning_rows("# c\nmma  device=\"NVIDIA H200\"  warp_m=32 # why\n", "t");
  ASSERT_EQ(rows.size(), 1u);
  EXPECT_EQ(rows[0].match, "NVIDIA H200");
  EXPECT_EQ(rows[0].match_text(), "device=\"NVIDIA H200\"");
  EXPECT_EQ(rows[0].where, "t:2");
}

// A sweep's row lands in the overlay and wins over the built-in table, without C++; a
// second save replaces it; a broken overlay row is an error naming its line.
TEST(TuningDatabase, OverlayRowsComeFirstAndReplaceTheirMatch) {
  const std::string path = (std::filesystem::temp_directory_path() /
                            ("closure_tuning_test_" + std::to_string(::getpid()) + ".txt"))
                               .string();
  std::filesystem::remove(path);
  ::setenv(kTuningEnv, path.c_str(), 1);
  ocl::DeviceInfo d;
  d.name = "Imaginary GPU 9000";
  d.vendor = "NVIDIA Corporation";
  d.is_gpu = true;
  d.max_work_group = 1024;
  d.local_mem_bytes = 48 * 1024;
  EXPECT_EQ(tuned_boolean_params(d), (BooleanParams{4, 4, 8, 4}));
  save_tuning_row(device_tuning_row(BooleanParams{1, 2, 4, 2}, d), "first sweep");
  EXPECT_EQ(tuned_boolean_params(d), (BooleanParams{1, 2, 4, 2}));
  save_tuning_row(device_tuning_row(BooleanParams{2, 1, 2, 2}, d), "second sweep");
  save_tuning_row(device_tuning_row(MmaParams{32, 32, 1, 1, 1, 4, 3}, d), "");
  EXPECT_EQ(tuned_boolean_params(d), (BooleanParams{2, 1, 2, 2}));
  EXPECT_EQ(tuned_params<MmaParams>(d), (MmaParams{32, 32, 1, 1, 1, 4, 3}));  // stages kept
  std::ifstream in(path);
  const std::string text((std::istreambuf_iterator<char>(in)), {});
  EXPECT_EQ(text.find("first sweep"), std::string::npos) << text;
  EXPECT_NE(text.find("# second sweep\nboolean  device=\"Imaginary GPU 9000\"  tile_n=2"),
            std::string::npos)
      << text;
  std::ofstream(path) << "boolean vendor=NVIDIA tile_q=1\n";
  try {
    tuned_boolean_params(d);
    FAIL() << "a broken row was accepted";
  } catch (const UsageError& e) {  // the overlay file is the user's
    EXPECT_NE(std::string(e.what()).find(path + ":"), std::string::npos) << e.what();
  }
  ::unsetenv(kTuningEnv);
  std::filesystem::remove(path);
}

}  // namespace
}  // namespace closure
