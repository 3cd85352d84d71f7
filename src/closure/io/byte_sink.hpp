// Where a writer's bytes go: straight into an AtomicFile, or through zlib's gzip
// compression first (an output path ending in .gz).
#pragma once

#include <cstddef>
#include <cstdint>
#include <memory>
#include <string>
#include <string_view>

#include "closure/io/atomic_file.hpp"

namespace closure {

class ByteSink {
 public:
  virtual ~ByteSink() = default;
  virtual void write(const void* data, size_t size) = 0;
  virtual void finish() = 0;  // flushes what is buffered (for gzip: the trailer too)
};

// Bytes kept in a string (tests, fuzz targets, small texts such as a drawing in JSON).
class StringSink final : public ByteSink {
 public:
  void write(const void* data, size_t size) override {
    text.append(static_cast<const char*>(data), size);
  }
  void finish() override {}
  std::string text;
};

// Bytes counted, not kept: the writers' size model writes a format's pieces into it, so the
// size it predicts is the writer's own bytes. It also takes the std::string calls the text
// encoders append with (append, push_back), so one encoder serves a string and a count.
class CountingSink final : public ByteSink {
 public:
  void write(const void*, size_t size) override { bytes_ += size; }
  void finish() override {}
  void append(std::string_view s) { bytes_ += s.size(); }
  void push_back(char) { ++bytes_; }
  uint64_t bytes() const { return bytes_; }

 private:
  uint64_t bytes_ = 0;
};

// Plain when `gzip` is false; else a gzip member (RFC 1952) of the bytes written.
std::unique_ptr<ByteSink> make_sink(AtomicFile& file, bool gzip);

}  // namespace closure
