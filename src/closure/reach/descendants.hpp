// Descendants and ancestors of one vertex (networkx's `descendants` / `ancestors`, with the
// closure's strict semantics), and the transitive reduction.
#pragma once

#include <vector>

#include "closure/graph/graph.hpp"

namespace closure::reach {

// Vertices reachable from v by a path of one or more edges, ascending. v itself is among
// them only when it lies on a cycle (networkx never includes v; `closure reach` documents
// the difference). BFS, O(n + m), one visited bit per vertex.
std::vector<vertex_t> descendants(const Graph& g, vertex_t v);
// Vertices that reach v by one or more edges, ascending (the same on the reverse graph).
std::vector<vertex_t> ancestors(const Graph& g, vertex_t v);

// The transitive reduction (docs/architecture.md, "Transitive reduction"): the fewest edges
// with the same closure. On a DAG it is networkx's transitive_reduction: the edges (u, v)
// for which no other path leads from u to v. With cycles: each strongly connected component
// of k > 1 vertices becomes the cycle through its members in ascending vertex order (k
// edges), a one-vertex component keeps its self-loop, and each edge (C, D) of the
// condensation's reduction becomes the smallest original edge (u, v) with u in C, v in D.
// Edges sorted by (u, v).
std::vector<Edge> transitive_reduction(const Graph& g);

}  // namespace closure::reach
