// PropagateParams: the variant of the device propagation sweep (kernels/propagate.cl).
// Its table renders the build options (which key the program cache) and checks ranges,
// as the Boolean kernels' does; names such as "blocked8" (bench propagate's --kernels,
// DevicePropagationOptions::kernel) pick the sweep and the unit width.
#pragma once

#include <cstddef>
#include <string>

#include "closure/kernels/param_table.hpp"

namespace closure {

// member, kernel macro, default (= the kernel's #define), allowed, meaning
#define CLOSURE_PROPAGATE_PARAMS(X)                                                              \
  X(sweep, "", 0, range(0, 2), "0 chained, 1 blocked, 2 plain (PropagateParams::Sweep)")         \
  X(unit_bits, "UNIT_BITS", 32, one_of(32, 16, 8), "columns a work-item owns")                   \
  X(weighted, "WEIGHTED", 0, range(0, 1), "1: pair counts weigh bits by component sizes")        \
  X(chain_prefetch, "CHAIN_PREFETCH", 8, range(1, 32), "items of a block fetched a block ahead") \
  X(live_rows, "LIVE_ROWS", 0, range(0, 1),                                                      \
    "1 (chained, count only): only rows read back are stored, in reused slots")                  \
  X(longest_first, "LONGEST_FIRST", 1, range(0, 1),                                              \
    "1: work-groups of the highest columns (the longest sweeps) are started first")

struct PropagateParams {
  // The sweeps, all giving the same rows. chained (the default): blocks of 32 rows split
  // on the host into in-block chains and successors beyond (ChainedBlocks), loaded
  // together; blocked: the CSR staged in local memory a block of rows at a time; plain:
  // the CSR read from global memory, the only one for work-groups smaller than 32.
  enum Sweep : int { kChained, kBlocked, kPlain };
  CLOSURE_PROPAGATE_PARAMS(CLOSURE_PARAM_MEMBER)

  const char* entry_point() const;  // the sweep's kernel in propagate.cl
  // The chained and blocked sweeps are written for work-groups of exactly 32.
  bool needs_groups_of_32() const { return sweep != kPlain; }
  unsigned units_per_word() const { return 32u / unsigned(unit_bits); }
  std::string build_options()
      const;                     // "-DUNIT_BITS=32 -DWEIGHTED=0 -DCHAIN_PREFETCH=8 -DLIVE_ROWS=0"
  std::string describe() const;  // "blocked8": the name the variant is chosen by
  std::string to_string() const { return params_to_string(*this); }
  void validate() const;  // throws std::invalid_argument when a value is out of range
  bool operator==(const PropagateParams& o) const { return params_equal(*this, o); }
};

CLOSURE_PARAM_TABLE(PropagateParams, "propagate", "propagate.cl", CLOSURE_PROPAGATE_PARAMS);

// The variant `name` names: "chained", "blocked" or "plain", optionally followed by
// the columns a work-item owns (32, 16 or 8), e.g. "blocked8", and by "-inorder" (work-groups
// started in column order, not longest first); "" is the default (chained).
// Throws UsageError naming the valid names (the name is a user's: --kernels).
PropagateParams parse_propagate_kernel(const std::string& name);

// parse_propagate_kernel(name) for a device whose work-groups hold at most
// max_work_group items: one that cannot hold 32 gets the plain sweep.
PropagateParams resolve_propagate_kernel(const std::string& name, size_t max_work_group);

}  // namespace closure
