// The dense methods on P ranks: SUMMA-style repeated squaring of the condensation's reach
// matrix over column panels (a 1 x P process grid). Rank r owns R(:, J_r), the columns of
// its WordRange. A round computes R <- R | R * R: each rank in turn broadcasts its panel
// R(:, J_k), and every rank ORs R(:, J_k) * R(J_k, J_r) into its own, R(J_k, J_r) being
// rows of the panel it already holds. Rounds stop when no panel changed (at most
// log2(C) + 1). Each rank receives the whole matrix once a round (C*C/8 bytes) and does
// C*C*|J_r|/32 word operations of product.
#pragma once

#include <span>
#include <vector>

#include "app/distributed/column_slices.hpp"
#include "closure/algorithms/scc.hpp"
#include "closure/kernels/boolean_params.hpp"
#include "closure/ocl/runtime.hpp"
#include "closure/session/communicator.hpp"

namespace closure {

struct PanelSquaringStats {
  int rounds = 0;
  double compute_s = 0, communicate_s = 0;
};

// This rank's columns of the closure of the condensation `dag` (ids topological), with
// the products on rt's device (params) or, without one, on the host. Every rank calls it
// with the same ranges; a failure on any rank stops every rank (collectively()).
ColumnSlice square_panels(Communicator& comm, const CsrDag& dag, std::span<const uint32_t> sizes,
                          const std::vector<WordRange>& ranges, ocl::Runtime* rt,
                          const BooleanParams& params, PanelSquaringStats* stats = nullptr);

}  // namespace closure
