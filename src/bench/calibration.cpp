// The host calibration's fit: coordinate descent over the four factors on a grid.
#include "bench/calibration.hpp"

#include <cmath>
#include <cstdio>

namespace closure {
namespace {

struct Score {
  size_t within = 0;
  double squared = 0;       // summed squared log ratios, and the prior's terms
  double rows_squared = 0;  // the rows' alone
  bool better_than(const Score& o) const {
    return within != o.within ? within > o.within : squared < o.squared - 1e-12;
  }
};

// A factor away from 1 costs as much as a row kPrior off in its log ratio: the graphs
// measured rarely tell every factor apart (random DAGs leave the linear passes and sparse's
// rows one trade), and an unweighed factor would wander to the grid's end.
constexpr double kPrior = 0.5;

Score score(const std::vector<const PredictedBenchRow*>& rows, const HostCalibration& c) {
  Score s;
  for (const double f : {c.compute, c.sparse, c.columns, c.memory})
    s.squared += kPrior * std::log(f) * std::log(f);
  for (const PredictedBenchRow* r : rows) {
    const double predicted = repredicted(*r, c);
    const double l = std::log(r->run.seconds / predicted);
    s.within += std::fabs(l) <= std::log(2.0);
    s.squared += l * l;
    s.rows_squared += l * l;
  }
  return s;
}

double rms(const Score& s, size_t n) {
  return n ? std::sqrt(s.rows_squared / double(n)) : 0.0;
}

}  // namespace

CalibrationFit fit_host_calibration(const std::vector<PredictedBenchRow>& rows,
                                    const HostCalibration& start) {
  std::vector<const PredictedBenchRow*> weighed;
  for (const PredictedBenchRow& r : rows)
    if (r.run.ok() && r.run.seconds >= kCalibrationFloorS && repredicted(r, start) > 0)
      weighed.push_back(&r);
  CalibrationFit fit;
  fit.fitted = weighed.size();
  fit.calibration = start;
  const Score before = score(weighed, start);
  fit.within_before = before.within;
  fit.log_error_before = rms(before, weighed.size());
  Score best = before;
  double HostCalibration::*factors[] = {&HostCalibration::compute, &HostCalibration::sparse,
                                        &HostCalibration::columns, &HostCalibration::memory};
  for (int round = 0; round < 4 && !weighed.empty(); ++round) {
    bool moved = false;
    for (double HostCalibration::*f : factors) {
      for (int k = -32; k <= 32; ++k) {
        HostCalibration c = fit.calibration;
        c.*f = std::exp2(k / 8.0);
        const Score s = score(weighed, c);
        if (s.better_than(best)) best = s, fit.calibration = c, moved = true;
      }
    }
    if (!moved) break;
  }
  fit.within_after = best.within;
  fit.log_error_after = rms(best, weighed.size());
  return fit;
}

std::string describe_fit(const CalibrationFit& fit) {
  char line[256];
  std::snprintf(line, sizeof line,
                "%s: %zu of %zu rows within 2x (%zu before), rms log ratio %.2f (%.2f before)",
                format_host_calibration(fit.calibration).c_str(), fit.within_after, fit.fitted,
                fit.within_before, fit.log_error_after, fit.log_error_before);
  return line;
}

}  // namespace closure
