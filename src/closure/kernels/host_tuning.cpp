// The overlay's "host" row: read, matched against this processor, applied.
#include "closure/kernels/host_tuning.hpp"

#include <fstream>
#include <mutex>

#include "closure/errors.hpp"
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

}  // namespace

ocl::DeviceInfo host_processor() {
  ocl::DeviceInfo cpu;
  cpu.is_cpu = true;
  std::ifstream in("/proc/cpuinfo");
  std::string line;
  // The first processor's lines say it (every core of a machine is the same model); a
  // bounded read, as /proc/cpuinfo of a large machine runs to hundreds of KB.
  for (int lines = 0; lines < 64 && std::getline(in, line) && !line.empty(); ++lines) {
    if (std::string v = cpuinfo_value(line, "model name"); !v.empty()) cpu.name = v;
    if (std::string v = cpuinfo_value(line, "vendor_id"); !v.empty()) cpu.vendor = v;
  }
  return cpu;
}

HostCalibration tuned_host_calibration() {
  // /proc/cpuinfo is read only where a row could match: every Session asks, and most
  // machines have no overlay, or one of kernel rows only.
  const std::vector<TuningRow> rows = tuning_rows_of(kHostTuningFamily);
  if (rows.empty()) return {};
  for (const TuningRow& row : most_specific_first(rows, host_processor())) {
    try {
      return parse_host_calibration(row.params);
    } catch (const UsageError& e) {
      throw UsageError(row.where + ": " + e.what());
    }
  }
  return {};
}

void apply_tuned_host_calibration() {
  static std::mutex mutex;
  static std::string applied_from;
  static bool applied = false;
  const std::string path = tuning_overlay_path();
  std::lock_guard lock(mutex);
  if (applied && path == applied_from) return;
  set_current_host_calibration(tuned_host_calibration());
  applied = true;
  applied_from = path;
}

}  // namespace closure
