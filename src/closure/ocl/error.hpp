// OpenCL failures as one exception type carrying the call, the error's name and, for
// program builds, the build log and options.
#pragma once

#include <string>

#include "closure/errors.hpp"

namespace closure::ocl {

// Symbolic name of an OpenCL status code ("CL_OUT_OF_RESOURCES"), or the number.
std::string error_name(int code);

// Of the device kind (closure/errors.hpp): exit status 4, closure.DeviceError in Python.
class Error : public DeviceError {
 public:
  Error(std::string call, int code, std::string build_log = {}, std::string options = {});
  const std::string& call() const { return call_; }
  int code() const { return code_; }
  const std::string& build_log() const { return build_log_; }

 private:
  std::string call_;
  int code_;
  std::string build_log_;
};

// Runs `f`, turning cl::Error / cl::BuildError from the C++ bindings into ocl::Error.
template <class F>
auto checked(const char* what, F&& f) -> decltype(f());

}  // namespace closure::ocl

#include "closure/ocl/error_impl.hpp"
