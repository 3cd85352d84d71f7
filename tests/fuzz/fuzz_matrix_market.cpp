// libFuzzer target: the reader of Matrix Market files.
#include "fuzz_reader.hpp"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  closure::fuzz::read_as(data, size, closure::InputFormat::kMatrixMarket);
  return 0;
}
