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
//   cancelled 4 a caller's CancelToken stopped the work (Cancelled, util/cancel.hpp; Python
//               raises a KeyboardInterrupt)
//   output closed 0  the reader of a stream output went away (OutputClosedError,
//               io/atomic_file.hpp): the CLI stops quietly, as cat does on EPIPE
// The library and the CLI throw only these kinds (and std::bad_alloc, a resource failure);
// ctest house.one_error_convention keeps other standard throws out of src/ and python/src/. A
// standard exception that still reaches a front end (from the standard library or a
// dependency) is classified too: std::logic_error internal, anything else resource.
#pragma once

#include <exception>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

namespace closure {

enum class ErrorKind { kUsage, kInput, kResource, kDevice, kInternal, kCancelled, kOutputClosed };

// A way on that an error suggests, kept apart from its message so that each front end says it
// in its own terms: the CLI as flags, Python as keywords, the C++ API as its names
// (advice_text holds the three texts of each; a library message never names one front end's
// spelling). `subject` fills the blank some of them have: a path, a delimiter.
enum class Advice {
  kNone,
  kSparseMethod,     // a method that fits: sparse
  kHostDevice,       // the host instead of an OpenCL device
  kAdjlistFormat,    // read the file as an adjacency list
  kDelimiter,        // read delimited text split on `subject`
  kHeaderRow,        // say whether the first row is a header
  kForceOutput,      // write an output over its size limit anyway
  kNoRoomForOutput,  // an output larger than its file system's free space: elsewhere
  kFewerSources,     // a sampled verification from fewer sources
  kQuotingFormat,    // labels with blanks: an output format that quotes them
  kEscapingFormat,   // labels with line breaks: an output format that escapes them
  kWithoutClosure,   // answer reachability from an index instead (subject: the input's path)
  kOneThread,        // run on one host thread (a thread that could not start)
};
enum class Audience { kCpp, kCli, kPython };
// "; try --method sparse", "; try method='sparse'", ...: what `advice` appends to a message
// for `audience` ("" for kNone).
std::string advice_text(Advice advice, Audience audience, const std::string& subject = "");
// The advice's own words in `audience`'s terms ("try --method sparse"), without "; " and
// with its subject's blank unfilled; "" for kNone. Static text: for a message composed where
// memory may have run out (util/resource_failure.hpp).
const char* advice_words(Advice advice, Audience audience);

// What a warning says: the same parts as an error's, said to each front end in its terms.
struct Warning {
  std::string message;
  Advice advice = Advice::kNone;
  std::string subject;
  std::string said_to(Audience audience) const {
    return message + advice_text(advice, audience, subject);
  }
};

class Error : public std::runtime_error {
 public:
  Error(ErrorKind kind, const std::string& what, Advice advice = Advice::kNone,
        std::string subject = "")
      : std::runtime_error(what), kind_(kind), plain_(what) {
    add_advice(advice, std::move(subject));
  }
  ErrorKind kind() const { return kind_; }
  // The C++ reader's text: said_to(Audience::kCpp).
  const char* what() const noexcept override { return cpp_.c_str(); }
  // The message as `audience` reads it: the plain text, then each advice in its terms.
  std::string said_to(Audience audience) const { return plain_ + advice_said_to(audience); }
  // The advice alone in `audience`'s terms ("" when there is none).
  std::string advice_said_to(Audience audience) const {
    std::string out;
    for (const auto& [advice, subject] : advice_) out += advice_text(advice, audience, subject);
    return out;
  }
  // A further way on, added where it is known (a run adds the index way, naming the file).
  void add_advice(Advice advice, std::string subject = "") {
    if (advice == Advice::kNone) return;
    advice_.emplace_back(advice, std::move(subject));
    cpp_ = said_to(Audience::kCpp);
  }
  bool has_advice(Advice advice) const {
    for (const auto& a : advice_)
      if (a.first == advice) return true;
    return false;
  }
  // Names the subject of `advice` where it was left empty (the input's path, known higher up).
  void name_subject(Advice advice, const std::string& subject) {
    for (auto& a : advice_)
      if (a.first == advice && a.second.empty()) a.second = subject;
    cpp_ = said_to(Audience::kCpp);
  }

