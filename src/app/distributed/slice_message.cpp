// Encoding and checked decoding of a rank's column slice.
#include "app/distributed/slice_message.hpp"

#include <cstring>

#include "closure/errors.hpp"

namespace closure {
namespace {

// Writes value at `at` and returns the offset after it.
template <class T>
size_t put(std::vector<uint8_t>& out, size_t at, T value) {
  std::memcpy(out.data() + at, &value, sizeof value);
  return at + sizeof value;
}
template <class T>
T get(std::span<const uint8_t> bytes, size_t at) {
  T value;
  std::memcpy(&value, bytes.data() + at, sizeof value);
  return value;
}

}  // namespace

std::vector<uint8_t> encode_slice(const ColumnSlice& slice) {
  const size_t row_bytes = slice.rows.size() * sizeof(word_t);
  std::vector<uint8_t> out(kSliceHeaderBytes + row_bytes);
  std::memcpy(out.data(), kSliceMagic, sizeof kSliceMagic);
  size_t at = sizeof kSliceMagic;
  at = put<uint64_t>(out, at, slice.components);
  at = put<uint32_t>(out, at, slice.range.begin);
  at = put<uint32_t>(out, at, slice.range.end);
  at = put<uint64_t>(out, at, slice.cross_pairs);
  at = put<uint64_t>(out, at, slice.rows.size());
  if (row_bytes) std::memcpy(out.data() + at, slice.rows.data(), row_bytes);
  return out;
}

ColumnSlice decode_slice(std::span<const uint8_t> bytes, size_t components, WordRange expected) {
  auto fail = [](const std::string& why) -> ColumnSlice {
    throw InternalError("a rank sent a malformed closure slice: " + why);
  };
  if (bytes.size() < kSliceHeaderBytes) return fail("shorter than its header");
  if (std::memcmp(bytes.data(), kSliceMagic, sizeof kSliceMagic) != 0) return fail("bad magic");
  ColumnSlice s;
  s.components = get<uint64_t>(bytes, 8);
  s.range.begin = get<uint32_t>(bytes, 16);
  s.range.end = get<uint32_t>(bytes, 20);
  s.cross_pairs = get<uint64_t>(bytes, 24);
  const uint64_t words = get<uint64_t>(bytes, 32);
  if (s.components != components) return fail("another component count");
  if (!(s.range == expected)) return fail("another column range");
  if (words != uint64_t(components) * expected.words()) return fail("a row count that differs");
  if (words > (bytes.size() - kSliceHeaderBytes) / sizeof(word_t) ||
      bytes.size() - kSliceHeaderBytes != words * sizeof(word_t))
    return fail("a length that differs from its header");
  s.rows.resize(words);
  if (words) std::memcpy(s.rows.data(), bytes.data() + kSliceHeaderBytes, words * sizeof(word_t));
  // Bits beyond the last component would be pairs that do not exist.
  const size_t cols = bits_in_words(expected.end);
  if (words && cols > components) {
    const word_t stray = ~tail_mask(components);
    for (size_t c = 0; c < components; ++c)
      if (s.rows[c * expected.words() + expected.words() - 1] & stray)
        return fail("bits beyond the last column");
  }
  return s;
}

}  // namespace closure
