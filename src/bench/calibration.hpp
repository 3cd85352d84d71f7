// `closure bench closure --calibrate`: this machine's host calibration
// (algorithms/host_calibration.hpp), fitted to the host methods' measured times on the
// graphs the user names. There is no default set: fitted to generated random DAGs (their
// rows cost more per edge than GRAIL's or a history's), the factors put GRAIL's
// predictions further off than none (docs/benchmarks.md, "Predicted against measured").
//
// The model's formulas stay; only its four factors move. Each is searched on a grid of
// eighth powers of 2 from 1/16 to 16, one factor at a time with the others held, for a few
// rounds (coordinate descent: the terms are separable enough that rounds converge in two
// or three). The objective is auto's: the most predictions within 2x, then the least
// squared log ratio, each factor's distance from 1 weighed as a row's (a prior). Rows of under
// kCalibrationFloorS are left out (a few microseconds' noise is no machine's speed), as are auto's
// (its measured time is its choice's, made under the calibration in force).
#pragma once

#include <string>
#include <vector>

#include "bench/closure_bench.hpp"
#include "closure/algorithms/host_calibration.hpp"

namespace closure {

inline constexpr double kCalibrationFloorS = 1e-4;

struct CalibrationFit {
  HostCalibration calibration;
  size_t fitted = 0;         // rows the fit weighed
  size_t within_before = 0;  // of them, within 2x under the calibration in force
  size_t within_after = 0;   // ... and under the fitted one
  double log_error_before = 0, log_error_after = 0;  // root mean squared natural log ratio
};

// Fits the factors to `rows` (bench_predicted's), starting from `start`.
CalibrationFit fit_host_calibration(const std::vector<PredictedBenchRow>& rows,
                                    const HostCalibration& start = {});

// One line: the factors, and the rows within 2x before and after.
std::string describe_fit(const CalibrationFit& fit);

}  // namespace closure
