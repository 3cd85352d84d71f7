// Matrix Market coordinate files as adjacency matrices: entry (i, j) is the edge i -> j, over
// vertices 1..n; every stored entry is an edge, whatever its value.
#include <algorithm>
#include <string>
#include <vector>

#include "closure/graph/format_readers.hpp"
#include "closure/graph/label_map.hpp"
#include "closure/graph/text_scan.hpp"

namespace closure::detail {

namespace {

vertex_t index_of(LineSource& src, std::string_view token, size_t n, size_t size_line,
                  const char* role) {
  uint64_t v = 0;
  if (text::parse_unsigned(token, v) == text::NumberStatus::kNotNumber)
    src.fail(std::string("expected a ") + role + " index 1.." + std::to_string(n) + ", found " +
             text::quote(token));
  if (v == 0 || v > n)
    src.fail(std::string(role) + " index " + std::string(token) + " is outside 1.." +
             std::to_string(n) + " declared on line " + std::to_string(size_line));
  return static_cast<vertex_t>(v - 1);
}

}  // namespace

namespace {

// The writer's escapes undone: "\\" is '\', "\r" CR and "\n" LF (closure_writer.cpp).
std::string unescape_label(std::string_view s) {
  std::string out;
  out.reserve(s.size());
  for (size_t i = 0; i < s.size(); ++i) {
    if (s[i] == '\\' && i + 1 < s.size() &&
        (s[i + 1] == '\\' || s[i + 1] == 'r' || s[i + 1] == 'n')) {
      ++i;
      out.push_back(s[i] == 'r' ? '\r' : s[i] == 'n' ? '\n' : '\\');
    } else {
      out.push_back(s[i]);
    }
  }
  return out;
}

// Labels from "%label" lines over the numbers; an index past the size or a label that two
// vertices would share is refused at its line (two vertices of one name cannot be told apart
// in the output).
void apply_labels(LineSource& src, const std::vector<std::pair<size_t, std::string>>& named,
                  const std::vector<size_t>& lines, std::vector<std::string>& labels) {
  std::vector<char> seen(labels.size(), 0);
  for (size_t k = 0; k < named.size(); ++k) {
    const size_t i = named[k].first;
    if (i > labels.size())
      src.fail_at(lines[k], "%label names vertex " + std::to_string(i) + " of a " +
                                std::to_string(labels.size()) + "-vertex matrix");
    if (seen[i - 1]) src.fail_at(lines[k], "a second %label for vertex " + std::to_string(i));
    seen[i - 1] = 1;
    labels[i - 1] = named[k].second;
  }
  LabelMap check;
  for (size_t v = 0; v < labels.size(); ++v)
    if (check.intern(labels[v]) != vertex_t(v))
      src.fail_at(0,
                  "two vertices have the label " + text::quote(labels[v]) + " (from %label lines)");
}

// What the banner line declares; parsed apart so that read_matrix_market reads as its three
// sections (banner, header, entries).
struct Banner {
  size_t value_columns = 0;  // values after the row and column: 0, 1 or 2 (complex)
  bool mirror = false;       // symmetric kinds: (i, j) stands for (j, i) too
  std::string field;         // kept for messages about the entries
};

// The '%%MatrixMarket matrix coordinate <field> <symmetry>' line.
Banner read_banner(LineSource& src) {
  std::string_view line;
  if (!src.next(line)) src.fail_at(1, "expected the '%%MatrixMarket' banner, found end of file");
  text::Tokens banner(line);
  std::string_view word, object, format, field, symmetry;
  if (!banner.next(word) || !text::iequals(word, "%%MatrixMarket"))
    src.fail("expected the banner '%%MatrixMarket matrix coordinate <field> <symmetry>', found " +
             text::quote(line));
  if (!banner.next(object) || !banner.next(format) || !banner.next(field) || !banner.next(symmetry))
    src.fail("incomplete banner: expected '%%MatrixMarket matrix coordinate <field> <symmetry>'");
  if (!text::iequals(object, "matrix"))
    src.fail("expected the object 'matrix', found " + text::quote(object));
  if (!text::iequals(format, "coordinate"))
    src.fail("only the 'coordinate' format is supported, found " + text::quote(format));
  Banner b;
  b.field = std::string(field);
  if (text::iequals(field, "pattern")) {
    b.value_columns = 0;
  } else if (text::iequals(field, "integer") || text::iequals(field, "real")) {
    b.value_columns = 1;
  } else if (text::iequals(field, "complex")) {
    b.value_columns = 2;
  } else {
    src.fail("expected the field 'pattern', 'integer', 'real' or 'complex', found " +
             text::quote(field));
  }
  if (text::iequals(symmetry, "symmetric") || text::iequals(symmetry, "skew-symmetric") ||
      text::iequals(symmetry, "hermitian")) {
    b.mirror = true;
  } else if (!text::iequals(symmetry, "general")) {
    src.fail(
        "expected the symmetry 'general', 'symmetric', 'skew-symmetric' or 'hermitian', found " +
        text::quote(symmetry));
  }
  return b;
}

// What the lines between the banner and the entries say: the size and the "%label" names.
struct Header {
  size_t size_line = 0, n = 0, nnz = 0;
  std::vector<std::pair<size_t, std::string>> named;
  std::vector<size_t> named_lines;
};

// Comments, then the size line. Comments "%label i LABEL" (what closure writes) name
// vertex i; they are kept until the size line says how many vertices there are.
Header read_header(LineSource& src) {
  Header h;
  std::string_view line;
  while (src.next(line)) {
    const std::string_view t = text::trim(line);
    if (line.starts_with("%label ")) {
      const std::string_view rest = line.substr(7);
      const size_t space = rest.find(' ');
      size_t i = 0;
      if (space == std::string_view::npos ||
          text::parse_unsigned(rest.substr(0, space), i) != text::NumberStatus::kOk || i == 0)
        src.fail("expected '%label INDEX LABEL' (INDEX from 1), found " + text::quote(line));
      h.named.emplace_back(i, unescape_label(rest.substr(space + 1)));
      h.named_lines.push_back(src.line_number());
      continue;
    }
    if (t.empty() || t[0] == '%') continue;
    text::Tokens tokens(t);
    std::string_view rows, cols, count;
    if (!tokens.next(rows) || !tokens.next(cols) || !tokens.next(count))
      src.fail("expected the size line 'rows columns entries', found " + text::quote(t));
    const size_t r = checked_vertex_count(src, rows, "row count");
    const size_t c = checked_vertex_count(src, cols, "column count");
    if (r != c)
      src.fail("the matrix is " + std::to_string(r) + " x " + std::to_string(c) +
               "; an adjacency matrix must be square");
    if (text::parse_unsigned(count, h.nnz) != text::NumberStatus::kOk)
      src.fail("expected the entry count, found " + text::quote(count));
    h.n = r;
    h.size_line = src.line_number();
    break;
  }
  if (h.size_line == 0) src.fail_at(0, "missing the size line 'rows columns entries'");
  return h;
}

// The entry lines as edges (both directions for a symmetric kind); returns the entry count,
// which must match the size line's.
size_t read_entries(LineSource& src, const Banner& banner, const Header& h,
                    std::vector<Edge>& edges) {
  const size_t value_columns = banner.value_columns, n = h.n, nnz = h.nnz;
  const size_t size_line = h.size_line;
  std::string_view line;
  size_t records = 0;
  while (src.next(line)) {
    text::Tokens tokens(line);
    std::string_view a, b, value;
    if (!tokens.next(a) || a[0] == '%') continue;
    if (!tokens.next(b))
      src.fail("expected 'row column" + std::string(value_columns ? " value" : "") +
               "', found only " + text::quote(a));
    for (size_t k = 0; k < value_columns; ++k)
      if (!tokens.next(value))
        src.fail("expected " + std::to_string(value_columns) + " value column" +
                 (value_columns > 1 ? "s" : "") + " after the row and column (field " +
                 banner.field + ")");
    if (records == nnz)
      src.fail("more entries than the " + std::to_string(nnz) + " declared on line " +
               std::to_string(size_line));
    const vertex_t i = index_of(src, a, n, size_line, "row");
    const vertex_t j = index_of(src, b, n, size_line, "column");
    edges.emplace_back(i, j);
    if (banner.mirror && i != j) edges.emplace_back(j, i);
    ++records;
  }
  if (records != nnz)
    src.fail_at(size_line, "size line declares " + std::to_string(nnz) +
                               " entries but the file has " + std::to_string(records));
  return records;
}

}  // namespace

ReadResult read_matrix_market(LineSource& src) {
  const Banner banner = read_banner(src);
  const Header h = read_header(src);
  const size_t n = h.n;
  std::vector<Edge> edges;
  edges.reserve(reserve_bound(src, h.nnz, 4));  // "1 2\n"
  const size_t records = read_entries(src, banner, h, edges);
  check_declared_vertices(src, n, h.size_line);
  std::vector<std::string> labels;
  labels.reserve(n);
  for (size_t v = 1; v <= n; ++v) labels.push_back(std::to_string(v));
  if (!h.named.empty()) apply_labels(src, h.named, h.named_lines, labels);
  return {Graph(n, std::move(edges), std::move(labels)), InputFormat::kMatrixMarket, records};
}

}  // namespace closure::detail
