// A fast 64-bit content hash (not cryptographic) for detecting damaged or changed files:
// program-cache entries, batch inputs and outputs. Stable across runs, builds and
// machines of the same byte order, unlike std::hash.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>

namespace closure {

class ContentHash {
 public:
  explicit ContentHash(uint64_t seed = 0);
  void update(const void* data, size_t size);
  void update(std::string_view bytes) { update(bytes.data(), bytes.size()); }
  uint64_t digest() const;  // of everything so far; update() may continue afterwards

 private:
  uint64_t state_;
  uint64_t length_ = 0;
  unsigned char tail_[8] = {};
  size_t tail_size_ = 0;
};

uint64_t content_hash(const void* data, size_t size, uint64_t seed = 0);
std::string hash_hex(uint64_t h);  // 16 lowercase hex digits

struct FileDigest {
  uint64_t size = 0;
  uint64_t hash = 0;
};
// Reads the whole file; throws std::runtime_error naming it when it cannot.
FileDigest digest_file(const std::string& path);

}  // namespace closure
