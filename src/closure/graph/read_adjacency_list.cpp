// Adjacency lists ("u v1 v2 ..."): networkx's write_adjlist and similar dumps. Only with
// --input-format adjlist: as an edge list such a file would be misread, so the edge-list
// reader refuses lines of varying length and points here.
#include <string>
#include <vector>

#include "closure/graph/format_readers.hpp"
#include "closure/graph/label_map.hpp"
#include "closure/graph/text_scan.hpp"

namespace closure::detail {

ReadResult read_adjacency_list(LineSource& src) {
  LabelMap labels;
  std::vector<Edge> edges;
  std::string_view line;
  auto vertex = [&](std::string_view token) {
    const vertex_t v = labels.intern(text::unescape_label(token));
    if (v == LabelMap::kFull) src.fail(too_many_vertices());
    return v;
  };
  size_t vertex_lines = 0;
  while (src.next(line)) {
    text::Tokens tokens(line);
    std::string_view first, next;
    if (!tokens.next(first) || first[0] == '#' || first[0] == '%') continue;
    const vertex_t u = vertex(first);  // a line of one vertex declares it
    ++vertex_lines;
    while (tokens.next(next)) edges.emplace_back(u, vertex(next));
  }
  if (vertex_lines == 0) src.fail_at(0, "no vertices found (only comments and blank lines)");
  const size_t records = edges.size();
  const size_t n = labels.size();
  return {Graph(n, std::move(edges), labels.take_labels()), InputFormat::kAdjList, records};
}

}  // namespace closure::detail
