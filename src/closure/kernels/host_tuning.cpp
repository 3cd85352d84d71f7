// The overlay's "host" row: read, matched against this processor, applied.
#include "closure/kernels/host_tuning.hpp"

#include <sys/stat.h>

#include <algorithm>
#include <cerrno>
#include <charconv>
#include <cmath>
#include <fstream>
#include <mutex>
#include <set>

#include "closure/errors.hpp"
#include "closure/kernels/param_text.hpp"
#include "closure/kernels/tuning_database.hpp"

namespace closure {
namespace {

// "model name\t: AMD EPYC 7B13" -> "AMD EPYC 7B13"; "" when `line` is not `key`'s.
std::string cpuinfo_value(const std::string& line, const std::string& key) {
  if (line.compare(0, key.size(), key) != 0) return "";
  const size_t colon = line.find(':', key.size());
  if (colon == std::string::npos || line.find_first_not_of(" \t", key.size()) != colon) return "";
  const size_t begin = line.find_first_not_of(' ', colon + 1);
  return begin == std::string::npos ? "" : line.substr(begin);
}

double parse_factor(const std::string& key, const std::string& text) {
  double v = 0;
  const auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), v);
  // A percent of slack, clamped: the 3 digits a saved row keeps may round past a bound
  // (1/64 = 0.015625 is written 0.0156), and a saved row must read back.
  const double least = 0.99 / kCalibrationMost, most = 1.01 * kCalibrationMost;
  if (ec != std::errc() || end != text.data() + text.size() || !std::isfinite(v) || v < least ||
      v > most)
    throw UsageError(key + "='" + text + "' is not a number from 1/64 to 64");
  return std::clamp(v, 1.0 / kCalibrationMost, kCalibrationMost);
}

}  // namespace

HostCalibration parse_host_calibration(const std::string& params) {
  HostCalibration c;
  std::set<std::string> seen;
  try {
    parse_key_texts(params, "factor", "compute, sparse, columns, memory",
                    [&](const std::string& key, const std::string& value) {
                      double* factor = key == "compute"   ? &c.compute
                                       : key == "sparse"  ? &c.sparse
                                       : key == "columns" ? &c.columns
                                       : key == "memory"  ? &c.memory
                                                          : nullptr;
                      if (!factor) return false;
                      if (!seen.insert(key).second)
                        throw UsageError("'" + key + "' is given twice");
                      *factor = parse_factor(key, value);
                      return true;
                    });
  } catch (const UsageError& e) {
    throw UsageError(std::string("host calibration: ") + e.what());
  }
  return c;
}

ocl::DeviceInfo host_processor() {
  ocl::DeviceInfo cpu;
  cpu.is_cpu = true;
  std::ifstream in("/proc/cpuinfo");
  std::string line, implementer, part;
  // The first processor's lines say it (every core of a machine is the same model); a
  // bounded read, as /proc/cpuinfo of a large machine runs to hundreds of KB.
  for (int lines = 0; lines < 64 && std::getline(in, line) && !line.empty(); ++lines) {
    if (std::string v = cpuinfo_value(line, "model name"); !v.empty()) cpu.name = v;
    if (std::string v = cpuinfo_value(line, "vendor_id"); !v.empty()) cpu.vendor = v;
    if (std::string v = cpuinfo_value(line, "CPU implementer"); !v.empty()) implementer = v;
    if (std::string v = cpuinfo_value(line, "CPU part"); !v.empty()) part = v;
  }
  // Arm's /proc/cpuinfo names no model: its implementer and part codes do.
  if (cpu.name.empty() && !implementer.empty() && !part.empty()) {
    cpu.name = "CPU implementer " + implementer + " part " + part;
    cpu.vendor = "CPU implementer " + implementer;
  }
  return cpu;
}

HostCalibration tuned_host_calibration() {
  // /proc/cpuinfo is read only where a row could match: every Session asks, and most
  // machines have no overlay, or one of kernel rows only. The built-in table has no host
  // row (it was 77k of a small run's 3M instructions to parse it here).
  const std::vector<TuningRow> rows = overlay_tuning_rows_of(kHostTuningFamily);
  if (rows.empty()) return {};
  const ocl::DeviceInfo cpu = host_processor();
  for (const TuningRow& row : most_specific_first(rows, cpu)) {
    // A processor's name and vendor whole, not a substring as a GPU's: this VM calls itself
    // "AMD EPYC", and its row would match every EPYC reading the same overlay.
    if ((row.level == TuningRow::Level::kDevice && row.match != cpu.name) ||
        (row.level == TuningRow::Level::kVendor && row.match != cpu.vendor))
      continue;
    try {
      return parse_host_calibration(row.params);
    } catch (const UsageError& e) {
      throw UsageError(row.where + ": " + e.what());
    }
  }
  return {};
}

namespace {

// What the overlay was when last applied: its path and, where it exists, its size and time,
// so that a row saved since (another process's --calibrate --save) reaches a long-lived
// process's next Session. `absent`: no overlay at all (most machines), so none is read.
struct OverlayState {
  std::string key;
  bool absent = false;
};
OverlayState overlay_state(const std::string& path) {
  struct stat st {};
  if (path.empty()) return {path, true};
  // Only a missing file is no overlay; any other failure is reported by the read.
  if (::stat(path.c_str(), &st) != 0) return {path, errno == ENOENT};
  return {path + "|" + std::to_string(st.st_size) + "|" + std::to_string(st.st_mtim.tv_sec) + "." +
              std::to_string(st.st_mtim.tv_nsec),
          false};
}

}  // namespace

void apply_tuned_host_calibration() {
  static std::mutex mutex;
  static std::string applied_state;
  static bool applied = false;
  const OverlayState state = overlay_state(tuning_overlay_path());
  std::lock_guard lock(mutex);
  if (applied && state.key == applied_state) return;
  // The stat above already said there is no file: not opened again to find it missing.
  set_current_host_calibration(state.absent ? HostCalibration{} : tuned_host_calibration());
  applied = true;
  applied_state = state.key;
}

}  // namespace closure
