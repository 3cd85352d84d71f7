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
    throw Error(std::string(what) + ": " + e.what(), e.err());
  }
}

}  // namespace closure::ocl
