// Kernel sources: embedded at build time from kernels/*.cl, or read from the folder that
// CLOSURE_KERNEL_PATH names (for editing kernels without rebuilding).
#pragma once

#include <string>

#include "closure/config.hpp"

namespace closure::ocl {

inline constexpr const char* kKernelPathEnv = config::kKernelPath;

// Source text of kernels/<file> (e.g. "boolean_mul.cl"), each line `#include "x.cl"` (a
// shared header: gpuword.cl) replaced by that file's text, once; throws if there is none.
std::string kernel_source(const std::string& file);

}  // namespace closure::ocl
