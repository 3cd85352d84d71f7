// Template part of ocl/error.hpp (needs the bindings' exception types).
#pragma once

#include <CL/opencl.hpp>

namespace closure::ocl {

template <class F>
auto checked(const char* what, F&& f) -> decltype(f()) {
  try {
    return f();
  } catch (const cl::BuildError& e) {
    std::string log;
    for (const auto& [device, text] : e.getBuildLog()) log += text;
    throw Error(std::string(what) + ": " + e.what(), e.err(), log);
  } catch (const cl::Error& e) {
    // The device's memory (or the host's, for a CPU device) ran out: exit 4 as any
    // allocation's, said as such, with the method that needs less.
    if (e.err() == CL_MEM_OBJECT_ALLOCATION_FAILURE || e.err() == CL_OUT_OF_HOST_MEMORY)
      throw OutOfMemoryError(
          std::string(what) + ": out of memory (" + e.what() + ": " + error_name(e.err()) + ")",
          Advice::kSparseMethod);
    throw Error(std::string(what) + ": " + e.what(), e.err());
  }
}

}  // namespace closure::ocl
