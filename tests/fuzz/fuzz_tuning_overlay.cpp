// libFuzzer target: the tuning overlay file (kernels/tuning_database.hpp) as any bytes, and
// each row's parameters as a host calibration (algorithms/host_calibration.hpp), as every
// Session reads them. A row is parsed or refused with UsageError; a calibration parsed holds
// factors in range, and its text parses back to within the 3 digits it keeps. Never a
// crash, an overread or another exception.
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <string>

#include "closure/algorithms/host_calibration.hpp"
#include "closure/errors.hpp"
#include "closure/kernels/host_tuning.hpp"
#include "closure/kernels/tuning_database.hpp"

namespace {

bool in_range(double f) {
  return std::isfinite(f) && f >= 1.0 / closure::kCalibrationMost && f <= closure::kCalibrationMost;
}

void check_calibration(const std::string& params) {
  closure::HostCalibration c;
  try {
    c = closure::parse_host_calibration(params);
  } catch (const closure::UsageError&) {
    return;
  }
  for (const double f : {c.compute, c.sparse, c.columns, c.memory})
    if (!in_range(f)) std::abort();
  // A saved row reads back (it throws if not), each factor to the 3 digits written.
  const closure::HostCalibration back =
      closure::parse_host_calibration(closure::format_host_calibration(c));
  const double was[] = {c.compute, c.sparse, c.columns, c.memory};
  const double now[] = {back.compute, back.sparse, back.columns, back.memory};
  for (int i = 0; i < 4; ++i)
    if (std::fabs(now[i] / was[i] - 1) > 0.01) std::abort();
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  const std::string text(reinterpret_cast<const char*>(data), size);
  check_calibration(text);  // the parameters alone, as a row holds them
  try {
    for (const closure::TuningRow& row : closure::parse_tuning_rows(text, "fuzz"))
      check_calibration(row.params);
  } catch (const closure::UsageError&) {
  }
  return 0;
}
