// Keyed hashes for vertex labels. Inputs choose the labels, so a fixed hash lets a file pick
// labels that all land in one slot of the label table and turn reading quadratic (a few
// hundred thousand crafted integers are enough). Every key is therefore mixed
// with a seed drawn at random once per process; outputs never depend on it, because vertex
// ids come from first appearance, not from the table's order.
#pragma once

#include <cstdint>
#include <cstring>
#include <string_view>

namespace closure::detail {

// The process's random seed (getrandom(2), drawn on first use).
uint64_t label_hash_seed();

// Integer keys: the seed, then murmur3's fmix64 finalizer, a bijection with full avalanche, so
// which keys share a slot depends on the unknown seed.
inline uint64_t mix_key(uint64_t key, uint64_t seed) {
  key ^= seed;
  key ^= key >> 33;
  key *= 0xff51afd7ed558ccdull;
  key ^= key >> 33;
  key *= 0xc4ceb9fe1a85ec53ull;
  key ^= key >> 33;
  return key;
}

// String keys: SipHash-1-3 (the keyed hash of Python's and Rust's hash tables) under the seed.
// Unlike multiply-and-shift string hashes, it has no seed-independent collisions to exploit.
inline uint64_t hash_label(std::string_view s, uint64_t seed) {
  uint64_t v0 = 0x736f6d6570736575ull ^ seed, v1 = 0x646f72616e646f6dull ^ ~seed,
           v2 = 0x6c7967656e657261ull ^ seed, v3 = 0x7465646279746573ull ^ ~seed;
  auto rotl = [](uint64_t x, int b) { return (x << b) | (x >> (64 - b)); };
  auto round = [&] {
    v0 += v1;
    v1 = rotl(v1, 13);
    v1 ^= v0;
    v0 = rotl(v0, 32);
    v2 += v3;
    v3 = rotl(v3, 16);
    v3 ^= v2;
    v0 += v3;
    v3 = rotl(v3, 21);
    v3 ^= v0;
    v2 += v1;
    v1 = rotl(v1, 17);
    v1 ^= v2;
    v2 = rotl(v2, 32);
  };
  const char* p = s.data();
  size_t left = s.size();
  for (; left >= 8; left -= 8, p += 8) {
    uint64_t m;
    std::memcpy(&m, p, 8);
    v3 ^= m;
    round();
    v0 ^= m;
  }
  uint64_t last = uint64_t(s.size()) << 56;
  for (size_t i = 0; i < left; ++i) last |= uint64_t(static_cast<unsigned char>(p[i])) << (8 * i);
  v3 ^= last;
  round();
  v0 ^= last;
  v2 ^= 0xff;
  round();
  round();
  round();
  return v0 ^ v1 ^ v2 ^ v3;
}

}  // namespace closure::detail
