// Drawings of a graph's structure as Graphviz DOT, for `closure reduce -o r.dot`: the
// transitive reduction (on a DAG, its Hasse diagram) and the condensation (one node per
// strongly connected component, its edges reduced), which stay readable where a closure's
// pairs would not. Ids follow io/dot_text.hpp; each writes every vertex (or component) as
// a node, so isolated ones are drawn too.
#pragma once

#include <cstddef>
#include <span>
#include <string>

#include "closure/graph/graph.hpp"

namespace closure {

// "digraph NAME {", every vertex, then `edges` as "U -> V".
std::string dot_of_edges(const Graph& g, std::span<const Edge> edges, const std::string& name);

// How many nodes and edges a condensation drawing holds (for the command's summary).
struct CondensationCounts {
  size_t components = 0, edges = 0;
};

// "digraph condensation {": a node per component, named by its first member's label and
// labelled with up to `members_shown` members (then "+K more"); components on a cycle are
// boxes; the edges are the transitive reduction of the condensation.
std::string dot_of_condensation(const Graph& g, CondensationCounts* counts = nullptr,
                                size_t members_shown = 5);

}  // namespace closure
