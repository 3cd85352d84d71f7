// A directed graph as bare CSR arrays: the condensation's form on hot paths (sparse and
// device propagation, the chained blocks) that skip Graph's re-sort of the edge list. Here,
// below the algorithms that make it and the kernels that upload it.
#pragma once

#include <cstdint>
#include <vector>

#include "closure/graph/graph.hpp"

namespace closure {

// Successors of c: targets[offsets[c] .. offsets[c+1]), ascending.
struct CsrDag {
  std::vector<uint64_t> offsets;  // component_count + 1
  std::vector<vertex_t> targets;
};

}  // namespace closure
