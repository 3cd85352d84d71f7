// Whitespace edge lists (SNAP, KONECT and the like): "source target [ignored columns]".
#include <string>
#include <vector>

#include "closure/graph/format_readers.hpp"
#include "closure/graph/label_map.hpp"
#include "closure/graph/text_scan.hpp"

namespace closure::detail {

ReadResult read_edge_list(LineSource& src) {
  LabelMap labels;
  std::vector<Edge> edges;
  std::string_view line;
  auto vertex = [&](std::string_view token) {
    const vertex_t v = labels.intern(token);
    if (v == LabelMap::kFull)
      src.fail("more than " + std::to_string(kMaxVertices) + " distinct vertices");
    return v;
  };
  while (src.next(line)) {
    text::Tokens tokens(line);
    std::string_view a, b;
    if (!tokens.next(a) || a[0] == '#' || a[0] == '%') continue;
    if (!tokens.next(b))
      src.fail("expected two columns 'source target', found only " + text::quote(a));
    const vertex_t u = vertex(a);
    edges.emplace_back(u, vertex(b));
  }
  if (edges.empty()) src.fail_at(0, "no edges found (only comments and blank lines)");
  const size_t records = edges.size();
  const size_t n = labels.size();
  return {Graph(n, std::move(edges), labels.take_labels()), InputFormat::kEdgeList, records};
}

}  // namespace closure::detail
