// Kernel sources: embedded at build time from kernels/*.cl, or read from the folder that
// CLOSURE_KERNEL_PATH names (for editing kernels without rebuilding).
#pragma once

#include <span>
#include <string>
#include <string_view>
#include <utility>

#include "closure/config.hpp"

namespace closure::ocl {

inline constexpr const char* kKernelPathEnv = config::kKernelPath;

// Source text of kernels/<file> (e.g. "boolean_mul.cl"), each line `#include "x.cl"` (a
// shared header: gpuword.cl) replaced by that file's text, once; throws if there is none.
std::string kernel_source(const std::string& file);

// A library's embedded kernels (name, text), as cmake/embed_kernels.cmake writes them.
using KernelTable = std::span<const std::pair<std::string_view, std::string_view>>;
// Makes `table` findable by kernel_source beside the product's own kernels: a library beside
// the product (the float GEMM family) embeds its kernels itself and adds them before use.
// Adding the same table again does nothing.
void add_kernel_table(KernelTable table);

}  // namespace closure::ocl
