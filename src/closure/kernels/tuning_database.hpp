// The tuning database: tuned kernel parameters as data, searched as CLBlast's database is
// (device name, then vendor, then device type, then default). Rows come from the built-in
// table (closure/kernels/tuning_rows.cpp) and from an overlay file that the sweeps write
// (`closure bench bool --sweep`, `closure bench gemm --sweep`); overlay rows come first at
// each level. The format of both, one row a line ('#' starts a comment):
//
//   # family   match                  parameters
//   boolean    device="NVIDIA H200"   tile_n=4,tile_m=4,tile_w=8,tile_k=4
//   sgemm      type=gpu               tsm=64,tsn=128,tsk=32,wptm=4,wptn=8,vwm=4,vwk=4,padb=4,prf=1
//
// family: a ParamTable<P>::family ("boolean", "mma", "sgemm", "float_gemm", "book_mmul");
// match: device=TEXT or vendor=TEXT (a substring of the device's name or vendor; quote
// TEXT with spaces), type=gpu|cpu|accelerator, or default; parameters: the family's
// key=value list (keys left out keep the table's defaults).
#pragma once

#include <string>
#include <vector>

#include "closure/config.hpp"
#include "closure/kernels/param_table.hpp"
#include "closure/ocl/device.hpp"

namespace closure {

// The overlay: $CLOSURE_TUNING ("off": none), else $XDG_CACHE_HOME/closure/tuning.txt,
// else ~/.cache/closure/tuning.txt. A missing file is an empty overlay.
inline constexpr const char* kTuningEnv = config::kTuning;
std::string tuning_overlay_path();

struct TuningRow {
  enum class Level { kDevice, kVendor, kType, kDefault };
  std::string family;
  Level level = Level::kDefault;
  std::string match;               // the substring, or the type name; empty for kDefault
  std::string params;              // "key=value,..."
  std::string where;               // "FILE:LINE" for messages
  std::string match_text() const;  // `device="NVIDIA H200"`, `type=gpu`, `default`
  bool matches(const ocl::DeviceInfo& device) const;
};

// Parses rows in the format above; throws std::invalid_argument "NAME:LINE: message".
std::vector<TuningRow> parse_tuning_rows(const std::string& text, const std::string& name);

// Every row of `family` that matches the device, most specific first (overlay before the
// built-in table within a level).
std::vector<TuningRow> tuning_rows_for(const std::string& family, const ocl::DeviceInfo& device);
// The same in two steps: every row of `family`, the overlay's first (a caller that must
// look the device up finds first whether any row could match it) ...
std::vector<TuningRow> tuning_rows_of(const std::string& family);
// ... then those of `rows` that match the device, most specific first.
std::vector<TuningRow> most_specific_first(const std::vector<TuningRow>& rows,
                                           const ocl::DeviceInfo& device);

// The overlay's rows of `family` alone, without parsing the built-in table: the host's
// calibration (kHostTuningFamily), which only a machine's own `--calibrate --save` can know,
// asked by every Session.
std::vector<TuningRow> overlay_tuning_rows_of(const std::string& family);

// The built-in row of `family` with this match text (e.g. "type=gpu"); throws
// std::logic_error when there is none (a test or constant names a row that was removed).
TuningRow builtin_tuning_row(const std::string& family, const std::string& match_text);

// Adds a library's built-in rows (`text` in the format above, `name` for messages) beside the
// product's: the float GEMM family keeps its rows with its kernels. The same text twice adds
// nothing.
void add_builtin_tuning_rows(const char* text, const std::string& name);

// Writes `row` into the overlay file at `path` (atomically), replacing a row of the same
// family and match; `comment` becomes a '#' line above it. Returns the path.
std::string save_tuning_row(const TuningRow& row, const std::string& comment,
                            const std::string& path = tuning_overlay_path());

// The matching row for a device, parsed as P: the first row, most specific first, whose
// parameters validate on the device; P{} when none does. A row that does not parse is an
// error naming its file and line.
template <class P>
P tuned_params(const ocl::DeviceInfo& device, P fallback = {}) {
  for (const TuningRow& row : tuning_rows_for(ParamTable<P>::family, device)) {
    P p;
    try {
      p = parse_params(row.params, P{});
    } catch (const UsageError& e) {  // a row of the overlay file (the built-in rows are tested)
      throw UsageError(row.where + ": " + e.what());
    }
    try {
      p.validate(device);
      return p;
    } catch (const Error&) {
      // out of range or too big for this device: the next, less specific row
    }
  }
  return fallback;
}

// A row for the overlay, matching this device by its full name.
template <class P>
TuningRow device_tuning_row(const P& params, const ocl::DeviceInfo& device) {
  return {ParamTable<P>::family, TuningRow::Level::kDevice, device.name, params_to_string(params),
          ""};
}

}  // namespace closure
