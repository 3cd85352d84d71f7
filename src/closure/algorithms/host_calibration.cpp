// The host calibration's text and the process's current one.
#include "closure/algorithms/host_calibration.hpp"

#include <algorithm>
#include <charconv>
#include <cmath>
#include <cstdio>
#include <iterator>
#include <mutex>

#include "closure/errors.hpp"

namespace closure {
namespace {

double parse_factor(const std::string& key, std::string_view text) {
  double v = 0;
  const auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), v);
  // A percent of slack, clamped: the 3 digits a saved row keeps may round past a bound
  // (1/64 = 0.015625 is written 0.0156), and a saved row must read back.
  const double least = 0.99 / kCalibrationMost, most = 1.01 * kCalibrationMost;
  if (ec != std::errc() || end != text.data() + text.size() || !std::isfinite(v) || v < least ||
      v > most)
    throw UsageError("host calibration: " + key + "='" + std::string(text) +
                     "' is not a number from 1/64 to 64");
  return std::clamp(v, 1.0 / kCalibrationMost, kCalibrationMost);
}

// Read and written whole by any thread (a Session applies it while another plans).
std::mutex g_mutex;
HostCalibration g_current;

}  // namespace

HostCalibration parse_host_calibration(const std::string& params) {
  HostCalibration c;
  struct Key {
    const char* name;
    double* factor;
    bool seen;
  } keys[] = {{"compute", &c.compute, false},
              {"sparse", &c.sparse, false},
              {"columns", &c.columns, false},
              {"memory", &c.memory, false}};
  std::string_view rest(params);
  while (!rest.empty()) {
    const size_t comma = rest.find(',');
    const std::string_view item = rest.substr(0, comma);
    rest = comma == std::string_view::npos ? std::string_view() : rest.substr(comma + 1);
    if (comma != std::string_view::npos && rest.empty())
      throw UsageError("host calibration: '" + params + "' ends in a comma");
    const size_t eq = item.find('=');
    if (eq == std::string_view::npos)
      throw UsageError("host calibration: '" + std::string(item) + "' is not key=value");
    const std::string key(item.substr(0, eq));
    Key* k =
        std::find_if(std::begin(keys), std::end(keys), [&](const Key& x) { return key == x.name; });
    if (k == std::end(keys))
      throw UsageError("host calibration: '" + key + "' is not compute, sparse, columns or memory");
    if (k->seen) throw UsageError("host calibration: '" + key + "' is given twice");
    k->seen = true;
    *k->factor = parse_factor(key, item.substr(eq + 1));
  }
  return c;
}

std::string format_host_calibration(const HostCalibration& c) {
  char text[128];
  std::snprintf(text, sizeof text, "compute=%.3g,sparse=%.3g,columns=%.3g,memory=%.3g", c.compute,
                c.sparse, c.columns, c.memory);
  return text;
}

HostCalibration current_host_calibration() {
  std::lock_guard lock(g_mutex);
  return g_current;
}

void set_current_host_calibration(const HostCalibration& c) {
  std::lock_guard lock(g_mutex);
  g_current = c;
}

}  // namespace closure
