// The host cost model's calibration as a row of the tuning overlay (tuning_database.hpp):
//
//   host  device="AMD EPYC 7B13"  compute=0.52,sparse=0.8,columns=1.3,memory=0.3
//
// family "host", matched against this machine's processor: its name and vendor as
// /proc/cpuinfo gives them, whole (not a substring, as a GPU's), type=cpu, or default. Written
// by `closure bench closure --calibrate --save` (bench/calibration.hpp) and applied to the
// process's cost model by every Session (algorithms/host_calibration.hpp).
#pragma once

#include <string>

#include "closure/algorithms/host_calibration.hpp"
#include "closure/ocl/device.hpp"

namespace closure {

inline constexpr const char* kHostTuningFamily = "host";

// "compute=0.52,sparse=0.8,columns=1.3,memory=0.3" (any may be left out: 1), as
// format_host_calibration() writes it; throws UsageError for an unknown key, a value that is
// not a finite number in range (a percent past a bound is clamped to it), a key given twice
// or an empty item (kernels/param_text.hpp's rules).
HostCalibration parse_host_calibration(const std::string& params);

// This machine's processor as the overlay's rows match it: name ("model name"; on Arm its
// implementer and part codes), vendor ("vendor_id"), a CPU; "" where /proc/cpuinfo does not
// say.
ocl::DeviceInfo host_processor();

// The overlay's most specific "host" row for this processor, parsed; none (every factor 1)
// without one. Throws UsageError naming the file and line for that row if it does not parse
// (and for any line of the overlay that is no row at all).
HostCalibration tuned_host_calibration();

// tuned_host_calibration() made the process's current one; the overlay is read again only
// when its path (CLOSURE_TUNING, the cache folder), size or time has changed since.
void apply_tuned_host_calibration();

}  // namespace closure
