// Closure rows as CSR arrays and batched reachability queries.
#include "closure/algorithms/closure_arrays.hpp"

#include <algorithm>
#include <limits>
#include <memory>
#include <stdexcept>
#include <string>

#include "closure/util/cancel.hpp"

namespace closure {

namespace {

// The last step of both paths below: col_rows lists each column's rows ascending
// (col_ptr delimits the columns); dealing them out by row lists each row's columns
// ascending, into out.indices at out.indptr's offsets. O(n + pairs), where sorting each
// row was most of the time of .to_scipy() on small closures.
void transpose_into_rows(const std::vector<int64_t>& col_ptr, const int32_t* col_rows,
                         ClosureCsr& out, const CancelToken* cancel) {
  const size_t n = col_ptr.size() - 1;
  std::vector<int64_t> fill(out.indptr.begin(), out.indptr.end() - 1);
  int32_t* indices = out.indices.data();
  for (size_t v = 0; v < n; ++v) {
    if (v % 4096 == 0) throw_if_cancelled(cancel);
    for (int64_t i = col_ptr[v]; i < col_ptr[v + 1]; ++i)
      indices[fill[size_t(col_rows[i])]++] = int32_t(v);
  }
}

// Every component one vertex (any DAG): rows are read in vertex order straight into
// out.indices (unsorted, with the column counts taken on the way), bucketed by column,
// and dealt back. Component d is the vertex single[d]; the result's size is the pair count.
ClosureCsr csr_of_singletons(const Closure& closure, bool reflexive, const CancelToken* cancel) {
  const size_t n = closure.vertex_count();
  const vertex_t* single = closure.members(0).data();
  const uint64_t pairs = closure.pair_count(reflexive);
  ClosureCsr out;
  out.indptr.resize(n + 1);
  out.indptr[0] = 0;
  out.indices.resize(size_t(pairs));
  std::vector<int64_t> col_ptr(n + 1, 0);
  int32_t* row = out.indices.data();
  int32_t* const end = row + pairs;
  for (size_t u = 0; u < n; ++u) {
    if (u % 256 == 0) throw_if_cancelled(cancel);
    const vertex_t c = closure.component_of(vertex_t(u));
    auto add = [&](vertex_t d) {
      const vertex_t v = single[d];
      if (row == end) throw std::logic_error("closure_csr: rows exceed the pair count");
      *row++ = int32_t(v);
      ++col_ptr[v + 1];
    };
    closure.for_each_component_successor(c, add);
    if (reflexive && !closure.component_cyclic(c)) add(c);
    out.indptr[u + 1] = row - out.indices.data();
  }
  if (row != end) throw std::logic_error("closure_csr: rows fall short of the pair count");
  for (size_t v = 0; v < n; ++v) col_ptr[v + 1] += col_ptr[v];
  std::unique_ptr<int32_t[]> col_rows(new int32_t[pairs]);  // every slot is written below
  {
    std::vector<int64_t> fill(col_ptr.begin(), col_ptr.end() - 1);
    for (size_t u = 0; u < n; ++u) {
      if (u % 4096 == 0) throw_if_cancelled(cancel);
      for (int64_t i = out.indptr[u]; i < out.indptr[u + 1]; ++i)
        col_rows[size_t(fill[size_t(out.indices[size_t(i)])]++)] = int32_t(u);
    }
  }
  transpose_into_rows(col_ptr, col_rows.get(), out, cancel);
  return out;
}

// (comps == n alone would not do: a caller's grouping may leave a component id empty.)
bool every_component_one_vertex(const Closure& closure) {
  if (closure.vertex_count() == 0 || closure.component_count() != closure.vertex_count())
    return false;
  for (vertex_t c = 0; c < closure.component_count(); ++c)
    if (closure.members(c).size() != 1) return false;
  return true;
}

}  // namespace

ClosureCsr closure_csr(const Closure& closure, bool reflexive) {
  const size_t n = closure.vertex_count();
  const size_t comps = closure.component_count();
  const CancelToken* cancel = current_cancel_token();
  if (n > size_t(std::numeric_limits<int32_t>::max()))
    throw std::length_error("closure_csr: more vertices than int32 column indices can hold");
  if (every_component_one_vertex(closure)) return csr_of_singletons(closure, reflexive, cancel);

  // Each component's row, read once (reading a ragged row costs its word span, which on
  // scattered reach sets can be far more than its length) and expanded into its members'
  // vertex ids, in component order: no sorting per row. The buffer holds one row per
  // component; the column counts are taken on the way.
  std::vector<uint64_t> row_start(comps + 1);
  row_start[0] = 0;
  std::vector<int32_t> rows;
  // At most the pair count (components group vertices): no regrowth copies. Capped, as the
  // reservation is address space, which a ulimit may bound.
  rows.reserve(size_t(std::min<uint64_t>(closure.pair_count(reflexive), uint64_t{1} << 26)));
  std::vector<int64_t> col_ptr(n + 1, 0);
  for (vertex_t c = 0; c < comps; ++c) {
    if (c % 256 == 0) throw_if_cancelled(cancel);
    const int64_t copies = int64_t(closure.members(c).size());
    auto add = [&](vertex_t d) {
      for (const vertex_t v : closure.members(d)) {
        rows.push_back(int32_t(v));
        col_ptr[v + 1] += copies;
      }
    };
    closure.for_each_component_successor(c, add);
    // Reflexive adds (u, u) only: an acyclic component is one vertex, a cyclic one lists
    // itself already.
    if (reflexive && !closure.component_cyclic(c)) add(c);
    row_start[c + 1] = rows.size();
  }
  // Every vertex copies its component's row (unsorted) into the transposed order at once:
  // a counting sort by column lists each column's rows ascending...
  for (size_t v = 0; v < n; ++v) col_ptr[v + 1] += col_ptr[v];
  const auto nnz = size_t(col_ptr[n]);
  std::unique_ptr<int32_t[]> col_rows(new int32_t[nnz]);  // every slot is written below
  {
    std::vector<int64_t> fill(col_ptr.begin(), col_ptr.end() - 1);
    for (size_t u = 0; u < n; ++u) {
      if (u % 4096 == 0) throw_if_cancelled(cancel);
      const vertex_t c = closure.component_of(vertex_t(u));
      const int32_t* row = rows.data() + row_start[c];
      const int32_t* end = rows.data() + row_start[c + 1];
      for (; row != end; ++row) col_rows[size_t(fill[size_t(*row)]++)] = int32_t(u);
    }
  }
  rows = {};
  // ...and the counting sort back by row.
  ClosureCsr out;
  out.indptr.resize(n + 1);
  out.indptr[0] = 0;
  for (size_t u = 0; u < n; ++u) {
    const vertex_t c = closure.component_of(vertex_t(u));
    out.indptr[u + 1] = out.indptr[u] + int64_t(row_start[c + 1] - row_start[c]);
  }
  out.indices.resize(nnz);
  transpose_into_rows(col_ptr, col_rows.get(), out, cancel);
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
