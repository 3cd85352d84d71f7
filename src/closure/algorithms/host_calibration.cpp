// The host calibration's text and the process's current one.
#include "closure/algorithms/host_calibration.hpp"

#include <cstdio>
#include <mutex>

namespace closure {
namespace {

// Read and written whole by any thread (a Session applies it while another plans).
std::mutex g_mutex;
HostCalibration g_current;

}  // namespace

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
