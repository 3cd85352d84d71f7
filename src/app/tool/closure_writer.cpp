// Pair output in every format, each text format one set of pieces (TextFormat) that the
// writer streams row by row and the size model counts: the exact byte count is the
// writer's own pieces written into a CountingSink once per vertex and weighted per
// component, so the two cannot disagree.
#include "app/tool/closure_writer.hpp"

#include <algorithm>
#include <charconv>
#include <nlohmann/json.hpp>
#include <optional>
#include <stdexcept>
#include <type_traits>

#include "closure/bitmatrix.hpp"
#include "closure/errors.hpp"
#include "closure/executor.hpp"
#include "closure/graph/read_graph.hpp"
#include "closure/graph/text_scan.hpp"
#include "closure/io/atomic_file.hpp"
#include "closure/io/byte_sink.hpp"
#include "closure/io/dot_text.hpp"
#include "closure/io/json_text.hpp"

namespace closure {

const std::vector<OutputFormatInfo>& output_formats() {
  static const std::vector<OutputFormatInfo> table{
      {OutputFormat::kEdges, "edges", "", ""},
      {OutputFormat::kMatrixMarket, "matrix-market", "mtx", ".mtx"},
      {OutputFormat::kJson, "json", "", ".json"},
      {OutputFormat::kBinary, "binary", "bin", ".bin"},
      {OutputFormat::kCsv, "csv", "", ".csv"},
      {OutputFormat::kTsv, "tsv", "", ".tsv"},
      {OutputFormat::kNodeLink, "node-link", "", ""},
  };
  return table;
}

std::vector<std::string> output_format_names() {
  std::vector<std::string> out;
  for (const auto& f : output_formats()) out.emplace_back(f.name);
  return out;
}

std::string output_format_choices() {
  std::string out;
  for (const auto& n : output_format_names()) out += (out.empty() ? "" : ", ") + n;
  return out;
}

// The format `text` names (a name or an alias, case aside), if any.
static std::optional<OutputFormat> find_output_format(std::string_view text) {
  for (const auto& f : output_formats())
    if (text::iequals(text, f.name) || (!f.alias.empty() && text::iequals(text, f.alias)))
      return f.format;
  return std::nullopt;
}

OutputFormat parse_output_format(std::string_view text) {
  if (const auto f = find_output_format(text)) return *f;
  throw UsageError("unknown output format '" + std::string(text) + "' (" + output_format_choices() +
                   ")");
}

std::string canonical_output_spec_name(std::string_view text, bool dot_allowed) {
  if (dot_allowed && text::iequals(text, "dot")) return "dot";
  if (const auto f = find_output_format(text)) return std::string(output_format_name(*f));
  throw UsageError("unknown output format '" + std::string(text) + "' (" + output_format_choices() +
                   (dot_allowed ? ", dot)" : ")"));
}

std::string_view output_format_name(OutputFormat f) {
  for (const auto& info : output_formats())
    if (info.format == f) return info.name;
  return "?";
}

std::string_view output_spec_name(const OutputSpec& spec) {
  return spec.dot ? "dot" : output_format_name(spec.format);
}

static bool ends_with(std::string_view s, std::string_view suffix) {
  return s.size() >= suffix.size() && s.substr(s.size() - suffix.size()) == suffix;
}

bool names_dot_output(const std::string& path, bool* gzip) {
  if (path.empty() || path == "-") return false;
  std::string name = path.substr(path.find_last_of('/') + 1);
  for (char& ch : name) ch = char(ch >= 'A' && ch <= 'Z' ? ch - 'A' + 'a' : ch);
  const bool gz = ends_with(name, ".gz");
  if (gz) name.resize(name.size() - 3);
  if (!ends_with(name, ".dot") && !ends_with(name, ".gv")) return false;
  if (gzip) *gzip = gz;
  return true;
}

OutputSpec output_spec(const std::string& path, std::optional<OutputFormat> requested) {
  OutputSpec spec;
  // Extensions are matched case aside: c.MTX is Matrix Market, c.JSON.GZ gzip'ed JSON.
  std::string lowered = path;
  for (char& ch : lowered) ch = char(ch >= 'A' && ch <= 'Z' ? ch - 'A' + 'a' : ch);
  std::string_view name = lowered;
  const auto slash = name.find_last_of('/');
  if (slash != std::string_view::npos) name = name.substr(slash + 1);
  if (path != "-" && ends_with(name, ".gz")) {
    spec.gzip = true;
    name.remove_suffix(3);
  }
  std::optional<OutputFormat> implied;
  if (path != "-")
    for (const auto& f : output_formats())
      if (!f.extension.empty() && ends_with(name, f.extension)) implied = f.format;
  // node-link is JSON too: asked for, it is written under a .json name.
  if (requested && implied && *requested != *implied &&
      !(*requested == OutputFormat::kNodeLink && *implied == OutputFormat::kJson))
    throw UsageError("--output-format " + std::string(output_format_name(*requested)) +
                     " conflicts with the extension of " + path + ", which means " +
                     std::string(output_format_name(*implied)));
  // Graphviz: the pairs drawn (--output-format still writes a data format under the name).
  if (!requested && !implied && names_dot_output(path)) spec.dot = true;
  // Formats closure reads but does not write, or does not know: an edge list under their
  // name would be misread by whatever opens it.
  if (!requested && !implied && !spec.dot && path != "-") {
    for (const char* foreign : {".graphml", ".gml", ".gexf", ".xml", ".net", ".gra", ".dimacs",
                                ".gr", ".max", ".col", ".mm"})
      if (ends_with(name, foreign))
        throw UsageError("-o " + path + ": closure does not write " + std::string(foreign + 1) +
                         " files; it writes an edge list (any other extension), .csv, .tsv, "
                         ".mtx, .json, .bin or .dot, or pass --output-format edges to write an "
                         "edge list under this name");
  }
  spec.format = requested ? *requested : implied ? *implied : OutputFormat::kEdges;
  return spec;
}

OutputSpec requested_output_spec(const std::string& path, const std::string& format) {
  if (format != "dot")
    return output_spec(path,
                       format.empty() ? std::nullopt : std::optional(parse_output_format(format)));
  OutputSpec spec = output_spec(path, std::nullopt);
  if (!spec.dot && spec.format != OutputFormat::kEdges)
    throw UsageError("--output-format dot conflicts with the extension of " + path +
                     ", which means " + std::string(output_format_name(spec.format)));
  spec.dot = true;
  return spec;
}

std::vector<std::string> output_spec_names() {
  std::vector<std::string> names = output_format_names();
  names.push_back("dot");
  return names;
}

std::string output_spec_choices() {
  std::string out;
  for (const auto& n : output_spec_names()) out += (out.empty() ? "" : " | ") + n;
  return out;
}

namespace {

uint64_t words_per_row(size_t n) {
  return words_for_bits(n);
}

// Labels as the text formats write them, so that they read back as the same labels
// (docs/formats.md): in an edge list a label starting with '#' or '%' would read as a
// comment, so it (and one starting with '\' followed by '#', '%' or '\') gets a leading '\';
// in a Matrix Market "%label" line a line break would end the comment, so '\', CR and LF
// are written as \\, \r and \n; JSON labels are JSON strings (UTF-8 only).
std::vector<std::string> written_labels(const Graph& g, OutputFormat f) {
  std::vector<std::string> out(g.vertex_count());
  for (vertex_t v = 0; v < g.vertex_count(); ++v) out[v] = g.label(v);
  if (f == OutputFormat::kNodeLink) {
    // Numbers when every label is one (networkx's graph of integers reads back as itself),
    // else every label a string: never 1 and "1" in one file.
    auto decimal = [](const std::string& s) {
      return !s.empty() && s.size() <= 18 &&
             s.find_first_not_of("0123456789") == std::string::npos && (s == "0" || s[0] != '0');
    };
    if (!std::all_of(out.begin(), out.end(), decimal))
      for (std::string& label : out) label = json_string(label);
    return out;
  }
  for (std::string& label : out) {
    if (f == OutputFormat::kEdges) {
      // "u v" lines cannot carry a label with a blank in it (DOT allows "a b"), as the
      // reader splits them (text::is_space: a vertical tab or a form feed too): say so
      // rather than write a file that reads back differently.
      if (label.empty() || std::any_of(label.begin(), label.end(), text::is_space))
        throw UsageError("vertex label '" + label +
                             "' is empty or contains whitespace, which an edge list " +
                             "cannot hold",
                         Advice::kQuotingFormat);
      label = text::escape_label(label);
    } else if (f == OutputFormat::kMatrixMarket &&
               label.find_first_of("\\\r\n") != std::string::npos) {
      std::string e;
      for (char c : label)
        e += c == '\n' ? "\\n" : c == '\r' ? "\\r" : c == '\\' ? "\\\\" : std::string(1, c);
      label = std::move(e);
    } else if (f == OutputFormat::kJson) {
      label = json_string(label);  // bytes that are not UTF-8 as \udcNN (io/json_text.hpp)
    } else if (f == OutputFormat::kCsv || f == OutputFormat::kTsv) {
      // Quoted where the reader would otherwise split or trim it (read_delimited.cpp); a
      // row ends at its line, so a label with a line break, or an empty one, cannot be
      // written (as in an edge list).
      const char delimiter = f == OutputFormat::kCsv ? ',' : '\t';
      if (label.empty() || label.find_first_of("\r\n") != std::string::npos)
        throw UsageError("vertex label '" + label +
                             "' is empty or holds a line break, which a CSV row cannot hold",
                         Advice::kEscapingFormat);
      auto blank = [](char ch) { return ch == ' ' || (ch >= '\t' && ch <= '\r'); };
      const bool quote = label.find('"') != std::string::npos ||
                         label.find(delimiter) != std::string::npos || blank(label.front()) ||
                         blank(label.back());
      if (quote) {
        std::string q = "\"";
        for (char ch : label) q += ch == '"' ? std::string("\"\"") : std::string(1, ch);
        label = q + "\"";
      }
    }
  }
  return out;
}

// What the fixed parts of a text format state about the pairs.
struct Frame {
  uint64_t vertices = 0, pairs = 0;
  std::string_view what;  // "closure", "reduction": Matrix Market's comment, DOT's graph name
  bool reflexive = false;
  // The first row that has a pair, and its first target (vertices: none), where the format
  // asks for it (kNeedsFirstPair).
  vertex_t first_source = 0, first_target = 0;
};

// `first_pair`: find the first pair (a pass over the rows up to it).
Frame frame_of(const PairRows& rows, bool first_pair) {
  Frame f{rows.vertex_count(), rows.pair_count(), rows.what(), rows.reflexive()};
  f.first_source = vertex_t(f.vertices);
  if (first_pair && f.pairs > 0) {
    std::vector<vertex_t> succ;  // one thread: rows need no prepare() (the writer's, later)
    for (vertex_t u = 0; u < f.vertices; ++u) {
      rows.row(u, succ);
      if (!succ.empty()) {
        f.first_source = u;
        f.first_target = succ.front();
        break;
      }
    }
  }
  return f;
}

template <class Out>
void append_number(Out& out, uint64_t v) {
  char tmp[24];
  auto [end, ec] = std::to_chars(tmp, tmp + sizeof tmp, v);
  out.append(std::string_view(tmp, size_t(end - tmp)));
}

// A text format as the pieces its output is made of, in this order: head; vertex(v) for
// each vertex; middle; for each row u: row_open(u), then for each target v a separator,
// source(piece(u)) and target(piece(v)); row_close(u); tail. The separator before a row's
// first pair, and (kFirstPairDiffers) before the first pair of all, may differ from the
// others. The writer (write_text) puts these pieces into the output and the size model
// (text_bytes) into a CountingSink, so the model counts the writer's own bytes. Each piece
// is a template over where it goes: the writer's row blocks (std::string), its buffered
// Sink, or a CountingSink. The defaults write nothing.
struct TextFormat {
  template <class Out>
  void head(Out&, const Frame&) const {}
  template <class Out>
  void vertex(Out&, vertex_t) const {}
  template <class Out>
  void middle(Out&, const Frame&) const {}
  template <class Out>
  void row_open(Out&, vertex_t) const {}
  template <class Out>
  void row_close(Out&, vertex_t) const {}
  template <class Out>
  void separator(Out&, bool /*first_in_row*/, bool /*first_of_all*/) const {}
  template <class Out>
  void tail(Out&) const {}
  static constexpr bool kFirstPairDiffers = false;
  static constexpr bool kNeedsFirstPair = false;  // Frame::first_source for the head
};

// Edge lists, CSV and TSV: "u v" per pair (',' or a tab for CSV and TSV, which start with
// their header). A pair's piece of a vertex is its written label.
class DelimitedFormat : public TextFormat {
 public:
  using Piece = std::string_view;
  DelimitedFormat(OutputFormat f, std::vector<std::string> labels)
      : format_(f),
        delimiter_(f == OutputFormat::kCsv   ? ','
                   : f == OutputFormat::kTsv ? '\t'
                                             : ' '),
        labels_(std::move(labels)) {}
  Piece piece(vertex_t v) const { return labels_[v]; }
  // The shortest a piece of a label of `shortest` bytes can be: escaping only adds bytes.
  static std::string smallest_piece(size_t shortest) { return std::string(shortest, 'x'); }
  static constexpr bool kNeedsFirstPair = true;
  template <class Out>
  void head(Out& out, const Frame& f) const {
    if (format_ == OutputFormat::kCsv) out.append("source,target\n");
    if (format_ == OutputFormat::kTsv) out.append("source\ttarget\n");
    if (format_ == OutputFormat::kEdges && f.first_source < f.vertices &&
        needs_marker(f.first_source, f.first_target, f.pairs)) {
      out.append(kEdgeListMarker);
      out.push_back('\n');
    }
  }
  template <class Out>
  void source(Out& out, Piece u) const {
    out.append(u);
    out.push_back(delimiter_);
  }
  template <class Out>
  void target(Out& out, Piece v) const {
    out.append(v);
    out.push_back('\n');
  }

