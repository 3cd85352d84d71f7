// Graph construction from edge lists (CSR with sorted, de-duplicated successors).
#include "closure/graph/graph.hpp"

#include <algorithm>
#include <functional>
#include <stdexcept>

#include "closure/graph/huge_pages.hpp"

namespace closure {

Graph::Graph(size_t n, std::vector<Edge> edges, std::vector<std::string> labels)
    : labels_(std::move(labels)) {
  if (!labels_.empty() && labels_.size() != n)
    throw std::invalid_argument("Graph: label count differs from vertex count");
  // Counting sort by source, then sort and de-duplicate each (short) row: linear in m
  // plus small sorts, where one global sort of the pairs dominated reading large files.
  detail::reserve_huge(offsets_, n + 1);
  offsets_.assign(n + 1, 0);
  for (const auto& [u, v] : edges) {
    if (u >= n || v >= n) throw std::out_of_range("Graph: edge endpoint beyond vertex count");
    ++offsets_[u + 1];
  }
  for (size_t i = 0; i < n; ++i) offsets_[i + 1] += offsets_[i];
  detail::reserve_huge(targets_, edges.size());
  targets_.resize(edges.size());
  {
    std::vector<uint64_t> fill;
    detail::reserve_huge(fill, n);
    fill.assign(offsets_.begin(), offsets_.end() - 1);
    for (const auto& [u, v] : edges) targets_[fill[u]++] = v;
  }
  edges = {};
  normalise_rows();
}

Graph Graph::from_rows(std::vector<uint64_t> offsets, std::vector<vertex_t> targets) {
  if (offsets.empty() || offsets.front() != 0 || offsets.back() != targets.size())
    throw std::invalid_argument("Graph: row offsets do not span the targets");
  const size_t n = offsets.size() - 1;
  for (size_t u = 0; u < n; ++u)
    if (offsets[u] > offsets[u + 1]) throw std::invalid_argument("Graph: row offsets descend");
  for (const vertex_t v : targets)
    if (v >= n) throw std::out_of_range("Graph: edge endpoint beyond vertex count");
  Graph g;
  g.offsets_ = std::move(offsets);
  g.targets_ = std::move(targets);
  g.normalise_rows();
  return g;
}

void Graph::normalise_rows() {
  const size_t n = vertex_count();
  uint64_t out = 0;
  for (size_t u = 0; u < n; ++u) {
    auto first = targets_.begin() + offsets_[u], last = targets_.begin() + offsets_[u + 1];
    // Rows that are already strictly ascending (a condensation's) are only checked.
    if (std::adjacent_find(first, last, std::greater_equal<>()) != last) {
      std::sort(first, last);
      last = std::unique(first, last);
    }
    offsets_[u] = out;
    if (targets_.begin() + int64_t(out) == first)  // nothing dropped so far: already in place
      out += uint64_t(last - first);
    else
      out = uint64_t(std::copy(first, last, targets_.begin() + out) - targets_.begin());
  }
  offsets_[n] = out;
  // Give memory back only when duplicates freed much of it: shrinking copies the whole
  // array into fresh pages (a 58 MB copy and its page faults, 10% of reading a 14.5M-edge
  // file with a few dozen duplicate edges).
  const bool mostly_dropped = out < targets_.size() - targets_.size() / 8;
  targets_.resize(out);
  if (mostly_dropped) targets_.shrink_to_fit();
}

std::vector<Edge> Graph::edges() const {
  std::vector<Edge> out;
  out.reserve(edge_count());
  for (vertex_t u = 0; u < vertex_count(); ++u)
    for (vertex_t v : successors(u)) out.emplace_back(u, v);
  return out;
}

bool Graph::has_self_loop() const {
  for (vertex_t u = 0; u < vertex_count(); ++u)
    for (vertex_t v : successors(u))
      if (u == v) return true;
  return false;
}

}  // namespace closure
