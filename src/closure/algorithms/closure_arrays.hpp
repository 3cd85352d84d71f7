// The closure as flat arrays, for callers that hand it to array libraries (the Python
// module's scipy.sparse and NumPy results): compressed rows over vertices, and batched
// reachability queries.
#pragma once

#include <cstdint>
#include <span>
#include <vector>

#include "closure/algorithms/closure.hpp"

namespace closure {

// Row u lists the vertices v with (u,v) in the closure, ascending:
// indices[indptr[u] .. indptr[u+1]). The types are scipy.sparse's (int64 row pointers,
// int32 column indices).
struct ClosureCsr {
  std::vector<int64_t> indptr;  // vertex_count + 1
  std::vector<int32_t> indices;
};

// Each component's row is expanded once and copied to its members. Polls the current
// cancellation token (closure/util/cancel.hpp).
ClosureCsr closure_csr(const Closure& closure, bool reflexive = false);

// out[i] = whether us[i] reaches vs[i] (1 or 0); with reflexive, (v,v) always holds.
// Throws std::out_of_range naming the first vertex id beyond the closure's vertex count.
void reaches_many(const Closure& closure, std::span<const vertex_t> us,
                  std::span<const vertex_t> vs, std::span<uint8_t> out, bool reflexive = false);

}  // namespace closure
