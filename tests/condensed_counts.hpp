// What the host counts' tests (column and chain counts) share: a graph's condensation with
// its component sizes, and the pairs between distinct components by the sparse closure.
#pragma once

#include <cstdint>
#include <vector>

#include "closure/algorithms/host_closure.hpp"
#include "closure/algorithms/scc.hpp"

namespace closure::testing {

struct Condensed {
  SccResult scc;
  CsrDag dag;
  std::vector<uint32_t> sizes;
};

inline Condensed condensed_of(const Graph& g) {
  Condensed c{strongly_connected_components(g), {}, {}};
  c.dag = condensation_csr(g, c.scc);
  c.sizes.assign(c.scc.component_count(), 0);
  for (vertex_t k : c.scc.component_of) ++c.sizes[k];
  return c;
}

// The pairs between distinct components, as the counts weigh them: the sparse closure's
// pairs less those inside components (a cyclic component of s vertices holds s * s).
inline uint64_t cross_pairs(const Graph& g, const Condensed& c) {
  uint64_t inside = 0;
  for (size_t k = 0; k < c.sizes.size(); ++k)
    if (c.scc.cyclic[k]) inside += uint64_t(c.sizes[k]) * c.sizes[k];
  return closure_sparse(g).pair_count() - inside;
}

}  // namespace closure::testing
