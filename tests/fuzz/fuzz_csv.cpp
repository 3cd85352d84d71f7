// libFuzzer target: the delimited readers (CSV as pandas writes it, and TSV): quoted
// fields, index columns and the header rule.
#include "fuzz_reader.hpp"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  closure::fuzz::read_as(data, size, closure::InputFormat::kCsv);
  closure::fuzz::read_as(data, size, closure::InputFormat::kTsv);
  return 0;
}
