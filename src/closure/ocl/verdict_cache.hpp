// Verdicts about compiled programs (e.g. "the tensor-core product is right on this
// device"), cached like the programs themselves: in memory for the process and on disk
// beside the binaries, keyed by the same hash of platform, device, driver, options and
// source, so a self-check runs once per device and driver, not once per engine or file.
#pragma once

#include <functional>
#include <string>

#include "closure/ocl/runtime.hpp"

namespace closure::ocl {

// Runs check() unless a verdict for (this device, kernels/<file> built with `options`,
// `what`) is known. Passing verdicts are kept on disk ("<key>.<what>.ok" in the program
// cache folder); failing ones only in memory, so a transient failure is retried by the
// next process. Thread-safe; check() runs outside the lock.
bool cached_verdict(const Runtime& runtime, const std::string& file, const std::string& options,
                    const std::string& what, const std::function<bool()>& check);

// How many verdicts were computed (check() called) in this process: tests use it.
int verdicts_computed();

}  // namespace closure::ocl
