// Graph construction from edge lists (CSR with sorted, de-duplicated successors).
#include "closure/graph/graph.hpp"

#include <algorithm>
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
  uint64_t out = 0;
  for (size_t u = 0; u < n; ++u) {
    auto first = targets_.begin() + offsets_[u], last = targets_.begin() + offsets_[u + 1];
    std::sort(first, last);
    last = std::unique(first, last);
    offsets_[u] = out;
    out = uint64_t(std::copy(first, last, targets_.begin() + out) - targets_.begin());
  }
  offsets_[n] = out;
  targets_.resize(out);
  targets_.shrink_to_fit();
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
