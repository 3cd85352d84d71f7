// The error model: every failure the library reports has a kind, and the kind alone
// decides the CLI's exit status (src/cli/report_failure.cpp is the one mapping):
//   usage    2  a bad option value or a refused combination of options or targets
//   input    3  unreadable or malformed input (InputError, "FILE:LINE: message")
//   resource 4  not enough memory, an output over --max-output, an I/O failure
//   device   4  OpenCL failures (ocl::Error) and devices that cannot run the work
//   internal 4  a broken invariant: a bug, reported as "internal error", never as usage
// Standard exceptions that reach the CLI unwrapped are classified there too:
// std::bad_alloc is a resource failure, std::logic_error (invalid_argument,
// out_of_range, ...) an internal one: code that rejects a user's value must say so by
// throwing UsageError (the CLI wraps its parsers with as_usage_error).
#pragma once

#include <exception>
#include <stdexcept>
#include <string>

namespace closure {

enum class ErrorKind { kUsage, kInput, kResource, kDevice, kInternal };

class Error : public std::runtime_error {
 public:
  Error(ErrorKind kind, const std::string& what) : std::runtime_error(what), kind_(kind) {}
  ErrorKind kind() const { return kind_; }

 private:
  ErrorKind kind_;
};

class UsageError : public Error {
 public:
  explicit UsageError(const std::string& what) : Error(ErrorKind::kUsage, what) {}
};

// Memory, disk, size limits, I/O.
class ResourceError : public Error {
 public:
  explicit ResourceError(const std::string& what) : Error(ErrorKind::kResource, what) {}
};

class DeviceError : public Error {
 public:
  explicit DeviceError(const std::string& what) : Error(ErrorKind::kDevice, what) {}
};

class InternalError : public Error {
 public:
  explicit InternalError(const std::string& what) : Error(ErrorKind::kInternal, what) {}
};

// The kind of any exception: closure::Error by its kind, InputError input, ocl::Error
// device, std::bad_alloc resource, std::logic_error internal, anything else resource
// (I/O and system failures).
ErrorKind classify(const std::exception& e);

}  // namespace closure