 private:
  // Whether the first line "u v" would read back as something else (read_graph.hpp).
  // A header row is guessed only above other lines of numbers: possible where another
  // vertex's label is a number (whether it has a pair or not: cheaper than finding out).
  bool needs_marker(vertex_t u, vertex_t v, uint64_t pairs) const {
    bool numbers_below = false;
    for (vertex_t w = 0; w < labels_.size() && pairs > 1 && !numbers_below; ++w)
      numbers_below = w != u && w != v && edge_list_number(labels_[w]);
    return edge_list_needs_marker(labels_[u], labels_[v], numbers_below);
  }
  OutputFormat format_;
  char delimiter_;
  std::vector<std::string> labels_;
};

// Matrix Market: the banner, a comment, "%label i label" per vertex, the size line, then
// "u v" per pair in 1-based numbers (a pair's piece of a vertex).
class MatrixMarketFormat : public TextFormat {
 public:
  using Piece = uint64_t;
  explicit MatrixMarketFormat(std::vector<std::string> labels) : labels_(std::move(labels)) {}
  Piece piece(vertex_t v) const { return uint64_t(v) + 1; }
  static Piece smallest_piece(size_t) { return 1; }
  template <class Out>
  void head(Out& out, const Frame& f) const {
    out.append("%%MatrixMarket matrix coordinate pattern general\n% transitive ");
    out.append(f.what);
    out.append(" written by closure; row/column i is the vertex labelled below\n");
  }
  template <class Out>
  void vertex(Out& out, vertex_t v) const {
    out.append("%label ");
    append_number(out, piece(v));
    out.push_back(' ');
    out.append(labels_[v]);
    out.push_back('\n');
  }
  template <class Out>
  void middle(Out& out, const Frame& f) const {
    append_number(out, f.vertices);
    out.push_back(' ');
    append_number(out, f.vertices);
    out.push_back(' ');
    append_number(out, f.pairs);
    out.push_back('\n');
  }
  template <class Out>
  void source(Out& out, Piece u) const {
    append_number(out, u);
    out.push_back(' ');
  }
  template <class Out>
  void target(Out& out, Piece v) const {
    append_number(out, v);
    out.push_back('\n');
  }

