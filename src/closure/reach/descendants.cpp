// Descendants, ancestors and the transitive reduction.
#include "closure/reach/descendants.hpp"

#include <algorithm>

#include "closure/reach/reach_index.hpp"

namespace closure::reach {
namespace {

// BFS over rows (offsets, targets) from the successors of v; the visited vertices,
// ascending.
template <typename Offsets>
std::vector<vertex_t> bfs_from_successors(size_t n, const Offsets& offsets, const vertex_t* targets,
                                          vertex_t v) {
  std::vector<uint8_t> seen(n, 0);
  std::vector<vertex_t> queue;
  for (uint64_t i = offsets[v]; i < offsets[v + 1]; ++i)
    if (!seen[targets[i]]) seen[targets[i]] = 1, queue.push_back(targets[i]);
  for (size_t head = 0; head < queue.size(); ++head) {
    const vertex_t x = queue[head];
    for (uint64_t i = offsets[x]; i < offsets[x + 1]; ++i)
      if (!seen[targets[i]]) seen[targets[i]] = 1, queue.push_back(targets[i]);
  }
  std::sort(queue.begin(), queue.end());
  return queue;
}

}  // namespace

std::vector<vertex_t> descendants(const Graph& g, vertex_t v) {
  return bfs_from_successors(g.vertex_count(), g.offsets(), g.targets().data(), v);
}

std::vector<vertex_t> ancestors(const Graph& g, vertex_t v) {
  const size_t n = g.vertex_count();
  std::vector<uint64_t> roff(n + 1, 0);
  for (vertex_t t : g.targets()) ++roff[t + 1];
  for (size_t i = 0; i < n; ++i) roff[i + 1] += roff[i];
  std::vector<vertex_t> rtar(g.edge_count());
  std::vector<uint64_t> fill(roff.begin(), roff.end() - 1);
  for (vertex_t u = 0; u < n; ++u)
    for (vertex_t w : g.successors(u)) rtar[fill[w]++] = u;
  return bfs_from_successors(n, roff, rtar.data(), v);
}

std::vector<Edge> transitive_reduction(const Graph& g) {
  const size_t n = g.vertex_count();
  BuildOptions options;
  ReachIndex index(build_index(g, options));
  const IndexView& iv = index.view();
  const size_t C = iv.components;
  Querier querier(index);

  // Which condensation edges survive: (C, D) is redundant iff another successor W of C
  // reaches D. Few successors: ask the index for each pair. Many: walk them in ascending
  // (topological) order, marking everything the kept ones reach; a marked one is redundant.
  std::vector<uint8_t> keep(iv.edges, 1);
  std::vector<uint32_t> stamp(C, 0), stack;
  uint32_t epoch = 0;
  for (uint32_t c = 0; c < C; ++c) {
    const uint32_t begin = iv.offsets[c], end = iv.offsets[c + 1];
    if (end - begin <= 32) {
      for (uint32_t i = begin; i < end; ++i)
        for (uint32_t j = begin; j < i && keep[i]; ++j)  // only smaller ids can reach it
          if (querier.reaches_component(iv.targets[j], iv.targets[i])) keep[i] = 0;
      continue;
    }
    ++epoch;
    for (uint32_t i = begin; i < end; ++i) {
      const uint32_t d = iv.targets[i];
      if (stamp[d] == epoch) {
        keep[i] = 0;
        continue;
      }
      stack.assign(1, d);
      while (!stack.empty()) {
        const uint32_t x = stack.back();
        stack.pop_back();
        for (uint32_t k = iv.offsets[x]; k < iv.offsets[x + 1]; ++k)
          if (stamp[iv.targets[k]] != epoch)
            stamp[iv.targets[k]] = epoch, stack.push_back(iv.targets[k]);
      }
    }
  }

  // Each kept condensation edge becomes the smallest original edge between its components.
  constexpr uint64_t kNone = UINT64_MAX;
  std::vector<uint64_t> best(iv.edges, kNone);
  std::vector<Edge> out;
  for (vertex_t u = 0; u < n; ++u) {
    const uint32_t cu = iv.component_of[u];
    for (vertex_t v : g.successors(u)) {
      const uint32_t cv = iv.component_of[v];
      if (cu == cv) continue;
      const uint32_t* row = iv.targets + iv.offsets[cu];
      const uint32_t* row_end = iv.targets + iv.offsets[cu + 1];
      const size_t i = size_t(std::lower_bound(row, row_end, cv) - iv.targets);
      if (keep[i]) best[i] = std::min(best[i], (uint64_t(u) << 32) | v);
    }
  }
  for (size_t i = 0; i < iv.edges; ++i)
    if (keep[i] && best[i] != kNone) out.emplace_back(vertex_t(best[i] >> 32), vertex_t(best[i]));

  // Components: a cycle through the members in ascending order, or a kept self-loop.
  std::vector<std::vector<vertex_t>> members(C);
  for (vertex_t v = 0; v < n; ++v) members[iv.component_of[v]].push_back(v);
  for (uint32_t c = 0; c < C; ++c) {
    const auto& m = members[c];
    if (m.size() > 1) {
      for (size_t i = 0; i < m.size(); ++i) out.emplace_back(m[i], m[(i + 1) % m.size()]);
    } else if (iv.labels[c].bloom_in & kCyclicBit) {
      out.emplace_back(m[0], m[0]);
    }
  }
  std::sort(out.begin(), out.end());
  return out;
}

}  // namespace closure::reach
