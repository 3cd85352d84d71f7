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

  // Row length per component (every member of a component has the same row), from the
  // component-level successors, without expanding them.
  std::vector<uint64_t> length(comps, 0);
  std::vector<vertex_t> succ;
  for (vertex_t c = 0; c < comps; ++c) {
    if (c % 1024 == 0) throw_if_cancelled(cancel);
    closure.component_successors(c, succ);
    uint64_t len = 0;
    for (vertex_t d : succ) len += closure.members(d).size();
    if (reflexive && !closure.component_cyclic(c)) ++len;  // acyclic: the vertex alone
    length[c] = len;
  }
  ClosureCsr out;
  out.indptr.resize(n + 1);
  out.indptr[0] = 0;
  for (size_t u = 0; u < n; ++u)
    out.indptr[u + 1] = out.indptr[u] + int64_t(length[closure.component_of(vertex_t(u))]);
  out.indices.resize(size_t(out.indptr[n]));

  // Expand each component's row once (sorted by vertex), copy it to every member.
  std::vector<vertex_t> row;
  for (vertex_t c = 0; c < comps; ++c) {
    const auto members = closure.members(c);
    if (c % 256 == 0) throw_if_cancelled(cancel);
    closure.successors(members[0], row, reflexive);
    for (vertex_t u : members)
      std::copy(row.begin(), row.end(), out.indices.begin() + out.indptr[u]);
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
