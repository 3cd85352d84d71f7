// libFuzzer target: the batch resume-record parser (NAME.summary.json). Any bytes must
// give a record or nothing, never a crash, a leak or a hang; a record that parses must
// survive a round trip unchanged.
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <string_view>

#include "app/tool/batch_record.hpp"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  const std::string_view text(reinterpret_cast<const char*>(data), size);
  const auto record = closure::parse_record(text);
  if (!record) return 0;
  const std::string again = closure::record_json(*record);
  const auto reparsed = closure::parse_record(again);
  if (!reparsed || closure::record_json(*reparsed) != again) std::abort();
  return 0;
}
