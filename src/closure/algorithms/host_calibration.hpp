// This machine's speed against the one the host cost model was fitted on: four factors that
// scale its terms (cost_model.cpp). The constants are one machine's on one day; a VM's
// millisecond rows move 2x between days, and the GPU machines' hosts err the other way
// (docs/benchmarks.md, "Predicted against measured"), so no one set is within 2x of every
// machine. `closure bench closure --calibrate --save` measures the factors here and keeps them
// as a "host" row of the tuning overlay (kernels/tuning_database.hpp); a Session applies it
// (kernels/host_tuning.hpp).
#pragma once

#include <string>

namespace closure {

struct HostCalibration {
  // Work in the caches: the linear passes every method makes (condensing), the chains, the
  // fixed costs and auto's planning ...
  double compute = 1.0;
  // ... sparse's own: its rows' scanned and stored words, the successor rows ORed ...
  double sparse = 1.0;
  // ... the count by columns' own: its words ORed and its rows and edges visited ...
  double columns = 1.0;
  // ... and work past the caches: misses and fresh pages first touched (sparse's rows past
  // kRowCacheBytes, the count by columns' live rows past a thread's cache, its fresh slots).
  double memory = 1.0;
  bool operator==(const HostCalibration&) const = default;
};

// Each factor lies in [1/kCalibrationMost, kCalibrationMost]: beyond it a measurement went
// wrong (a machine 64x slower than the 2-core VM runs nothing auto would choose between).
inline constexpr double kCalibrationMost = 64.0;

// "compute=0.52,sparse=0.8,columns=1.3,memory=0.3", each factor to 3 significant digits
// (read by kernels/host_tuning.hpp's parse_host_calibration, with the kernels' key=value
// lists' parser).
std::string format_host_calibration(const HostCalibration& c);

// The calibration the cost model takes for this process (CostInputs::calibration's default):
// none (every factor 1) until a Session or a bench applies the overlay's row.
HostCalibration current_host_calibration();
void set_current_host_calibration(const HostCalibration& c);

}  // namespace closure
