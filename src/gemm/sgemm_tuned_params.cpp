// myGEMM_tuned parameters: options, padding, launch geometry, validation, defaults, grid.
#include "gemm/sgemm_tuned_params.hpp"

#include <stdexcept>

#include "closure/errors.hpp"
#include "gemm/float_params.hpp"

namespace closure {

using namespace float_params_detail;

namespace {

size_t round_up(size_t x, int m) {
  return (x + size_t(m) - 1) / size_t(m) * size_t(m);
}

void require(bool ok, const std::string& what, const std::string& rule) {
  if (!ok) throw UsageError(what + ": " + rule);
}

bool is_vector_width(int w) {
  return w == 1 || w == 2 || w == 4 || w == 8;
}

}  // namespace

GemmShape SgemmTunedParams::padded(GemmShape s) const {
  return {round_up(s.m, tsm), round_up(s.k, tsk), round_up(s.n, tsn)};
}

void SgemmTunedParams::validate(const ocl::DeviceInfo& device) const {
  const std::string what = "myGEMM_tuned parameters " + to_string();
  check_param_ranges(*this, what);
  require(is_vector_width(vwm) && is_vector_width(vwk), what, "vwm and vwk must be 1, 2, 4 or 8");
  // The kernel's #error says the same; refusing here names the rule before compiling.
  require(tsm % wptm == 0, what, "tsm must be a multiple of wptm (whole work-items per tile)");
  require(tsn % wptn == 0, what, "tsn must be a multiple of wptn (whole work-items per tile)");
  require(wptm % vwm == 0, what, "wptm must be a multiple of vwm (whole vectors of C)");
  require(tsk % vwk == 0, what, "tsk must be a multiple of vwk (whole vectors of B)");
  require(padb % vwk == 0, what, "padb must be a multiple of vwk (aligned vectors of local B)");
  // 128 accumulators is already half of a GPU thread's 255 registers; beyond, every
  // device spills them to memory and the register blocking defeats itself.
  require(wptm * wptn <= 128, what, "wptm * wptn must be at most 128 (accumulators in registers)");
  check_group(what, "myGEMM_tuned ((tsm/wptm) * (tsn/wptn))", group_items(), device);
  check_local(what, "myGEMM_tuned (tsk*tsm + tsn*(tsk+padb) floats)", local_bytes(), device);
}

std::vector<SgemmTunedParams> sgemm_tuned_sweep_grid() {
  // (tsm, tsn, wptm, wptn): group sizes 64..512, 16..64 accumulators per work-item.
  constexpr int kShapes[][4] = {{128, 128, 8, 8}, {128, 128, 8, 4}, {128, 64, 8, 4},
                                {64, 128, 4, 8},  {64, 64, 4, 4},   {64, 64, 8, 8}};
  constexpr int kTsk[] = {8, 16, 32};
  constexpr int kPadb[] = {0, 4};
  std::vector<SgemmTunedParams> grid;
  for (const auto& s : kShapes)
    for (int tsk : kTsk)
      for (int padb : kPadb)
        for (int prf : {0, 1}) grid.push_back({s[0], s[1], tsk, s[2], s[3], 4, 4, padb, prf});
  // float2 once per shape: whether the wider loads pay on this device at all.
  for (const auto& s : kShapes) grid.push_back({s[0], s[1], 16, s[2], s[3], 2, 2, 0, 0});
  return grid;
}

}  // namespace closure
