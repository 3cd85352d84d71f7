// What the benchmarks that time in process share: seconds since a time point, and the
// median of runs (0 for none).
#pragma once

#include <algorithm>
#include <chrono>
#include <vector>

namespace closure::cli {

inline double seconds_since(std::chrono::steady_clock::time_point t0) {
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
}

inline double median(std::vector<double> v) {
  std::sort(v.begin(), v.end());
  return v.empty() ? 0 : v[v.size() / 2];
}

}  // namespace closure::cli
