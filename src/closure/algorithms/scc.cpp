// Iterative Tarjan SCC, condensation and Kahn's topological order.
#include "closure/algorithms/scc.hpp"

#include <algorithm>
#include <limits>

#include "closure/util/cancel.hpp"
#include "closure/util/work_meter.hpp"

namespace closure {

SccResult strongly_connected_components(const Graph& g) {
  constexpr vertex_t kNone = std::numeric_limits<vertex_t>::max();  // not visited yet
  constexpr vertex_t kDone = kNone - 1;                             // in a component
  const size_t n = g.vertex_count();
  const auto offsets = g.offsets();
  const auto targets = g.targets();

  // Per vertex one 8-byte record, so a DFS step on a graph with scattered ids costs one
  // cache miss, not one per array: index = DFS number (kNone before, kDone after the
  // vertex joins a component), low = low-link, and afterwards its component number.
  struct State {
    vertex_t index, low;
  };
  std::vector<State> state(n, State{kNone, 0});
  std::vector<vertex_t> stack;  // Tarjan's stack: visited vertices not yet in a component
  struct Frame {
    vertex_t v;
    uint64_t next_edge, end_edge;
  };
  std::vector<Frame> call;  // the explicit DFS stack that replaces recursion
  std::vector<uint8_t> cyclic;
  vertex_t counter = 0, found = 0;

  // Roots: sources (in-degree 0) first, then the rest. A DFS started inside a path would
  // cut it into blocks numbered out of order; from the sources, each DFS subtree gets
  // consecutive topological ids, which the sparse method stores as one run per row.
  std::vector<uint8_t> has_pred(n, 0);
  for (vertex_t v : targets) has_pred[v] = 1;
  std::vector<vertex_t> roots;
  roots.reserve(n);
  for (size_t v = 0; v < n; ++v)
    if (!has_pred[v]) roots.push_back(vertex_t(v));
  for (size_t v = 0; v < n; ++v)
    if (has_pred[v]) roots.push_back(vertex_t(v));
  has_pred = {};

  auto visit = [&](vertex_t v) {
    state[v] = {counter, counter};
    ++counter;
    stack.push_back(v);
    call.push_back({v, offsets[v], offsets[v + 1]});
  };
  // Linear time, but seconds on graphs of 10^8 edges: polled every 2^16 steps.
  const CancelToken* cancel = current_cancel_token();
  WorkMeter* meter = current_work_meter();  // a step per vertex and per edge
  meter_start(meter, uint64_t(offsets.size() - 1) + targets.size());
  uint32_t steps = 0;
  for (const vertex_t root : roots) {
    if (state[root].index != kNone) continue;
    visit(root);
    while (!call.empty()) {
      if (++steps % 65536 == 0) {
        throw_if_cancelled(cancel);
        meter_add(meter, 65536);
      }
      Frame& f = call.back();
      const vertex_t v = f.v;
      if (f.next_edge < f.end_edge) {
        const vertex_t w = targets[f.next_edge++];
        const State sw = state[w];
        if (sw.index == kNone) {
          visit(w);  // invalidates f
        } else if (sw.index != kDone) {
          // Visited and not in a component yet means w is on Tarjan's stack.
          state[v].low = std::min(state[v].low, sw.index);
        }
        continue;
      }
      call.pop_back();
      const State sv = state[v];
      if (!call.empty()) {
        State& parent = state[call.back().v];
        parent.low = std::min(parent.low, sv.low);
      }
      if (sv.low != sv.index) continue;
      // v roots a component: pop it. Tarjan finds components sinks first.
      size_t size = 0;
      vertex_t w;
      do {
        w = stack.back();
        stack.pop_back();
        state[w] = {kDone, found};
        ++size;
      } while (w != v);
      bool self_loop = false;
      if (size == 1) {
        const auto succ = g.successors(v);
        self_loop = std::binary_search(succ.begin(), succ.end(), v);
      }
      cyclic.push_back(size > 1 || self_loop ? 1 : 0);
      ++found;
    }
  }

  // Reverse Tarjan's order to get topological ids.
  SccResult out;
  out.component_of.resize(n);
  for (size_t v = 0; v < n; ++v) out.component_of[v] = found - 1 - state[v].low;
  std::reverse(cyclic.begin(), cyclic.end());
  out.cyclic = std::move(cyclic);
  return out;
}

CsrDag condensation_csr(const Graph& g, const SccResult& scc) {
  const size_t n = g.vertex_count();
  const size_t comps = scc.component_count();
  const auto& comp = scc.component_of;
  // Two counting sorts instead of a comparison sort per row (which took 0.7 s on a
  // 20-million-edge DAG): bucket the sources by target component, then deal them out
  // by source component walking the targets in ascending order, so every row comes out
  // sorted. Duplicates (from cyclic components) end up adjacent and are dropped last.
  std::vector<uint64_t> by_target(comps + 1, 0);
  for (size_t u = 0; u < n; ++u) {
    const vertex_t cu = comp[u];
    for (vertex_t v : g.successors(vertex_t(u)))
      if (comp[v] != cu) ++by_target[comp[v] + 1];
  }
  for (size_t c = 0; c < comps; ++c) by_target[c + 1] += by_target[c];
  const size_t m = by_target[comps];
  std::vector<vertex_t> sources(m);
  std::vector<uint64_t> out_degree(comps + 1, 0);
  {
    std::vector<uint64_t> fill(by_target.begin(), by_target.end() - 1);
    for (size_t u = 0; u < n; ++u) {
      const vertex_t cu = comp[u];
      for (vertex_t v : g.successors(vertex_t(u)))
        if (comp[v] != cu) {
          sources[fill[comp[v]]++] = cu;
          ++out_degree[cu + 1];
        }
    }
  }
  for (size_t c = 0; c < comps; ++c) out_degree[c + 1] += out_degree[c];
  CsrDag out;
  out.targets.resize(m);
  {
    std::vector<uint64_t> fill(out_degree.begin(), out_degree.end() - 1);
    for (size_t t = 0; t < comps; ++t)
      for (uint64_t i = by_target[t]; i < by_target[t + 1]; ++i)
        out.targets[fill[sources[i]]++] = vertex_t(t);
  }
  sources = {};
  if (comps == n) {
    // Every component one vertex: edges map one-to-one (the input's rows hold no
    // duplicates), so there is nothing to drop.
    out.offsets = std::move(out_degree);
    return out;
  }
  // Drop duplicates in place, row by row.
  out.offsets.assign(comps + 1, 0);
  size_t write = 0;
  for (size_t c = 0; c < comps; ++c) {
    vertex_t last = std::numeric_limits<vertex_t>::max();
    for (uint64_t i = out_degree[c]; i < out_degree[c + 1]; ++i) {
      const vertex_t t = out.targets[i];
      if (t != last) out.targets[write++] = last = t;
    }
    out.offsets[c + 1] = write;
  }
  out.targets.resize(write);
  return out;
}

Graph condensation_dag(const Graph& g, const SccResult& scc) {
  CsrDag csr = condensation_csr(g, scc);
  return Graph::from_rows(std::move(csr.offsets), std::move(csr.targets));
}

Condensation condense(const Graph& g) {
  Condensation c;
  c.scc = strongly_connected_components(g);
  c.dag = condensation_dag(g, c.scc);
  return c;
}

std::optional<std::vector<vertex_t>> topological_order(const Graph& g) {
  const size_t n = g.vertex_count();
  std::vector<vertex_t> indegree(n, 0);
  for (vertex_t v : g.targets()) ++indegree[v];
  std::vector<vertex_t> order;
  order.reserve(n);
  for (size_t v = 0; v < n; ++v)
    if (indegree[v] == 0) order.push_back(vertex_t(v));
  // `order` doubles as the queue: everything before `head` is placed.
  for (size_t head = 0; head < order.size(); ++head)
    for (vertex_t w : g.successors(order[head]))
      if (--indegree[w] == 0) order.push_back(w);
  if (order.size() != n) return std::nullopt;
  return order;
}

bool is_dag(const Graph& g) {
  return topological_order(g).has_value();
}

}  // namespace closure
