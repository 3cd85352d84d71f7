// LineSource: buffered line reader over plain files, gzip files, standard input or memory,
// shared by every input format so they all get the same error reporting and byte checks.
#pragma once

#include <cstddef>
#include <string>
#include <string_view>
#include <vector>

#include "closure/graph/input_error.hpp"

struct gzFile_s;

namespace closure {

class LineSource {
 public:
  // Opens `path` ("-" is standard input); gzip data is decompressed transparently.
  // Throws InputError (line 0) when the file cannot be opened.
  explicit LineSource(const std::string& path);
  // Reads lines out of `text`, which must outlive this object; `name` appears in errors.
  LineSource(std::string_view text, std::string name);
  ~LineSource();
  LineSource(const LineSource&) = delete;
  LineSource& operator=(const LineSource&) = delete;

  // The next line without its terminator ("\n" or "\r\n"); false at the end of input. The view
  // stays valid until the next call. Throws InputError on unreadable data or binary bytes.
  bool next(std::string_view& line);
  // Up to `max_bytes` from the start of the input, without consuming anything; call it before
  // the first next(). Shorter only when the input is shorter.
  std::string_view peek(size_t max_bytes);
  // True once the whole input sits in the buffer (after peek), i.e. peek saw everything.
  bool at_end_of_data() const { return eof_; }

  // 1-based number of the line last returned by next(); 0 before the first.
  size_t line_number() const { return line_; }
  const std::string& name() const { return name_; }

  [[noreturn]] void fail(const std::string& message) const { fail_at(line_, message); }
  [[noreturn]] void fail_at(size_t line, const std::string& message) const {
    throw InputError(name_, line, message);
  }

 private:
  bool fill();
  void check_bytes(size_t from, size_t to) const;
  // Complete lines read from the input so far, consumed or still buffered.
  size_t lines_buffered() const;

  std::string name_;
  gzFile_s* gz_ = nullptr;
  std::vector<char> buf_;
  const char* data_ = nullptr;  // buf_.data(), or the caller's text
  size_t pos_ = 0;              // first unconsumed byte
  size_t end_ = 0;              // one past the last valid byte
  bool eof_ = false;
  bool started_ = false;
  size_t line_ = 0;
};

}  // namespace closure
