// The parameter tables against the kernels: every tunable macro of a .cl file has a row,
// every row's default is the kernel's own #define (evaluated by compiling the source with
// no options), the local memory the host refuses on is what the compiled kernel uses,
// and the tuning database's rows parse and are searched device, vendor, type, default.
#include <gtest/gtest.h>
#include <unistd.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <regex>
#include <set>
#include <string>

#include "closure/kernels/boolean_kernels.hpp"
#include "closure/kernels/boolean_mma.hpp"
#include "closure/kernels/float_params.hpp"
#include "closure/kernels/propagate_params.hpp"
#include "closure/kernels/sgemm_tuned_params.hpp"
#include "closure/kernels/tuning.hpp"
#include "closure/kernels/tuning_database.hpp"
#include "closure/ocl/kernel_source.hpp"
#include "test_support.hpp"

namespace closure {
namespace {

using testing::test_runtime;

// Macros a kernel file defaults with "#ifndef X / #define X": its tunables.
std::set<std::string> kernel_tunables(const std::string& source) {
  std::set<std::string> out;
  const std::regex guard(R"(#ifndef\s+(\w+)\s*\n(?:\s*//[^\n]*\n)*\s*#define\s+(\w+))");
  for (std::sregex_iterator it(source.begin(), source.end(), guard), end; it != end; ++it)
    if ((*it)[1] == (*it)[2]) out.insert((*it)[1]);
  return out;
}

template <class P>
void expect_table_covers_kernel() {
  const std::string source = ocl::kernel_source(ParamTable<P>::kernel_file);
  std::set<std::string> table;
  for (const auto& f : ParamTable<P>::fields)
    if (*f.macro) table.insert(f.macro);
  EXPECT_EQ(kernel_tunables(source), table) << ParamTable<P>::kernel_file;
}

TEST(ParamTables, EveryKernelTunableHasARowAndEveryRowAMacro) {
  expect_table_covers_kernel<BooleanParams>();
  expect_table_covers_kernel<MmaParams>();
  expect_table_covers_kernel<SgemmTunedParams>();
  expect_table_covers_kernel<FloatGemmParams>();
  expect_table_covers_kernel<BookMmulParams>();
  expect_table_covers_kernel<PropagateParams>();
}

// Compiles the kernel file with no -D options plus a probe kernel that writes each table
// macro's value, and compares with the table's defaults (derived ones resolved).
template <class P>
void expect_kernel_defaults_match() {
  ocl::Runtime& rt = *test_runtime();
  std::string probe = "\n__kernel void param_table_probe(__global int* out) {\n";
  std::vector<const ParamField<P>*> fields;
  for (const auto& f : ParamTable<P>::fields)
    if (*f.macro) {
      probe += "  out[" + std::to_string(fields.size()) + "] = " + f.macro + ";\n";
      fields.push_back(&f);
    }
  probe += "}\n";
  const std::string source = ocl::kernel_source(ParamTable<P>::kernel_file) + probe;
  cl::Program program(rt.context(), source);
  try {
    program.build({rt.device().device}, "-cl-std=CL1.2");
  } catch (const cl::Error&) {
    FAIL() << ParamTable<P>::kernel_file << " does not build with its defaults:\n"
           << program.getBuildInfo<CL_PROGRAM_BUILD_LOG>(rt.device().device);
  }
  cl::Kernel kernel(program, "param_table_probe");
  cl::Buffer out(rt.context(), CL_MEM_READ_WRITE, fields.size() * sizeof(cl_int));
  kernel.setArg(0, out);
  rt.queue().enqueueNDRangeKernel(kernel, cl::NullRange, cl::NDRange(1), cl::NullRange);
  std::vector<cl_int> got(fields.size());
  rt.queue().enqueueReadBuffer(out, CL_TRUE, 0, got.size() * sizeof(cl_int), got.data());
  const P defaults = resolved_params(P{});
  for (size_t i = 0; i < fields.size(); ++i)
    EXPECT_EQ(got[i], defaults.*(fields[i]->member))
        << ParamTable<P>::kernel_file << ": " << fields[i]->macro << " defaults differ";
}

TEST(ParamTables, KernelDefaultsAreTheTableDefaults) {
  CLOSURE_REQUIRE_DEVICE();
  expect_kernel_defaults_match<BooleanParams>();
  expect_kernel_defaults_match<MmaParams>();
  expect_kernel_defaults_match<SgemmTunedParams>();
  expect_kernel_defaults_match<FloatGemmParams>();
  expect_kernel_defaults_match<BookMmulParams>();
  expect_kernel_defaults_match<PropagateParams>();
}

TEST(ParamTables, RenderParseAndRefuseFromTheTable) {
  const BooleanParams p{4, 2, 8, 0};
  EXPECT_EQ(p.to_string(), "tile_n=4,tile_m=2,tile_w=8,tile_k=8");
  EXPECT_EQ(p.build_options(), "-cl-std=CL1.2 -Dtile_n=4 -DTILE_M=2 -DTILE_W=8 -DTILE_K=8");
  EXPECT_EQ(parse_boolean_params(p.to_string()), p);
  const MmaParams m{};
  EXPECT_EQ(parse_mma_params(m.to_string(), MmaParams{16, 32, 1, 1, 1, 1, 3}), m);
  EXPECT_NE(m.build_options(false).find("-DMMA_STAGES=0"), std::string::npos);
  EXPECT_NE(m.build_options(true).find("-DMMA_PTX=1"), std::string::npos);
  // Launch-only values (group) are in the text but not in the build options.
  EXPECT_EQ(FloatGemmParams{}.to_string(), "ts=16,tile_width=16,group=16");
  EXPECT_EQ(FloatGemmParams{}.build_options(), "-cl-std=CL1.2 -DTS=16 -DTILE_WIDTH=16");
  ocl::DeviceInfo big;
  big.max_work_group = 1 << 20;
  big.local_mem_bytes = size_t(1) << 30;
  try {
    MmaParams{64, 64, 2, 2, 2, 16, 2}.validate(big);
    FAIL() << "stages=2 accepted";
  } catch (const std::invalid_argument& e) {
    EXPECT_NE(std::string(e.what()).find("stages 0/3/4"), std::string::npos) << e.what();
    EXPECT_NE(std::string(e.what()).find("warp_m 16/32/64/128"), std::string::npos) << e.what();
  }
}

// The host's local-memory sizes (what validate refuses on) are what the compiled kernels
// declare. PoCL reports exactly that; NVIDIA's driver adds a few bytes of its own (4 to
// 16 seen on the H200), so up to 64 more are allowed.
void expect_local(cl_ulong reported, size_t host, const std::string& what) {
  EXPECT_GE(reported, host) << what;
  EXPECT_LE(reported, host + 64) << what;
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
  for (const SgemmTunedParams& p : {SgemmTunedParams{}, kSgemmTunedMinimal}) {
    if (p.group_items() > rt.device().max_work_group) continue;
    expect_local(local_of("sgemm_tuned.cl", p.build_options(), "myGEMM_tuned"), p.local_bytes(),
                 p.to_string());
  }
  const BookMmulParams book{64, 512};
  expect_local(local_of("book_mmul.cl", book.build_options(), "mmul_row_private_local"),
               book.local_bytes(), book.to_string());
  const MmaParams mma{32, 32, 1, 1, 1, 4, 0};
  expect_local(local_of("boolean_mma.cl", mma.build_options(false), "mma_mul"), mma.local_bytes(),
               mma.to_string());
}

TEST(TuningDatabase, BuiltInRowsParseAndValidateForEveryFamily) {
  ocl::DeviceInfo h200;
  h200.name = "NVIDIA H200";
  h200.vendor = "NVIDIA Corporation";
  h200.is_gpu = true;
  h200.max_work_group = 1024;
  h200.local_mem_bytes = 48 * 1024;
  ::setenv(kTuningEnv, "off", 1);
  EXPECT_EQ(tuned_boolean_params(h200), (BooleanParams{4, 4, 8, 4}));
  EXPECT_EQ(tuned_params<MmaParams>(h200), MmaParams{});
  EXPECT_EQ(sgemm_tuned_params_for(h200), kSgemmTunedGpuDefault);
  ocl::DeviceInfo other = h200;
  other.name = "GeForce something";
  EXPECT_EQ(tuned_boolean_params(other), (BooleanParams{4, 4, 8, 4}));  // by vendor
  other.vendor = "Someone";
  EXPECT_EQ(tuned_boolean_params(other), (BooleanParams{2, 2}));  // the default row
  ::unsetenv(kTuningEnv);
  EXPECT_THROW(parse_tuning_rows("boolean device=x", "t"), std::invalid_argument);
  EXPECT_THROW(parse_tuning_rows("boolean gpu tile_n=2", "t"), std::invalid_argument);
  EXPECT_THROW(parse_tuning_rows("boolean device=\"a b tile_n=2", "t"), std::invalid_argument);
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
  } catch (const std::invalid_argument& e) {
    EXPECT_NE(std::string(e.what()).find(path + ":"), std::string::npos) << e.what();
  }
  ::unsetenv(kTuningEnv);
  std::filesystem::remove(path);
}

}  // namespace
}  // namespace closure