 private:
  std::vector<std::string> labels_;
};

// The tool's JSON: counts, then "successors": each vertex's label (a JSON string) and the
// array of its targets' labels.
class JsonFormat : public TextFormat {
 public:
  using Piece = std::string_view;
  explicit JsonFormat(std::vector<std::string> labels) : labels_(std::move(labels)) {}
  Piece piece(vertex_t v) const { return labels_[v]; }
  static std::string smallest_piece(size_t shortest) {
    return json_string(std::string(shortest, 'x'));
  }
  template <class Out>
  void head(Out& out, const Frame& f) const {
    out.append("{\"vertices\":");
    append_number(out, f.vertices);
    out.append(",\"pairs\":");
    append_number(out, f.pairs);
    out.append(f.reflexive ? ",\"reflexive\":true" : ",\"reflexive\":false");
    out.append(",\"successors\":{");
  }
  template <class Out>
  void row_open(Out& out, vertex_t u) const {
    out.append(u ? ",\n" : "\n");
    out.append(labels_[u]);
    out.append(":[");
  }
  template <class Out>
  void separator(Out& out, bool first_in_row, bool) const {
    if (!first_in_row) out.push_back(',');
  }
  template <class Out>
  void source(Out&, Piece) const {}  // the row's key
  template <class Out>
  void target(Out& out, Piece v) const {
    out.append(v);
  }
  template <class Out>
  void row_close(Out& out, vertex_t) const {
    out.push_back(']');
  }
  template <class Out>
  void tail(Out& out) const {
    out.append("\n}}\n");
  }

