// InputError: bad graph input, reported as "FILE:LINE: message" so editors and users can jump to
// it.
#pragma once

#include <cstddef>
#include <string>

#include "closure/errors.hpp"

namespace closure {

// Of the input kind (closure/errors.hpp): exit status 3, closure.InputError in Python.
class InputError : public Error {
 public:
  // `line` is 1-based; 0 means the problem concerns the file as a whole (and is omitted).
  InputError(std::string file, size_t line, std::string message, Advice advice = Advice::kNone,
             std::string subject = "")
      : Error(ErrorKind::kInput, compose(file, line, message), advice, std::move(subject)),
        file_(std::move(file)),
        line_(line),
        message_(std::move(message)) {}

  const std::string& file() const { return file_; }
  size_t line() const { return line_; }
  // The message without the "FILE:LINE: " prefix and without its advice (advice_said_to).
  const std::string& message() const { return message_; }

 private:
  static std::string compose(const std::string& file, size_t line, const std::string& message) {
    std::string out = file;
    if (line > 0) {
      out += ':';
      out += std::to_string(line);
    }
    out += ": ";
    out += message;
    return out;
  }

  std::string file_;
  size_t line_;
  std::string message_;
};

}  // namespace closure
