// Strict byte-count parsing.
#include "closure/io/byte_size.hpp"

#include <string>

#include "closure/errors.hpp"

namespace closure {

uint64_t parse_byte_size(std::string_view text) {
  const std::string shown(text);
  auto bad = [&](const char* why) {
    return UsageError("'" + shown + "' is not a byte count (" + why +
                      "; e.g. 1000000, 10G or 10GiB)");
  };
  size_t i = 0;
  uint64_t value = 0;
  if (text.empty()) throw bad("empty");
  if (text[0] == '-') throw bad("negative");
  for (; i < text.size() && text[i] >= '0' && text[i] <= '9'; ++i) {
    const uint64_t digit = uint64_t(text[i] - '0');
    if (value > (UINT64_MAX - digit) / 10) throw bad("too large");
    value = value * 10 + digit;
  }
  if (i == 0) throw bad("no digits");
  // Units in either case (10g as 10G, 1kib as 1KiB): a byte count has no milli or bits.
  std::string upper(text.substr(i));
  for (char& c : upper) c = c >= 'a' && c <= 'z' ? char(c - 'a' + 'A') : c;
  std::string_view unit = upper;
  if (!unit.empty() && unit.back() == 'B') unit.remove_suffix(1);
  uint64_t scale = 1;
  bool binary = false;
  if (unit.size() == 2 && unit[1] == 'I') {
    binary = true;
    unit.remove_suffix(1);
  }
  if (unit.size() > 1) throw bad("unknown unit");
  if (unit.size() == 1) {
    const char* units = "KMGT";
    const char u = unit[0];
    int power = 0;
    for (; units[power] && units[power] != u; ++power) {
    }
    if (!units[power]) throw bad("unknown unit");
    for (int p = 0; p <= power; ++p) scale *= binary ? 1024 : 1000;
  } else if (binary) {
    throw bad("unknown unit");
  }
  if (value > UINT64_MAX / scale) throw bad("too large");
  return value * scale;
}

}  // namespace closure