 private:
  std::vector<std::string> labels_;
};

// networkx's node-link JSON: {"id":L} per vertex, then {"source":U,"target":V} per pair,
// ",\n" between items and "\n" before the first of each list.
class NodeLinkFormat : public TextFormat {
 public:
  using Piece = std::string_view;
  explicit NodeLinkFormat(std::vector<std::string> labels) : labels_(std::move(labels)) {}
  Piece piece(vertex_t v) const { return labels_[v]; }
  // Digits: labels are written as numbers (unquoted) when every one is a decimal integer.
  static std::string smallest_piece(size_t shortest) { return std::string(shortest, '1'); }
  static constexpr bool kFirstPairDiffers = true;
  static constexpr bool kNeedsFirstPair = true;
  template <class Out>
  void head(Out& out, const Frame&) const {
    out.append("{\"directed\":true,\"multigraph\":false,\"graph\":{},\"nodes\":[");
  }
  template <class Out>
  void vertex(Out& out, vertex_t v) const {
    out.append(v ? ",\n{\"id\":" : "\n{\"id\":");
    out.append(labels_[v]);
    out.push_back('}');
  }
  template <class Out>
  void middle(Out& out, const Frame&) const {
    out.append("\n],\"links\":[");
  }
  template <class Out>
  void separator(Out& out, bool, bool first_of_all) const {
    out.append(first_of_all ? "\n" : ",\n");
  }
  template <class Out>
  void source(Out& out, Piece u) const {
    out.append("{\"source\":");
    out.append(u);
    out.append(",\"target\":");
  }
  template <class Out>
  void target(Out& out, Piece v) const {
    out.append(v);
    out.push_back('}');
  }
  template <class Out>
  void tail(Out& out) const {
    out.append("\n]}\n");
  }