 private:
  ErrorKind kind_;
  std::string plain_;
  std::vector<std::pair<Advice, std::string>> advice_;
  std::string cpp_ = plain_;
};

class UsageError : public Error {
 public:
  explicit UsageError(const std::string& what, Advice advice = Advice::kNone,
                      std::string subject = "")
      : Error(ErrorKind::kUsage, what, advice, std::move(subject)) {}
};

// Memory, disk, size limits, I/O.
class ResourceError : public Error {
 public:
  explicit ResourceError(const std::string& what, Advice advice = Advice::kNone,
                         std::string subject = "")
      : Error(ErrorKind::kResource, what, advice, std::move(subject)) {}
};

// A file system call's refusal (no such folder, no space, no permission): its errno and the
// path it was about, for callers that report them as the system does (Python's OSError
// subclasses: FileNotFoundError, PermissionError, ...).
class FileSystemError : public ResourceError {
 public:
  FileSystemError(const std::string& what, int err, std::string path)
      : ResourceError(what), err_(err), path_(std::move(path)) {}
  int error_number() const { return err_; }
  const std::string& path() const { return path_; }

 private:
  int err_;
  std::string path_;
};

// Memory that a method, a reader or a thread could not get; the message names what was
// being built and how large.
class OutOfMemoryError : public ResourceError {
 public:
  using ResourceError::ResourceError;
};

class DeviceError : public Error {
 public:
  explicit DeviceError(const std::string& what, Advice advice = Advice::kNone)
      : Error(ErrorKind::kDevice, what, advice) {}
};

class InternalError : public Error {
 public:
  explicit InternalError(const std::string& what) : Error(ErrorKind::kInternal, what) {}
};

// What each kind becomes: the CLI's exit status and whether it says why (a closed output
// is the reader's choice, not a failure: nothing is said), the class the Python module
// raises (defined in python/closure/_errors.py; OutOfMemoryError is the resource kind's
// class for memory; Cancelled is a KeyboardInterrupt) and the HTTP status `closure serve`
// answers (a resource failure there is the server's storage or memory: 507 for a journal
// that cannot be written, 503 otherwise).
struct ErrorKindInfo {
  ErrorKind kind;
  const char* name;
  int exit_status;
  bool reported;
  const char* python_class;
  int http_status;
};
inline constexpr ErrorKindInfo kErrorTable[] = {
    {ErrorKind::kUsage, "usage", 2, true, "UsageError", 400},
    {ErrorKind::kInput, "input", 3, true, "InputError", 400},
    {ErrorKind::kResource, "resource", 4, true, "ResourceError", 503},
    {ErrorKind::kDevice, "device", 4, true, "DeviceError", 503},
    {ErrorKind::kInternal, "internal", 4, true, "InternalError", 500},
    {ErrorKind::kCancelled, "cancelled", 4, true, "Cancelled", 503},
    {ErrorKind::kOutputClosed, "output closed", 0, false, "OutputClosedError", 503},
};
constexpr const ErrorKindInfo& info_of(ErrorKind kind) {
  for (const auto& row : kErrorTable)
    if (row.kind == kind) return row;
  return kErrorTable[4];  // internal
}

// Any exception's message as `audience` reads it (a closure::Error's advice in its terms).
std::string said_to(const std::exception& e, Audience audience);

// The kind of any exception: closure::Error (InputError, ocl::Error, Cancelled and
// OutputClosedError included) by its kind, std::bad_alloc resource, std::logic_error
// internal, anything else resource (I/O and system failures).
ErrorKind classify(const std::exception& e);

// "1.25 GB"-style rendering of a size, for messages.
std::string format_bytes(double bytes);

}  // namespace closure
