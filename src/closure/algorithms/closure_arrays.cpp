// Closure rows as CSR arrays and batched reachability queries.
#include "closure/algorithms/closure_arrays.hpp"

#include <algorithm>
#include <limits>
#include <stdexcept>
#include <string>

#include "closure/util/cancel.hpp"

namespace closure {

ClosureCsr closure_csr(const Closure& closure, bool reflexive) {
  const size_t n = closure.vertex_count();
  const size_t comps = closure.component_count();
  const CancelToken* cancel = current_cancel_token();
  if (n > size_t(std::numeric_limits<int32_t>::max()))
    throw std::length_error("closure_csr: more vertices than int32 column indices can hold");

  // Each component's row, expanded once (reading a ragged row costs its word span, which
  // on scattered reach sets is far more than its length) into one buffer; then every
  // vertex copies its component's row. The buffer holds one row per component: no more
  // than the result itself.
  std::vector<uint64_t> row_start(comps + 1, 0);
  std::vector<int32_t> rows;
  std::vector<vertex_t> row;
  for (vertex_t c = 0; c < comps; ++c) {
    if (c % 256 == 0) throw_if_cancelled(cancel);
    closure.successors(closure.members(c)[0], row, reflexive);
    rows.insert(rows.end(), row.begin(), row.end());
    row_start[c + 1] = rows.size();
  }
  ClosureCsr out;
  out.indptr.resize(n + 1);
  out.indptr[0] = 0;
  for (size_t u = 0; u < n; ++u) {
    const vertex_t c = closure.component_of(vertex_t(u));
    out.indptr[u + 1] = out.indptr[u] + int64_t(row_start[c + 1] - row_start[c]);
  }
  out.indices.resize(size_t(out.indptr[n]));
  for (size_t u = 0; u < n; ++u) {
    if (u % 4096 == 0) throw_if_cancelled(cancel);
    const vertex_t c = closure.component_of(vertex_t(u));
    std::copy(rows.begin() + int64_t(row_start[c]), rows.begin() + int64_t(row_start[c + 1]),
              out.indices.begin() + out.indptr[u]);
  }
  return out;
}

void reaches_many(const Closure& closure, std::span<const vertex_t> us,
                  std::span<const vertex_t> vs, std::span<uint8_t> out, bool reflexive) {
  if (us.size() != vs.size() || out.size() != us.size())
    throw std::invalid_argument("reaches_many: the arrays differ in length");
  const size_t n = closure.vertex_count();
  const CancelToken* cancel = current_cancel_token();
  for (size_t i = 0; i < us.size(); ++i) {
    if (i % 65536 == 0) throw_if_cancelled(cancel);
    const vertex_t u = us[i], v = vs[i];
    if (u >= n || v >= n)
      throw std::out_of_range("reaches_many: vertex " + std::to_string(u >= n ? u : v) +
                              " is beyond the " + std::to_string(n) + " vertices");
    out[i] = (reflexive && u == v) || closure.reaches(u, v) ? 1 : 0;
  }
}

}  // namespace closure