 private:
  std::vector<std::string> labels_;
};

// A DOT drawing: "digraph closure {" (the pairs' name), each vertex "  ID;" (so every vertex
// is a node, an isolated one too), each pair "  U -> V;", then "}".
class DotFormat : public TextFormat {
 public:
  using Piece = std::string_view;
  explicit DotFormat(std::vector<std::string> ids) : ids_(std::move(ids)) {}
  Piece piece(vertex_t v) const { return ids_[v]; }
  static std::string smallest_piece(size_t shortest) { return dot_id(std::string(shortest, 'x')); }
  template <class Out>
  void head(Out& out, const Frame& f) const {
    out.append("digraph ");
    out.append(f.what);
    out.append(" {\n");
  }
  template <class Out>
  void vertex(Out& out, vertex_t v) const {
    out.append("  ");
    out.append(ids_[v]);
    out.append(";\n");
  }
  template <class Out>
  void source(Out& out, Piece u) const {
    out.append("  ");
    out.append(u);
    out.append(" -> ");
  }
  template <class Out>
  void target(Out& out, Piece v) const {
    out.append(v);
    out.append(";\n");
  }
  template <class Out>
  void tail(Out& out) const {
    out.append("}\n");
  }

 private:
  std::vector<std::string> ids_;
};

std::vector<std::string> dot_ids(const Graph& g) {
  std::vector<std::string> ids(g.vertex_count());
  for (vertex_t v = 0; v < g.vertex_count(); ++v) ids[v] = dot_id(g.label(v));
  return ids;
}

// Calls fn with `spec`'s text format (not binary), its vertices' pieces taken from `g`; with
// no graph, the format without them (for output_bytes_lower_bound, which writes no vertex).
// The writer and the size model both pick their format here.
template <class Fn>
auto with_text_format(const Graph* g, const OutputSpec& spec, const Fn& fn) {
  auto labels = [g](OutputFormat f) {
    return g ? written_labels(*g, f) : std::vector<std::string>{};
  };
  if (spec.dot) return fn(DotFormat(g ? dot_ids(*g) : std::vector<std::string>{}));
  switch (spec.format) {
    case OutputFormat::kMatrixMarket:
      return fn(MatrixMarketFormat(labels(spec.format)));
    case OutputFormat::kJson:
      return fn(JsonFormat(labels(spec.format)));
    case OutputFormat::kNodeLink:
      return fn(NodeLinkFormat(labels(spec.format)));
    case OutputFormat::kEdges:
    case OutputFormat::kCsv:
    case OutputFormat::kTsv:
      return fn(DelimitedFormat(spec.format, labels(spec.format)));
    case OutputFormat::kBinary:
      break;
  }
  throw InternalError("with_text_format: the binary format is not a text format");
}

// Over every pair (u,v) of the closure: the sum of u's bytes as a source (source_bytes(u)),
// of v's as a target (target[v's component] holds its members' sum), the pair count, and
// the rows (sources) with a pair. One pass over the components: the members of a
// component share their successors.
struct PairSums {
  uint64_t sources = 0, targets = 0, pairs = 0, rows = 0;
};
template <class SourceBytes>
PairSums pair_sums(const Closure& c, const std::vector<uint64_t>& target, bool reflexive,
                   const SourceBytes& source_bytes) {
  PairSums s;
  std::vector<vertex_t> reached;
  for (vertex_t comp = 0; comp < c.component_count(); ++comp) {
    const auto members = c.members(comp);
    if (members.empty()) continue;
    c.component_successors(comp, reached);  // comp itself included iff cyclic
    uint64_t count = 0, reached_bytes = 0;
    for (vertex_t d : reached) count += c.members(d).size(), reached_bytes += target[d];
    if (reflexive && !c.component_cyclic(comp)) {  // acyclic: one vertex, plus (v,v)
      count += members.size();
      reached_bytes += target[comp];
    }
    uint64_t sources = 0;
    for (vertex_t v : members) sources += source_bytes(v);
    s.pairs += members.size() * count;
    s.sources += sources * count;
    s.targets += members.size() * reached_bytes;
    if (count > 0) s.rows += members.size();
  }
  return s;
}

// The exact size of a closure in a text format, written piece by piece into counters: the
// parts written once (head, middle, tail, each vertex's own pieces), and each vertex's
// pieces as a pair's source and target, weighted by how often it is one (pair_sums). No
// pair is formatted: O(n + the components' successors), as cheap as the arithmetic it is.
template <class Format>
uint64_t text_bytes(const Format& fmt, const Frame& frame, const Closure& c, bool reflexive) {
  CountingSink once;
  fmt.head(once, frame);
  fmt.middle(once, frame);
  fmt.tail(once);
  // Targets summed per component, sources counted again per component in pair_sums: one
  // array of fresh pages, not one per vertex (on a large graph they cost more than counting).
  std::vector<uint64_t> target(c.component_count(), 0);
  for (vertex_t v = 0; v < c.vertex_count(); ++v) {
    fmt.vertex(once, v);
    fmt.row_open(once, v);
    fmt.row_close(once, v);
    CountingSink as_target;
    fmt.target(as_target, fmt.piece(v));
    target[c.component_of(v)] += as_target.bytes();
  }
  const PairSums s = pair_sums(c, target, reflexive, [&fmt](vertex_t v) {
    CountingSink as_source;
    fmt.source(as_source, fmt.piece(v));
    return as_source.bytes();
  });
  if (s.pairs == 0) return once.bytes();
  CountingSink first, row_first, other;
  fmt.separator(first, true, Format::kFirstPairDiffers);
  fmt.separator(row_first, true, false);
  fmt.separator(other, false, false);
  return once.bytes() + s.sources + s.targets + first.bytes() + (s.rows - 1) * row_first.bytes() +
         (s.pairs - s.rows) * other.bytes();
}

// At least the bytes of `pairs` pairs whose labels are `shortest` bytes long: each pair's
// source and target pieces of such a label and the shortest separator, written.
template <class Format>
uint64_t text_lower_bound(const Format& fmt, uint64_t pairs, size_t shortest) {
  const auto smallest = Format::smallest_piece(shortest);
  const typename Format::Piece piece(smallest);
  CountingSink pair, first, row_first, other;
  fmt.source(pair, piece);
  fmt.target(pair, piece);
  fmt.separator(first, true, true);
  fmt.separator(row_first, true, false);
  fmt.separator(other, false, false);
  return pairs * (pair.bytes() + std::min({first.bytes(), row_first.bytes(), other.bytes()}));
}

// The binary format: the magic, n and the words per row (8 bytes each), n rows of
// words_per_row(n) 32-bit words whatever their pairs, then each label as its 4-byte length
// and its bytes. The writer and binary_bytes share these.
uint64_t binary_row_bytes(uint64_t n) {
  return words_per_row(n) * sizeof(uint32_t);
}

void binary_head(ByteSink& out, uint64_t n) {
  const uint64_t wpr = words_per_row(n);
  out.write(kBinaryMagic, sizeof kBinaryMagic);
  out.write(&n, sizeof n);
  out.write(&wpr, sizeof wpr);
}

void binary_label(ByteSink& out, std::string_view label) {
  const uint32_t len = uint32_t(label.size());
  out.write(&len, sizeof len);
  out.write(label.data(), label.size());
}

uint64_t binary_bytes(const Graph& g) {
  const uint64_t n = g.vertex_count();
  CountingSink count;
  binary_head(count, n);
  for (vertex_t v = 0; v < n; ++v) binary_label(count, g.label(v));
  return count.bytes() + n * binary_row_bytes(n);
}

}  // namespace

uint64_t output_bytes(const Graph& g, const Closure& c, const OutputSpec& spec, bool reflexive) {
  if (!spec.dot && spec.format == OutputFormat::kBinary) return binary_bytes(g);
  return with_text_format(&g, spec, [&](const auto& fmt) -> uint64_t {
    using Format = std::decay_t<decltype(fmt)>;
    const Frame frame = frame_of(ClosureRows(c, reflexive), Format::kNeedsFirstPair);
    return text_bytes(fmt, frame, c, reflexive);
  });
}

uint64_t output_bytes(const Graph& g, const Closure& c, OutputFormat f, bool reflexive) {
  return output_bytes(g, c, OutputSpec{f, false}, reflexive);
}

uint64_t output_bytes_lower_bound(const Graph& g, const Closure& c, const OutputSpec& spec,
                                  bool reflexive) {
  if (!spec.dot && spec.format == OutputFormat::kBinary) return binary_bytes(g);
  size_t shortest = SIZE_MAX;
  for (vertex_t v = 0; v < g.vertex_count(); ++v) shortest = std::min(shortest, g.label(v).size());
  if (shortest == SIZE_MAX) shortest = 0;
  const uint64_t pairs = c.pair_count(reflexive);
  return with_text_format(nullptr, spec, [&](const auto& fmt) -> uint64_t {
    return text_lower_bound(fmt, pairs, shortest);
  });
}

uint64_t output_bytes_lower_bound(const Graph& g, const Closure& c, OutputFormat f,
                                  bool reflexive) {
  return output_bytes_lower_bound(g, c, OutputSpec{f, false}, reflexive);
}

namespace {

// Reports progress every 4096 vertices (cheap next to writing their rows).
class Tick {
 public:
  Tick(const WriteProgress& progress, size_t n) : progress_(progress), n_(n) {}
  void operator()(size_t u) const {
    if (progress_ && (u & 4095) == 0) progress_(n_ ? double(u) / double(n_) : 1.0);
  }

