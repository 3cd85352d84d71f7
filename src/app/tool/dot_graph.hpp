// The condensation drawn as Graphviz DOT, for `closure reduce --condensation -o c.dot`: one
// node per strongly connected component, its edges reduced, which stays readable where a
// closure's pairs would not. Ids follow io/dot_text.hpp; every component is a node, so
// isolated ones are drawn too. (A reduction's or closure's pairs are drawn by the writers of
// tool/closure_writer.hpp, like every other format.)
#pragma once

#include <cstddef>
#include <string>

#include "closure/graph/graph.hpp"

namespace closure {

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
