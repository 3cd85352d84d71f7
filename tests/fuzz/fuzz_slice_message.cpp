// libFuzzer target: the slice a rank sends rank 0 in a distributed run (the only large
// MPI message). Any bytes must be refused with InternalError or decode to a slice of
// exactly the expected shape, never a crash, an overread or a huge allocation.
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <span>

#include "app/distributed/slice_message.hpp"
#include "closure/errors.hpp"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  using namespace closure;
  // The first byte picks what rank 0 expects (components 0..63, one of a few ranges), so
  // inputs that match the expectation exist and the row checks are reached.
  if (size == 0) return 0;
  const size_t components = data[0] % 64;
  const size_t words = words_for_bits(components);
  const uint32_t begin = uint32_t(words ? (data[0] >> 6) % words : 0);
  const WordRange expected{begin, uint32_t(words)};
  try {
    const ColumnSlice s = decode_slice({data + 1, size - 1}, components, expected);
    if (s.rows.size() != components * expected.words() || !(s.range == expected)) std::abort();
    if (encode_slice(s) != std::vector<uint8_t>(data + 1, data + size)) std::abort();
  } catch (const InternalError&) {
  }
  return 0;
}
