// Shared test fixtures: the OpenCL runtime the kernel tests run on (CLOSURE_DEVICE or the
// default device: PoCL in CI), and fixed-seed random inputs.
#pragma once

#include <gtest/gtest.h>

#include <memory>

#include "closure/ocl/device.hpp"
#include "closure/ocl/runtime.hpp"

namespace closure::testing {

// One runtime for the whole test binary (programs stay cached across tests); null when
// the machine has no OpenCL device at all.
inline ocl::Runtime* test_runtime() {
  static std::unique_ptr<ocl::Runtime> runtime = [] {
    auto device = ocl::choose_device("");
    return device ? std::make_unique<ocl::Runtime>(*device) : nullptr;
  }();
  return runtime.get();
}

#define CLOSURE_REQUIRE_DEVICE() \
  if (!::closure::testing::test_runtime()) GTEST_SKIP() << "no OpenCL device"

// The awkward sizes every kernel is checked on.
inline constexpr size_t kAwkwardSizes[] = {1, 7, 31, 32, 33, 63, 65, 100, 257, 1000};

}  // namespace closure::testing
