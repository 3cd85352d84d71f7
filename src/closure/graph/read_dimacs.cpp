// DIMACS graphs: "c" comments, one "p <problem> n m" line, then "a u v [w]" arcs over vertices
// 1..n ("e u v" edge lines, as in the coloring format, are undirected and add both arcs).
#include <algorithm>
#include <string>
#include <vector>

#include "closure/graph/format_readers.hpp"
#include "closure/graph/text_scan.hpp"

namespace closure::detail {

namespace {

vertex_t vertex_id(LineSource& src, std::string_view token, size_t n, size_t p_line) {
  uint64_t v = 0;
  if (text::parse_unsigned(token, v) == text::NumberStatus::kNotNumber)
    src.fail("expected a vertex number 1.." + std::to_string(n) + ", found " + text::quote(token));
  if (v == 0 || v > n)
    src.fail("vertex " + std::string(token) + " is outside 1.." + std::to_string(n) +
             " declared on line " + std::to_string(p_line));
  return static_cast<vertex_t>(v - 1);
}

}  // namespace

ReadResult read_dimacs(LineSource& src) {
  size_t n = 0, m = 0, p_line = 0, records = 0;
  std::vector<Edge> edges;
  std::string_view line;
  while (src.next(line)) {
    text::Tokens tokens(line);
    std::string_view kind;
    if (!tokens.next(kind) || kind == "c") continue;
    if (kind == "p") {
      if (p_line != 0)
        src.fail("second 'p' line (the first is line " + std::to_string(p_line) + ")");
      if (records != 0) src.fail("the 'p' line must come before the arcs");
      std::string_view problem, n_token, m_token;
      if (!tokens.next(problem) || !tokens.next(n_token) || !tokens.next(m_token))
        src.fail("expected 'p <problem> <vertices> <arcs>', found " + text::quote(line));
      n = checked_vertex_count(src, n_token, "vertex count");
      if (text::parse_unsigned(m_token, m) != text::NumberStatus::kOk)
        src.fail("expected the arc count, found " + text::quote(m_token));
      p_line = src.line_number();
      edges.reserve(reserve_bound(src, m, 6));  // "a 1 2\n"
    } else if (kind == "a" || kind == "e") {
      if (p_line == 0) src.fail("arc before the 'p <problem> <vertices> <arcs>' line");
      std::string_view a, b;
      if (!tokens.next(a) || !tokens.next(b))
        src.fail("expected '" + std::string(kind) + " <source> <target> [weight]', found " +
                 text::quote(line));
      const vertex_t u = vertex_id(src, a, n, p_line);
      const vertex_t v = vertex_id(src, b, n, p_line);
      edges.emplace_back(u, v);
      if (kind == "e" && u != v) edges.emplace_back(v, u);
      ++records;
    } else if (kind == "n") {
      // Node descriptors of max-flow files ("n 1 s") name sources and sinks: not graph structure.
    } else {
      src.fail("expected a 'c', 'p', 'a', 'e' or 'n' line, found " + text::quote(kind));
    }
  }
  if (p_line == 0) src.fail_at(0, "missing the 'p <problem> <vertices> <arcs>' line");
  if (records != m)
    src.fail_at(p_line, "'p' line declares " + std::to_string(m) + " arcs but the file has " +
                            std::to_string(records));
  check_declared_vertices(src, n, p_line);
  std::vector<std::string> labels;
  labels.reserve(n);
  for (size_t i = 1; i <= n; ++i) labels.push_back(std::to_string(i));
  return {Graph(n, std::move(edges), std::move(labels)), InputFormat::kDimacs, records};
}

}  // namespace closure::detail
