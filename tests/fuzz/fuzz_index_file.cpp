// libFuzzer target for the index loader: any bytes must either load (and then answer
// queries without reading outside the mapping) or be refused with IndexFileError; never a
// crash, a hang or another exception. Build with the CLOSURE_FUZZ infrastructure
// (tests/fuzz/CMakeLists.txt, clang -fsanitize=fuzzer,address,undefined).
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <memory>
#include <string>
#include <string_view>

#include "closure/reach/index_file.hpp"
#include "closure/reach/living_index.hpp"
#include "closure/reach/reach_index.hpp"

// Inputs whose first byte is odd are loaded as they are; the others (less that byte) with a
// correct checksum forged in, so mutations reach the structural checks behind the checksum
// (the loader promises that even a forged file cannot send a query outside it).
extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  using closure::reach::kIndexChecksumOffset;
  std::string bytes(reinterpret_cast<const char*>(data), size);
  if (!bytes.empty() && (bytes[0] & 1) == 0) {
    bytes.erase(0, 1);
    if (bytes.size() >= kIndexChecksumOffset + 8) {
      std::memset(bytes.data() + kIndexChecksumOffset, 0, 8);
      const uint64_t sum = closure::reach::index_checksum(bytes.data(), bytes.size());
      std::memcpy(bytes.data() + kIndexChecksumOffset, &sum, 8);
    }
  }
  // Through the living index, as every reader of a user's file: the layer is checked too.
  std::unique_ptr<closure::reach::LivingIndex> index;
  try {
    index = std::make_unique<closure::reach::LivingIndex>(closure::reach::living_index_of(
        closure::reach::load_index_from_bytes(bytes, "fuzz.idx"), "fuzz.idx"));
  } catch (const closure::reach::IndexFileError&) {
    return 0;
  }
  // A file that passed every check must be safe to query: a few pairs, walks and lookups.
  const uint64_t n = index->vertex_count();
  closure::reach::LivingQuerier q(*index);
  for (uint64_t i = 0; i < n && i < 16; ++i) {
    (void)q.reaches(closure::vertex_t(i), closure::vertex_t(n - 1 - i));
    (void)index->find(index->label(closure::vertex_t(i)));
  }
  if (n > 0) {
    (void)q.descendants(closure::vertex_t(n - 1));
    (void)q.ancestors(0);
  }
  (void)index->find("0");
  (void)index->find("not a label");
  return 0;
}
