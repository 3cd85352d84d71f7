// The error model: every failure the library reports has a kind, and the kind alone
// decides the CLI's exit status and the Python exception class (kErrorTable below is the
// one mapping; src/cli/report_failure.cpp and python/src/errors.cpp both read it):
//   usage    2  a bad option value or a refused combination of options or targets
//   input    3  unreadable or malformed input (InputError, graph/input_error.hpp:
//               "FILE:LINE: message")
//   resource 4  not enough memory, an output over --max-output, an I/O failure
//   device   4  OpenCL failures (ocl::Error, ocl/error.hpp) and devices that cannot run the
//               work
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

// Memory that a method, a reader or a thread could not get; the message names what was
// being built and how large.
class OutOfMemoryError : public ResourceError {
 public:
  using ResourceError::ResourceError;
};

class DeviceError : public Error {
 public:
  explicit DeviceError(const std::string& what) : Error(ErrorKind::kDevice, what) {}
};

class InternalError : public Error {
 public:
  explicit InternalError(const std::string& what) : Error(ErrorKind::kInternal, what) {}
};

// What each kind becomes: the CLI's exit status, the class the Python module raises
// (defined in python/closure/_errors.py; OutOfMemoryError is the resource kind's class
// for memory) and the HTTP status `closure serve` answers (a resource failure there is the
// server's storage or memory: 507 for a journal that cannot be written, 503 otherwise).
struct ErrorKindInfo {
  ErrorKind kind;
  const char* name;
  int exit_status;
  const char* python_class;
  int http_status;
};
inline constexpr ErrorKindInfo kErrorTable[] = {
    {ErrorKind::kUsage, "usage", 2, "UsageError", 400},
    {ErrorKind::kInput, "input", 3, "InputError", 400},
    {ErrorKind::kResource, "resource", 4, "ResourceError", 503},
    {ErrorKind::kDevice, "device", 4, "DeviceError", 503},
    {ErrorKind::kInternal, "internal", 4, "InternalError", 500},
};
constexpr const ErrorKindInfo& info_of(ErrorKind kind) {
  for (const auto& row : kErrorTable)
    if (row.kind == kind) return row;
  return kErrorTable[4];
}

// The kind of any exception: closure::Error (InputError and ocl::Error included) by its
// kind, std::bad_alloc resource, std::logic_error internal, anything else resource (I/O and
// system failures).
ErrorKind classify(const std::exception& e);

// "1.25 GB"-style rendering of a size, for messages.
std::string format_bytes(double bytes);

}  // namespace closure
