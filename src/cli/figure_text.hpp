// A benchmark table's figure: x in `format`, or "-" where there is none (x <= 0).
#pragma once

#include <cstdio>
#include <string>

namespace closure::cli {

inline std::string figure(double x, const char* format) {
  if (x <= 0) return "-";
  char text[32];
  std::snprintf(text, sizeof text, format, x);
  return text;
}

}  // namespace closure::cli
