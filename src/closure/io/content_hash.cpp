// 8 bytes per step: xor, multiply, rotate (a 64-bit word per multiply keeps it at several
// GB/s), then the splitmix64 finaliser with the length so that every input bit reaches
// every output bit.
#include "closure/io/content_hash.hpp"

#include <algorithm>
#include <cerrno>
#include <cstdio>
#include <cstring>
#include <memory>
#include <stdexcept>
#include <vector>

#include "closure/errors.hpp"

namespace closure {
namespace {

constexpr uint64_t kMul = 0x9e3779b97f4a7c15ull;

uint64_t rotl(uint64_t x, int r) {
  return (x << r) | (x >> (64 - r));
}

uint64_t mix(uint64_t state, uint64_t word) {
  return rotl((state ^ word) * kMul, 29) * 0xbf58476d1ce4e5b9ull;
}

uint64_t finish(uint64_t x) {
  x ^= x >> 30;
  x *= 0xbf58476d1ce4e5b9ull;
  x ^= x >> 27;
  x *= 0x94d049bb133111ebull;
  return x ^ (x >> 31);
}

}  // namespace

ContentHash::ContentHash(uint64_t seed) : state_(finish(seed + kMul)) {}

void ContentHash::update(const void* data, size_t size) {
  auto p = static_cast<const unsigned char*>(data);
  length_ += size;
  if (tail_size_) {
    const size_t take = std::min(size, 8 - tail_size_);
    std::memcpy(tail_ + tail_size_, p, take);
    tail_size_ += take, p += take, size -= take;
    if (tail_size_ < 8) return;
    uint64_t w;
    std::memcpy(&w, tail_, 8);
    state_ = mix(state_, w);
    tail_size_ = 0;
  }
  for (; size >= 8; p += 8, size -= 8) {
    uint64_t w;
    std::memcpy(&w, p, 8);
    state_ = mix(state_, w);
  }
  std::memcpy(tail_, p, size);
  tail_size_ = size;
}

uint64_t ContentHash::digest() const {
  uint64_t s = state_;
  if (tail_size_) {
    uint64_t w = 0;
    std::memcpy(&w, tail_, tail_size_);
    s = mix(s, w);
  }
  return finish(s ^ finish(length_));
}

uint64_t content_hash(const void* data, size_t size, uint64_t seed) {
  ContentHash h(seed);
  h.update(data, size);
  return h.digest();
}

std::string hash_hex(uint64_t h) {
  char buf[17];
  std::snprintf(buf, sizeof buf, "%016llx", static_cast<unsigned long long>(h));
  return buf;
}

FileDigest digest_file(const std::string& path) {
  std::unique_ptr<std::FILE, int (*)(std::FILE*)> f(std::fopen(path.c_str(), "rb"), &std::fclose);
  if (!f) throw ResourceError(path + ": cannot open: " + std::strerror(errno));
  ContentHash h;
  FileDigest d;
  std::vector<unsigned char> buf(1 << 20);
  for (size_t got; (got = std::fread(buf.data(), 1, buf.size(), f.get())) > 0;) {
    h.update(buf.data(), got);
    d.size += got;
  }
  if (std::ferror(f.get())) throw ResourceError(path + ": read error: " + std::strerror(errno));
  d.hash = h.digest();
  return d;
}

}  // namespace closure
