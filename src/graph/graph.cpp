// Graph construction from edge lists (CSR with sorted, de-duplicated successors).
#include "graph/graph.hpp"

#include <algorithm>
#include <stdexcept>

namespace closure {

Graph::Graph(size_t n, std::vector<Edge> edges, std::vector<std::string> labels)
    : labels_(std::move(labels)) {
  if (!labels_.empty() && labels_.size() != n)
    throw std::invalid_argument("Graph: label count differs from vertex count");
  std::sort(edges.begin(), edges.end());
  edges.erase(std::unique(edges.begin(), edges.end()), edges.end());
  offsets_.assign(n + 1, 0);
  targets_.reserve(edges.size());
  for (const auto& [u, v] : edges) {
    if (u >= n || v >= n) throw std::out_of_range("Graph: edge endpoint beyond vertex count");
    ++offsets_[u + 1];
    targets_.push_back(v);
  }
  for (size_t i = 0; i < n; ++i) offsets_[i + 1] += offsets_[i];
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
