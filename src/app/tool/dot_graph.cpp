// The condensation drawing of dot_graph.hpp.
#include "app/tool/dot_graph.hpp"

#include <vector>

#include "closure/algorithms/scc.hpp"
#include "closure/io/dot_text.hpp"
#include "closure/reach/descendants.hpp"

namespace closure {

std::string dot_of_condensation(const Graph& g, CondensationCounts* counts, size_t members_shown) {
  const Condensation c = condense(g);
  const size_t k = c.scc.component_count();
  std::vector<std::vector<vertex_t>> members(k);
  for (vertex_t v = 0; v < g.vertex_count(); ++v) members[c.scc.component_of[v]].push_back(v);
  // The condensation is a DAG: its reduction is its Hasse diagram, the fewest arrows that
  // still show every component each one reaches.
  const std::vector<Edge> reduced =
      reach::transitive_reduction(Graph::from_rows(c.dag.offsets, c.dag.targets));
  std::vector<std::string> ids(k);
  std::string out = "digraph condensation {\n";
  for (size_t comp = 0; comp < k; ++comp) {
    const auto& m = members[comp];
    ids[comp] = dot_id(g.label(m.front()));
    out.append("  ").append(ids[comp]);
    if (m.size() > 1 || c.scc.cyclic[comp]) {
      // Members one per line (a real line break, which dot_id writes as \n).
      std::string label;
      for (size_t i = 0; i < m.size() && i < members_shown; ++i)
        label.append(i ? "\n" : "").append(g.label(m[i]));
      if (m.size() > members_shown)
        label += "\n+" + std::to_string(m.size() - members_shown) + " more";
      out.append(" [shape=box, label=").append(dot_id(label)).append("]");
    }
    out += ";\n";
  }
  for (const auto& [a, b] : reduced)
    out.append("  ").append(ids[a]).append(" -> ").append(ids[b]).append(";\n");
  out += "}\n";
  if (counts) *counts = {k, reduced.size()};
  return out;
}

}  // namespace closure
