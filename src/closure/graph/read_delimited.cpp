// Delimited edge lists: CSV as pandas' to_csv writes it ("source,target" then "a,b" rows,
// optionally an unnamed index column first) and TSV with a header. Fields are split on the
// delimiter, double-quoted fields may hold it ("a,b" with "" for a quote), and spaces around
// fields are dropped, so "a, b" is the edge a -> b, never the vertices "a," and "b".
//
// The header rule (docs/formats.md): the first row is a header when its first field is
// empty (pandas' index column, which is then skipped on every row), when its source and
// target fields are column titles (source, target, from_node, node1, ...: words of the
// edge-list reader's title list, alone or joined by '_', '-', '.' or a space), or when they
// are names above a second row of numbers. Otherwise it is an edge: "a, b" first is the
// edge a -> b. Further columns (weights, attributes) are ignored. Blank lines are skipped;
// there are no comment lines (pandas writes a label such as "#a" unquoted). A header said to be
// there (HeaderRow::kPresent) or not (kAbsent) overrides the rule; any delimiter byte may be
// named (ReadOptions::delimiter), ',' and tab being CSV's and TSV's.
#include <string>
#include <vector>

#include "closure/graph/format_readers.hpp"
#include "closure/graph/label_map.hpp"
#include "closure/graph/text_scan.hpp"

namespace closure::detail {

bool split_fields(std::string_view line, char delimiter, std::vector<std::string>& fields,
                  std::string& error) {
  fields.clear();
  size_t i = 0;
  for (;;) {
    while (i < line.size() && (line[i] == ' ' || (line[i] == '\t' && delimiter != '\t'))) ++i;
    std::string field;
    if (i < line.size() && line[i] == '"') {
      ++i;
      for (;;) {
        if (i == line.size()) {
          error = "a quoted field does not end on its line";
          return false;
        }
        if (line[i] == '"') {
          if (i + 1 < line.size() && line[i + 1] == '"') {
            field.push_back('"');
            i += 2;
            continue;
          }
          ++i;
          break;
        }
        field.push_back(line[i++]);
      }
      while (i < line.size() && (line[i] == ' ' || (line[i] == '\t' && delimiter != '\t'))) ++i;
      if (i < line.size() && line[i] != delimiter) {
        error = "text after a quoted field";
        return false;
      }
    } else {
      const size_t start = i;
      // networkx's write_edgelist(G, p, delimiter=","): its attribute dict after the edge
      // holds commas and quotes. A '{' field closing before the next delimiter (or the line's
      // end) is one field; any other (a label "{a") is split as before.
      size_t close = std::string_view::npos;
      if (fields.size() >= 2 && i < line.size() && line[i] == '{') {
        close = text::python_dict_end(line, i);
        while (close < line.size() && line[close] != delimiter &&
               (line[close] == ' ' || line[close] == '\t'))
          ++close;
        if (close < line.size() && line[close] != delimiter) close = std::string_view::npos;
      }
      if (close != std::string_view::npos)
        i = close;
      else
        while (i < line.size() && line[i] != delimiter) ++i;
      field = std::string(text::trim(line.substr(start, i - start)));
    }
    fields.push_back(std::move(field));
    if (i == line.size()) return true;
    ++i;  // the delimiter
  }
}

namespace {

bool is_number(std::string_view s) {
  uint64_t v;
  return text::parse_unsigned(s, v) == text::NumberStatus::kOk;
}

// "source", "from_node", "Target ID": every part a column-title word.
bool is_title(std::string_view field) {
  if (is_header_word(field)) return true;
  static constexpr std::string_view kParts[] = {"node", "id", "vertex", "name", "label", "key"};
  bool any_part = false;
  for (size_t at = 0; at <= field.size();) {
    size_t end = field.find_first_of("_-. ", at);
    if (end == std::string_view::npos) end = field.size();
    const std::string_view part = field.substr(at, end - at);
    at = end + 1;
    if (part.empty()) continue;
    bool known = is_header_word(part);
    for (std::string_view k : kParts) known = known || text::iequals(part, k);
    if (!known) return false;
    any_part = true;
  }
  return any_part;
}

}  // namespace

ReadResult read_delimited(LineSource& src, char delimiter, HeaderRow header) {
  const std::string what = delimiter == ',' ? "CSV" : delimiter == '\t' ? "TSV" : "delimited";
  LabelMap labels;
  std::vector<Edge> edges;
  std::vector<std::string> fields;
  std::string error;
  std::string_view line;
  size_t skip = 0;  // leading index columns
  size_t row = 0;
  // The first row, when only the second can tell whether it is a header (names above
  // numbers), and its line.
  std::vector<std::string> pending;
  size_t pending_line = 0;
  auto add_edge = [&](const std::vector<std::string>& f, size_t at) {
    if (f.size() < skip + 2)
      src.fail_at(at, what + " row of " + std::to_string(f.size()) +
                          " field(s): expected source and target columns");
    vertex_t ends[2];
    for (int k = 0; k < 2; ++k) {
      const std::string& label = f[skip + size_t(k)];
      if (label.empty())
        src.fail_at(at, std::string("empty ") + (k ? "target" : "source") + " field");
      ends[k] = labels.intern(label);
      if (ends[k] == LabelMap::kFull) src.fail_at(at, too_many_vertices());
    }
    edges.emplace_back(ends[0], ends[1]);
  };
  while (src.next(line)) {
    // No comment lines: pandas writes a label "#a" unquoted, so a '#' row is an edge.
    if (text::trim(line).empty()) continue;
    if (!split_fields(line, delimiter, fields, error)) src.fail(error);
    ++row;
    if (row == 1) {
      if (header == HeaderRow::kAbsent) {
        add_edge(fields, src.line_number());
        continue;
      }
      skip = fields.size() >= 3 && fields[0].empty() ? 1 : 0;
      if (fields.size() < skip + 2)
        src.fail(what + " row of " + std::to_string(fields.size()) +
                 " field(s): expected source and target columns");
      if (header == HeaderRow::kPresent || skip == 1 ||
          (is_title(fields[0]) && is_title(fields[1])))
        continue;  // a header
      if (!is_number(fields[0]) || !is_number(fields[1])) {
        pending = fields;
        pending_line = src.line_number();
        continue;
      }
    } else if (row == 2 && !pending.empty()) {
      const bool numbers_below = fields.size() >= 2 && is_number(fields[0]) && is_number(fields[1]);
      if (!numbers_below) add_edge(pending, pending_line);  // names above numbers: a header
      pending.clear();
    }
    add_edge(fields, src.line_number());
  }
  if (!pending.empty()) add_edge(pending, pending_line);  // one row: an edge
  if (edges.empty()) src.fail_at(0, "no edges found (only a header, comments and blank lines)");
  const size_t records = edges.size();
  const size_t n = labels.size();
  return {Graph(n, std::move(edges), labels.take_labels()),
          delimiter == '\t' ? InputFormat::kTsv : InputFormat::kCsv, records};
}

}  // namespace closure::detail
