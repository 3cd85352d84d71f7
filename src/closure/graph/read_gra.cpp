// GRAIL .gra files: "graph_for_greach", the vertex count n, then one "v: w1 w2 ... #" line per
// vertex (0-based). Strict about the counts, since a truncated download is the usual failure.
#include <string>
#include <vector>

#include "closure/graph/format_readers.hpp"
#include "closure/graph/text_scan.hpp"

namespace closure::detail {

namespace {

vertex_t vertex_id(LineSource& src, std::string_view token, size_t n, const char* role) {
  uint64_t v = 0;
  switch (text::parse_unsigned(token, v)) {
    case text::NumberStatus::kOk:
      break;
    case text::NumberStatus::kTooLarge:
    case text::NumberStatus::kNotNumber:
      src.fail(std::string("expected a ") + role + " (an integer 0.." +
               (n == 0 ? std::string("-1") : std::to_string(n - 1)) + "), found " +
               text::quote(token));
  }
  if (v >= n)
    src.fail(std::string(role) + " " + std::to_string(v) + " is beyond the declared vertex count " +
             std::to_string(n) + " (line 2)");
  return static_cast<vertex_t>(v);
}

}  // namespace

ReadResult read_gra(LineSource& src) {
  std::string_view line;
  if (!src.next(line) || text::trim(line) != "graph_for_greach")
    src.fail("expected the GRAIL header 'graph_for_greach', found " +
             text::quote(text::trim(line)));
  if (!src.next(line)) src.fail_at(2, "expected the vertex count on line 2, found end of file");
  const size_t n = checked_vertex_count(src, text::trim(line), "vertex count");

  std::vector<Edge> edges;
  std::vector<bool> listed(n, false);
  size_t vertex_lines = 0;
  while (src.next(line)) {
    const size_t colon = line.find(':');
    if (colon == std::string_view::npos) {
      if (text::trim(line).empty()) continue;
      src.fail("expected 'vertex: successors... #', found no ':' in " + text::quote(line));
    }
    const vertex_t v = vertex_id(src, text::trim(line.substr(0, colon)), n, "vertex id");
    if (listed[v]) src.fail("vertex " + std::to_string(v) + " is listed twice");
    listed[v] = true;
    ++vertex_lines;
    text::Tokens tokens(line.substr(colon + 1));
    std::string_view token;
    bool terminated = false;
    while (tokens.next(token)) {
      if (terminated) src.fail("unexpected " + text::quote(token) + " after the closing '#'");
      if (token == "#") {
        terminated = true;
        continue;
      }
      edges.emplace_back(v, vertex_id(src, token, n, "successor"));
    }
    if (!terminated)
      src.fail("missing the closing '#' of vertex " + std::to_string(v) +
               "'s successor list (truncated file?)");
  }
  if (vertex_lines != n)
    src.fail_at(2, "header declares " + std::to_string(n) + " vertices but the file lists " +
                       std::to_string(vertex_lines) + " vertex lines");
  check_declared_vertices(src, n, 2);
  const size_t records = edges.size();
  return {Graph(n, std::move(edges)), InputFormat::kGra, records};
}

}  // namespace closure::detail
