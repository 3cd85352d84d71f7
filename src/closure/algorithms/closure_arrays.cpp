// Closure rows as CSR arrays and batched reachability queries.
#include "closure/algorithms/closure_arrays.hpp"

#include <algorithm>
#include <limits>
#include <memory>
#include <stdexcept>
#include <string>
#include <utility>

#include "closure/errors.hpp"
#include "closure/util/cancel.hpp"

namespace closure {

namespace {

// When every component is one vertex (any DAG), component d is the vertex single[d]: no
// member list to look up per pair (a noticeable share of the export's work). Else null.
const vertex_t* singleton_members(const Closure& closure) {
  const size_t n = closure.vertex_count();
  if (closure.component_count() != n || n == 0) return nullptr;
  for (vertex_t c = 0; c < n; ++c)
    if (closure.members(c).size() != 1) return nullptr;
  return closure.members(0).data();
}

// 1. Rows in vertex order straight into out (out.indices sized to the pair count), each
// unsorted, with the column counts taken on the way (col_ptr[v + 1]: the rows holding
// v). A component's row is read from the closure once (reading a ragged row costs its
// span, which on scattered reach sets can be far more than its length): a multi-vertex
// component's is expanded into `shared` for its first member and copied for the others.
void unsorted_rows(const Closure& closure, bool reflexive, ClosureCsr& out,
                   std::vector<int64_t>& col_ptr) {
  const size_t n = closure.vertex_count();
  const CancelToken* cancel = current_cancel_token();
  int32_t* row = out.indices.data();
  int32_t* const end = row + out.indices.size();
  auto put = [&](vertex_t v) {
    if (row == end) throw InternalError("closure_csr: rows exceed the pair count");
    *row++ = int32_t(v);
    ++col_ptr[v + 1];
  };
  const vertex_t* single = singleton_members(closure);
  auto walk = [&](vertex_t c, auto&& emit) {
    auto add = [&](vertex_t d) {
      if (single)
        emit(single[d]);
      else
        for (const vertex_t v : closure.members(d)) emit(v);
    };
    closure.for_each_component_successor(c, add);
    // Reflexive adds (u, u) only: an acyclic component is one vertex, a cyclic one lists
    // itself already.
    if (reflexive && !closure.component_cyclic(c)) add(c);
  };
  std::vector<int32_t> shared;
  std::vector<std::pair<size_t, size_t>> shared_row;  // per component: [begin, end) in shared
  for (size_t u = 0; u < n; ++u) {
    if (u % 256 == 0) throw_if_cancelled(cancel);
    const vertex_t c = closure.component_of(vertex_t(u));
    if (single || closure.members(c).size() == 1) {
      walk(c, put);
    } else {
      if (shared_row.empty()) shared_row.assign(closure.component_count(), {0, 0});
      auto& [first, last] = shared_row[c];
      if (first == last) {  // not expanded yet (a cyclic component's row is never empty)
        first = shared.size();
        walk(c, [&](vertex_t v) { shared.push_back(int32_t(v)); });
        last = shared.size();
      }
      for (size_t i = first; i < last; ++i) put(vertex_t(shared[i]));
    }
    out.indptr[u + 1] = row - out.indices.data();
  }
  if (row != end) throw InternalError("closure_csr: rows fall short of the pair count");
}

// 2. A counting sort by column lists each column's rows ascending (col_ptr: the column
// counts of step 1)...
void sort_rows(ClosureCsr& out, std::vector<int64_t>& col_ptr) {
  const size_t n = out.indptr.size() - 1;
  const uint64_t pairs = out.indices.size();
  const CancelToken* cancel = current_cancel_token();
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
  // 3. ...and dealing them back out by row lists each row's columns ascending: O(n +
  // pairs), where sorting each row was most of the time of .to_scipy() on small closures.
  std::vector<int64_t> fill(out.indptr.begin(), out.indptr.end() - 1);
  for (size_t v = 0; v < n; ++v) {
    if (v % 4096 == 0) throw_if_cancelled(cancel);
    for (int64_t i = col_ptr[v]; i < col_ptr[v + 1]; ++i)
      out.indices[size_t(fill[size_t(col_rows[size_t(i)])]++)] = int32_t(v);
  }
}

}  // namespace

ClosureCsr closure_csr(const Closure& closure, bool reflexive) {
  const size_t n = closure.vertex_count();
  if (n > size_t(std::numeric_limits<int32_t>::max()))
    throw ResourceError("closure_csr: more vertices than int32 column indices can hold");
  const uint64_t pairs = closure.pair_count(reflexive);
  ClosureCsr out;
  out.indptr.resize(n + 1);
  out.indptr[0] = 0;
  out.indices.resize(size_t(pairs));
  std::vector<int64_t> col_ptr(n + 1, 0);
  unsorted_rows(closure, reflexive, out, col_ptr);
  sort_rows(out, col_ptr);
  return out;
}

void reaches_many(const Closure& closure, std::span<const vertex_t> us,
                  std::span<const vertex_t> vs, std::span<uint8_t> out, bool reflexive) {
  if (us.size() != vs.size() || out.size() != us.size())
    throw UsageError("reaches_many: the arrays differ in length");
  const size_t n = closure.vertex_count();
  const CancelToken* cancel = current_cancel_token();
  for (size_t i = 0; i < us.size(); ++i) {
    const vertex_t u = us[i], v = vs[i];
    if (u >= n || v >= n)
      throw UsageError("reaches_many: vertex " + std::to_string(u >= n ? u : v) +
                       " is beyond the " + std::to_string(n) + " vertices");
  }
  // Rows held on a device answer a block of pairs in one launch (Closure::reaches_many):
  // a pair at a time was a blocking read each, 70x the host's time on 20,000 pairs.
  constexpr size_t kBlock = 65536;  // and the cancellation flag polled between blocks
  std::vector<std::pair<vertex_t, vertex_t>> block;
  for (size_t b = 0; b < us.size(); b += kBlock) {
    throw_if_cancelled(cancel);
    const size_t e = std::min(us.size(), b + kBlock);
    if (closure.resident_reach()) {
      block.clear();
      for (size_t i = b; i < e; ++i) block.emplace_back(us[i], vs[i]);
      closure.reaches_many(block, out.subspan(b, e - b));
      if (reflexive)
        for (size_t i = b; i < e; ++i) out[i] |= us[i] == vs[i];
      continue;
    }
    for (size_t i = b; i < e; ++i)  // ids checked above: the components' test directly
      out[i] =
          (reflexive && us[i] == vs[i]) || closure.component_reaches(closure.component_of(us[i]),
                                                                     closure.component_of(vs[i]))
              ? 1
              : 0;
  }
}

}  // namespace closure
