// Plain and gzip byte sinks.
#include "closure/io/byte_sink.hpp"

#include <zlib.h>

#include <algorithm>
#include <new>
#include <vector>

namespace closure {
namespace {

class PlainSink : public ByteSink {
 public:
  explicit PlainSink(AtomicFile& f) : file_(f) {}
  void write(const void* data, size_t size) override { file_.write(data, size); }
  void finish() override {}

 private:
  AtomicFile& file_;
};

class GzipSink : public ByteSink {
 public:
  explicit GzipSink(AtomicFile& f) : file_(f), out_(kChunk) {
    // windowBits 15 + 16: a gzip header and trailer instead of zlib's; level 6 (default).
    if (deflateInit2(&z_, Z_DEFAULT_COMPRESSION, Z_DEFLATED, 15 + 16, 8, Z_DEFAULT_STRATEGY) !=
        Z_OK)
      throw std::bad_alloc();
  }
  ~GzipSink() override { deflateEnd(&z_); }
  void write(const void* data, size_t size) override {
    const auto* p = static_cast<const unsigned char*>(data);
    while (size > 0) {
      const size_t piece = std::min<size_t>(size, 1u << 30);  // avail_in is 32 bits
      z_.next_in = const_cast<unsigned char*>(p);
      z_.avail_in = static_cast<uInt>(piece);
      run(Z_NO_FLUSH);
      p += piece;
      size -= piece;
    }
  }
  void finish() override {
    z_.next_in = nullptr;
    z_.avail_in = 0;
    run(Z_FINISH);
  }

 private:
  void run(int flush) {
    int status = Z_OK;
    do {
      z_.next_out = out_.data();
      z_.avail_out = static_cast<uInt>(out_.size());
      status = deflate(&z_, flush);
      if (status == Z_STREAM_ERROR) throw InternalError("zlib deflate failed");
      file_.write(out_.data(), out_.size() - z_.avail_out);
    } while (z_.avail_out == 0 || (flush == Z_FINISH && status != Z_STREAM_END));
  }

  static constexpr size_t kChunk = size_t{1} << 18;
  AtomicFile& file_;
  z_stream z_{};
  std::vector<unsigned char> out_;
};

}  // namespace

std::unique_ptr<ByteSink> make_sink(AtomicFile& file, bool gzip) {
  if (gzip) return std::make_unique<GzipSink>(file);
  return std::make_unique<PlainSink>(file);
}

}  // namespace closure