 private:
  const WriteProgress& progress_;
  size_t n_;
};

// Appends to a buffer and hands it to the sink in large pieces. It takes the std::string
// calls (append, push_back) that the formats' pieces write with.
class Sink {
 public:
  explicit Sink(ByteSink& out) : out_(out) { buf_.reserve(kChunk + 4096); }
  void append(std::string_view s) {
    buf_.append(s);
    if (buf_.size() >= kChunk) flush();
  }
  void push_back(char c) { buf_.push_back(c); }
  // A large piece goes to the sink as it is, after what the buffer holds (no copy).
  void put_block(std::string_view s) {
    if (s.size() < kChunk / 16) return append(s);
    flush();
    out_.write(s.data(), s.size());
  }
  void flush() {
    out_.write(buf_.data(), buf_.size());
    buf_.clear();
  }

 private:
  static constexpr size_t kChunk = 1 << 20;
  ByteSink& out_;
  std::string buf_;
};

// Rows [0, n) formatted by the pool's threads, each into its block's text, and the blocks
// handed to `out` in order: one thread formatting a large closure alone was too slow. A
// block holds about 64k pairs (from the average row), a round a few blocks per thread, so
// the text held at once stays near threads x 4 blocks of about 1 MB.
template <class FormatRow>
void put_rows(Sink& out, const PairRows& rows, size_t n, const Tick& tick,
              const FormatRow& format_row) {
  const uint64_t pairs = rows.pair_count();
  const size_t rows_per_block =
      std::clamp<size_t>(65536 / (pairs / std::max<size_t>(n, 1) + 1), 1, 4096);
  const size_t blocks_per_round = 4 * size_t(thread_budget());
  std::vector<std::string> text(blocks_per_round);
  rows.prepare();
  for (size_t u0 = 0; u0 < n; u0 += rows_per_block * blocks_per_round) {
    const size_t blocks = std::min(blocks_per_round, ceil_div(n - u0, rows_per_block));
    parallel_chunks(blocks, 1, [&](size_t b0, size_t b1) {
      std::vector<vertex_t> succ;
      for (size_t b = b0; b < b1; ++b) {
        text[b].clear();
        const size_t first = u0 + b * rows_per_block, last = std::min(n, first + rows_per_block);
        for (size_t u = first; u < last; ++u) {
          rows.row(vertex_t(u), succ);
          format_row(vertex_t(u), succ, text[b]);
        }
      }
    });
    for (size_t b = 0; b < blocks; ++b) {
      const size_t first = u0 + b * rows_per_block, last = std::min(n, first + rows_per_block);
      for (size_t u = first; u < last; ++u) tick(u);
      out.put_block(text[b]);
    }
  }
}

// Every text format's one writer: its pieces in their order (TextFormat), rows formatted
// apart by put_rows.
template <class Format>
void write_text(Sink& out, const Format& fmt, const PairRows& rows, const Tick& tick) {
  const Frame frame = frame_of(rows, Format::kNeedsFirstPair);
  const size_t n = rows.vertex_count();
  fmt.head(out, frame);
  for (vertex_t v = 0; v < n; ++v) fmt.vertex(out, v);
  fmt.middle(out, frame);
  // Rows are formatted apart, so a format whose first pair of all differs needs the first
  // row that has a pair found first (the frame's).
  static_assert(!Format::kFirstPairDiffers || Format::kNeedsFirstPair);
  const size_t first = frame.first_source;
  put_rows(out, rows, n, tick,
           [&](vertex_t u, const std::vector<vertex_t>& succ, std::string& text) {
             fmt.row_open(text, u);
             const auto source = fmt.piece(u);
             for (size_t i = 0; i < succ.size(); ++i) {
               fmt.separator(text, i == 0, i == 0 && u == first);
               fmt.source(text, source);
               fmt.target(text, fmt.piece(succ[i]));
             }
             fmt.row_close(text, u);
           });
  fmt.tail(out);
}

void write_binary(ByteSink& file, const Graph& g, const PairRows& rows, const Tick& tick) {
  const uint64_t n = g.vertex_count(), wpr = words_per_row(n);
  binary_head(file, n);
  // Rows in batches of about 16 MB, each row's bits set by one of the pool's threads
  // (ClosureRows straight from its component's reach), then written in order.
  const size_t row_bytes = binary_row_bytes(n);
  // (no vertices: rows of no bytes, and no batch)
  const size_t batch =
      std::max<size_t>(1, std::min<size_t>(n, (size_t{16} << 20) / std::max<size_t>(row_bytes, 1)));
  std::vector<uint32_t> bits(batch * wpr);
  rows.prepare();
  for (uint64_t u0 = 0; u0 < n; u0 += batch) {
    const size_t count = std::min<uint64_t>(batch, n - u0);
    parallel_chunks(count, 64, [&](size_t a, size_t b) {
      for (size_t i = a; i < b; ++i) {
        uint32_t* row = bits.data() + i * wpr;
        std::fill(row, row + wpr, 0u);
        rows.set_row_bits(vertex_t(u0 + i), row);
      }
    });
    for (size_t i = 0; i < count; ++i) tick(u0 + i);
    file.write(bits.data(), count * row_bytes);
  }
  for (vertex_t v = 0; v < n; ++v) binary_label(file, g.label(v));
}

}  // namespace

void PairRows::set_row_bits(vertex_t u, uint32_t* bits) const {
  std::vector<vertex_t> targets;
  row(u, targets);
  for (vertex_t v : targets) set_bit(bits, v);
}

void ClosureRows::row(vertex_t u, std::vector<vertex_t>& out) const {
  c_.successors(u, out, reflexive_);
}

// Straight from the component's reach: no sorted successor list (through sorted lists
// writing a commit history's binary closure was slow).
void ClosureRows::set_row_bits(vertex_t u, uint32_t* bits) const {
  c_.for_each_component_successor(c_.component_of(u), [&](vertex_t d) {
    for (vertex_t v : c_.members(d)) set_bit(bits, v);
  });
  if (reflexive_) set_bit(bits, u);
}

EdgeRows::EdgeRows(size_t n, std::span<const Edge> edges, std::string what)
    : offsets_(n + 1, 0), what_(std::move(what)) {
  for (const auto& [u, v] : edges) {
    if (u >= n || v >= n)
      throw InternalError("EdgeRows: an edge names a vertex past " + std::to_string(n));
    ++offsets_[u + 1];
  }
  for (size_t u = 0; u < n; ++u) offsets_[u + 1] += offsets_[u];
  targets_.resize(edges.size());
  std::vector<uint64_t> at(offsets_.begin(), offsets_.end() - 1);
  for (const auto& [u, v] : edges) targets_[at[u]++] = v;
  // Ascending and once each, as every writer expects of a row.
  uint64_t kept = 0;
  for (size_t u = 0; u < n; ++u) {
    const auto first = targets_.begin() + std::ptrdiff_t(offsets_[u]);
    const auto last = targets_.begin() + std::ptrdiff_t(offsets_[u + 1]);
    std::sort(first, last);
    const auto end = std::unique(first, last);
    const uint64_t begin = kept;
    kept =
        uint64_t(std::move(first, end, targets_.begin() + std::ptrdiff_t(kept)) - targets_.begin());
    offsets_[u] = begin;
  }
  offsets_[n] = kept;
  targets_.resize(kept);
}

void EdgeRows::row(vertex_t u, std::vector<vertex_t>& out) const {
  out.assign(targets_.begin() + std::ptrdiff_t(offsets_[u]),
             targets_.begin() + std::ptrdiff_t(offsets_[u + 1]));
}

uint64_t write_closure(const std::string& path, const Graph& g, const Closure& c, OutputSpec spec,
                       bool reflexive, const WriteProgress& progress, const std::string& within) {
  return write_pairs(path, g, ClosureRows(c, reflexive), spec, progress, within);
}

void write_pairs(ByteSink& sink, const Graph& g, const PairRows& rows, const OutputSpec& spec,
                 const WriteProgress& progress) {
  if (rows.vertex_count() != g.vertex_count())
    throw InternalError("write_pairs: the rows and the graph differ in vertex count");
  const Tick tick(progress, g.vertex_count());
  if (spec.format == OutputFormat::kBinary && !spec.dot) {
    write_binary(sink, g, rows, tick);
    return;
  }
  Sink text(sink);
  with_text_format(&g, spec, [&](const auto& fmt) { write_text(text, fmt, rows, tick); });
  text.flush();
}

uint64_t write_pairs(const std::string& path, const Graph& g, const PairRows& rows,
                     const OutputSpec& spec, const WriteProgress& progress,
                     const std::string& within) {
  if (!spec.dot && spec.format != OutputFormat::kBinary &&
      spec.format != OutputFormat::kMatrixMarket)
    written_labels(g, spec.format);  // refuses unwritable labels before opening anything
  AtomicFile file(path, within);
  const auto sink = make_sink(file, spec.gzip);
  write_pairs(*sink, g, rows, spec, progress);
  sink->finish();
  file.commit();
  if (progress) progress(1.0);
  return file.bytes_written();
}

}  // namespace closure
