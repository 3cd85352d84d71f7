// A failure carried across a process boundary (an MPI rank to its peers, a checking child to
// batch) as text: its error kind as one character, then its message, so the receiver throws
// an error of the same kind and every side exits with the same status.
#pragma once

#include <exception>
#include <string>

namespace closure {

// The kind of `failure` as one character (the ErrorKind's digit), then its message.
std::string failure_text(const std::exception_ptr& failure);
// Throws what failure_text described, its message after `prefix`; a garbled text is an
// internal error, never a crash.
[[noreturn]] void throw_failure_text(const std::string& text, const std::string& prefix = "");

}  // namespace closure
