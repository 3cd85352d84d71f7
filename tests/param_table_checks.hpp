// The checks of a parameter table against its kernel file, shared by the Boolean families'
// tests (tests/test_param_tables.cpp) and the float GEMM families' (tests/gemm/).
#pragma once

#include <gtest/gtest.h>

#include <regex>
#include <set>
#include <string>
#include <vector>

#include "closure/kernels/param_table.hpp"
#include "closure/ocl/kernel_source.hpp"
#include "closure/ocl/runtime.hpp"
#include "test_support.hpp"

namespace closure::testing {

// Macros a kernel file defaults with "#ifndef X / #define X": its tunables.
inline std::set<std::string> kernel_tunables(const std::string& source) {
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

// The host's local-memory sizes (what validate refuses on) are what the compiled kernels
// declare. PoCL reports exactly that; NVIDIA's driver adds a few bytes of its own (4 to
// 16 seen on the H200), so up to 64 more are allowed.
inline void expect_local(cl_ulong reported, size_t host, const std::string& what) {
  EXPECT_GE(reported, host) << what;
  EXPECT_LE(reported, host + 64) << what;
}

}  // namespace closure::testing
