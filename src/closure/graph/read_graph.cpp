// Format names, detection and dispatch to the per-format readers.
#include "closure/graph/read_graph.hpp"

#include <algorithm>
#include <cctype>
#include <new>
#include <stdexcept>

#include "closure/graph/format_readers.hpp"
#include "closure/graph/line_source.hpp"
#include "closure/graph/text_scan.hpp"

namespace closure {

namespace {

// Enough to see past a licence header of comments to the first data lines.
constexpr size_t kSniffBytes = 64 * 1024;

struct FormatName {
  std::string_view name;
  InputFormat format;
};
constexpr FormatName kFormatNames[] = {
    {"auto", InputFormat::kAuto},
    {"edges", InputFormat::kEdgeList},
    {"gra", InputFormat::kGra},
    {"dimacs", InputFormat::kDimacs},
    {"mtx", InputFormat::kMatrixMarket},
    {"dot", InputFormat::kDot},
    {"adjlist", InputFormat::kAdjList},
    {"csv", InputFormat::kCsv},
    {"tsv", InputFormat::kTsv},
    {"edgelist", InputFormat::kEdgeList},
    {"edge-list", InputFormat::kEdgeList},
    {"snap", InputFormat::kEdgeList},
    {"grail", InputFormat::kGra},
    {"matrix-market", InputFormat::kMatrixMarket},
    {"mm", InputFormat::kMatrixMarket},
    {"gv", InputFormat::kDot},
    {"graphviz", InputFormat::kDot},
    {"adjacency-list", InputFormat::kAdjList},
};

std::string lower(std::string_view s) {
  std::string out(s);
  for (char& c : out)
    if (c >= 'A' && c <= 'Z') c = static_cast<char>(c - 'A' + 'a');
  return out;
}

bool starts_with_icase(std::string_view s, std::string_view prefix) {
  return s.size() >= prefix.size() && text::iequals(s.substr(0, prefix.size()), prefix);
}

// The lowercase extension of the file name, looking through a trailing ".gz".
std::string extension(const std::string& path) {
  const size_t slash = path.find_last_of('/');
  std::string name = lower(slash == std::string::npos ? path : path.substr(slash + 1));
  if (name.size() > 3 && name.ends_with(".gz")) name.resize(name.size() - 3);
  const size_t dot = name.find_last_of('.');
  return dot == std::string::npos || dot == 0 ? std::string() : name.substr(dot + 1);
}

// The format a file's extension names, or kAuto (content decides).
InputFormat format_of_name(const std::string& path) {
  const std::string ext = extension(path);
  if (ext == "gra") return InputFormat::kGra;
  if (ext == "mtx" || ext == "mm") return InputFormat::kMatrixMarket;
  if (ext == "dot" || ext == "gv") return InputFormat::kDot;
  if (ext == "dimacs" || ext == "gr" || ext == "max" || ext == "col") return InputFormat::kDimacs;
  if (ext == "csv") return InputFormat::kCsv;
  if (ext == "tsv") return InputFormat::kTsv;
  // networkx's write_edgelist examples name their files g.edgelist.
  if (ext == "edgelist") return InputFormat::kEdgeList;
  return InputFormat::kAuto;
}

// Skips whitespace and DOT comments; false if the text ends first.
bool skip_dot_blank(std::string_view s, size_t& i) {
  bool line_start = true;
  while (i < s.size()) {
    const char c = s[i];
    if (c == '\n' || c == '\r') {
      line_start = true;
      ++i;
    } else if (text::is_space(c)) {
      ++i;
    } else if ((c == '#' && line_start) || s.substr(i, 2) == "//") {
      while (i < s.size() && s[i] != '\n' && s[i] != '\r') ++i;
    } else if (s.substr(i, 2) == "/*") {
      const size_t close = s.find("*/", i + 2);
      if (close == std::string_view::npos) return false;
      i = close + 2;
    } else {
      return true;
    }
  }
  return false;
}

std::string_view dot_word(std::string_view s, size_t& i) {
  const size_t start = i;
  while (i < s.size() && (std::isalnum(static_cast<unsigned char>(s[i])) || s[i] == '_')) ++i;
  return s.substr(start, i - start);
}

// "[strict] (graph|digraph) [id] {" at the start, after comments.
bool looks_like_dot(std::string_view s) {
  size_t i = 0;
  if (!skip_dot_blank(s, i)) return false;
  std::string_view word = dot_word(s, i);
  if (text::iequals(word, "strict")) {
    if (!skip_dot_blank(s, i)) return false;
    word = dot_word(s, i);
  }
  if (!text::iequals(word, "graph") && !text::iequals(word, "digraph")) return false;
  if (!skip_dot_blank(s, i)) return false;
  if (s[i] == '"') {
    const size_t close = s.find('"', i + 1);
    if (close == std::string_view::npos) return false;
    i = close + 1;
  } else {
    dot_word(s, i);
  }
  return skip_dot_blank(s, i) && s[i] == '{';
}

// Comment lines ("c ...") and then "p <word> <int> <int>".
bool looks_like_dimacs(std::string_view s) {
  while (!s.empty()) {
    const size_t nl = s.find_first_of("\r\n");
    const std::string_view line = s.substr(0, nl);
    s = nl == std::string_view::npos ? std::string_view() : s.substr(nl + 1);
    text::Tokens tokens(line);
    std::string_view kind, problem, n, m;
    if (!tokens.next(kind) || kind == "c") continue;
    uint64_t x;
    return kind == "p" && tokens.next(problem) && tokens.next(n) && tokens.next(m) &&
           text::parse_unsigned(n, x) == text::NumberStatus::kOk &&
           text::parse_unsigned(m, x) == text::NumberStatus::kOk;
  }
  return false;
}

// The first line of `s` that is not blank or a comment ('#', '%'), trimmed; "" when none.
std::string_view first_data_line(std::string_view s) {
  while (!s.empty()) {
    const size_t nl = s.find_first_of("\r\n");
    const std::string_view line = text::trim(s.substr(0, nl));
    s = nl == std::string_view::npos ? std::string_view() : s.substr(nl + 1);
    if (!line.empty() && line[0] != '#' && line[0] != '%') return line;
  }
  return {};
}

// "a,b" or "a, b" as the first line that is not blank or a comment: a CSV (read as an edge
// list, "a," would be a vertex). Commas inside whitespace-separated labels ("Paris,FR
// Lyon,FR") stay an edge list: CSV only when the line is one word, or a comma touches a
// blank. The third field starting with '{' is networkx's attribute dict, not CSV.
bool first_data_line_has_comma(std::string_view s) {
  const std::string_view line = first_data_line(s);
  if (line.find(',') == std::string_view::npos) return false;
  text::Tokens tokens(line);
  std::string_view token;
  size_t words = 0;
  bool comma_at_a_blank = false;
  while (tokens.next(token)) {
    // networkx's "a b {'weight': 1, 'c': 2}": commas in the attribute dict are not CSV's.
    if (words == 2 && token.front() == '{') break;
    ++words;
    comma_at_a_blank = comma_at_a_blank || token.front() == ',' || token.back() == ',';
  }
  return words == 1 || comma_at_a_blank;
}

// networkx's write_edgelist(G, path, delimiter=D) with its attribute dicts: "0,7,{'weight':
// 0.9}". Split on blanks, "0,7,{'weight':" would be a vertex; the delimiter is the byte just
// before the dict in the first data line's first blank-separated word (0 when there is none).
char glued_dict_delimiter(std::string_view s) {
  const std::string_view line = first_data_line(s);
  const std::string_view word = line.substr(0, line.find_first_of(" \t"));
  const size_t brace = word.find('{');
  if (brace == std::string_view::npos || brace < 3) return 0;  // "u D v D {" at least
  const char d = word[brace - 1];
  // Not a quote: CSV's own ("x","{cur}" is the label {cur}).
  const bool punct = ((d >= '!' && d <= '/') || (d >= ':' && d <= '@') || d == '|' || d == '~') &&
                     d != '"' && d != '\'';
  return punct && word.find(d) < brace - 1 ? d : 0;
}

// How a first data line with a comma reads that first_data_line_has_comma() left to the
// edge list ("Ann Lee,Bob", "Paris,FR Lyon,FR"): each reading is valid when it gives two
// labels and, past them, only numbers (weights). Valid both ways: ambiguous, refused with
// the two readings rather than guessed (each guess read some files silently wrong), unless
// the first field is quoted (CSV). Valid one way only: the edge list, whose reader refuses
// what it cannot read ("1 2 0,5": a decimal comma's weight; "a b x,y": networkx's
// data=["label"]; "a b,c d" with no .csv name).
enum class CommaLine { kEdges, kCsv, kAmbiguous };
CommaLine comma_line_reading(std::string_view line) {
  if (line.find(',') == std::string_view::npos) return CommaLine::kEdges;
  auto valid = [](const std::vector<std::string_view>& fields) {
    if (fields.size() < 2 || fields[0].empty() || fields[1].empty()) return false;
    return std::all_of(fields.begin() + 2, fields.end(), detail::is_column_number);
  };
  std::vector<std::string> csv;
  std::string error;
  const bool csv_split = detail::split_fields(line, ',', csv, error);
  const bool as_csv = csv_split && valid(std::vector<std::string_view>(csv.begin(), csv.end()));
  std::vector<std::string_view> words;
  text::Tokens tokens(line);
  for (std::string_view w; tokens.next(w);) words.push_back(w);
  // networkx's "a b {'weight': 1, 'c': 2}": an edge and its attribute dict, commas and all.
  if (words.size() >= 3 && words[2].front() == '{') return CommaLine::kEdges;
  const bool as_edges = valid(words);
  if (!as_csv || !as_edges) return CommaLine::kEdges;
  // A quoted first field is CSV's quoting: "\"b jr\",c" is b jr -> c.
  return line.starts_with('"') ? CommaLine::kCsv : CommaLine::kAmbiguous;
}

InputFormat sniff(std::string_view s) {
  if (s.starts_with(text::kUtf8Bom)) s.remove_prefix(text::kUtf8Bom.size());
  const std::string_view head = text::trim(s.substr(0, s.find_first_of("\r\n")));
  if (starts_with_icase(text::trim(s), "%%MatrixMarket")) return InputFormat::kMatrixMarket;
  if (head == "graph_for_greach") return InputFormat::kGra;
  if (looks_like_dot(s)) return InputFormat::kDot;
  if (looks_like_dimacs(s)) return InputFormat::kDimacs;
  if (first_data_line_has_comma(s) || glued_dict_delimiter(s) == ',') return InputFormat::kCsv;
  if (comma_line_reading(first_data_line(s)) == CommaLine::kCsv) return InputFormat::kCsv;
  return InputFormat::kEdgeList;
}

// Formats people feed to graph tools that this one does not read, by the first line that is
// not blank: what it is, or nullptr. Read as an edge list, each would become a graph of tag
// soup with exit 0, so the edge-list reader refuses them first.
const char* unsupported_format(std::string_view first) {
  if (first.starts_with("<")) return "XML (GraphML, GEXF?) is not a supported input format";
  if (first.starts_with("{") || first.starts_with("["))
    return "JSON is not a supported input format";
  if (starts_with_icase(first, "*vertices") || starts_with_icase(first, "*network"))
    return "Pajek .net is not a supported input format";
  if (starts_with_icase(first, "graph [") || starts_with_icase(first, "graph[") ||
      (starts_with_icase(first, "graph") && first.size() == 5))
    return "GML is not a supported input format";
  return nullptr;
}

// The first line of `head` that is not blank, trimmed, and its number (1-based).
std::pair<size_t, std::string_view> first_nonblank_line(std::string_view head) {
  if (head.starts_with(text::kUtf8Bom)) head.remove_prefix(text::kUtf8Bom.size());
  size_t line = 1;
  std::string_view first;
  for (size_t at = 0; at < head.size();) {
    size_t eol = head.find_first_of("\r\n", at);
    if (eol == std::string_view::npos) eol = head.size();
    first = text::trim(head.substr(at, eol - at));
    if (!first.empty() || eol == head.size()) break;
    if (head[eol] == '\r' && eol + 1 < head.size() && head[eol + 1] == '\n') ++eol;
    at = eol + 1;
    ++line;
  }
  return {line, first};
}

void refuse_unsupported(LineSource& src, std::string_view head) {
  const auto [line, first] = first_nonblank_line(head);
  if (const char* what = unsupported_format(first))
    src.fail_at(line, std::string(what) +
                          "; convert it to an edge list ('source target' lines), DOT, DIMACS, "
                          "Matrix Market or GRAIL (docs/formats.md), e.g. with networkx: "
                          "nx.write_edgelist(G, 'g.txt', data=False)");
}

// A first data line that reads both as CSV and as an edge list (comma_line_reading()), in a
// file whose format was left to detection: refused, naming both readings.
void refuse_ambiguous_commas(LineSource& src, std::string_view head) {
  const std::string_view data = first_data_line(head);
  if (comma_line_reading(data) != CommaLine::kAmbiguous) return;
  // The whole lines before it (its own blanks aside), then its own.
  const std::string_view before = head.substr(0, size_t(data.data() - head.data()));
  const size_t ended = before.find_last_of("\r\n");
  const size_t line =
      (ended == std::string_view::npos ? 0 : LineSource::count_lines(before.substr(0, ended + 1))) +
      1;
  std::vector<std::string> csv;
  std::string error;
  detail::split_fields(data, ',', csv, error);
  text::Tokens tokens(data);
  std::string_view u, v;
  tokens.next(u);
  tokens.next(v);
  src.fail_at(line, text::quote(data) + " reads as CSV (" + text::quote(csv[0]) + " -> " +
                        text::quote(csv[1]) + ") and as an edge list (" + text::quote(u) + " -> " +
                        text::quote(v) + "): name the format with --input-format csv or edges");
}

}  // namespace

bool is_closure_edge_list(std::string_view head) {
  if (head.starts_with(text::kUtf8Bom)) head.remove_prefix(text::kUtf8Bom.size());
  return head.starts_with(kEdgeListMarker);
}

bool edge_list_number(std::string_view label) {
  uint64_t x;
  return !label.empty() && (label.size() == 1 || label[0] != '0') &&
         text::parse_unsigned(label, x) == text::NumberStatus::kOk;
}

bool edge_list_needs_marker(std::string_view source, std::string_view target, bool numbers_below) {
  const std::string line = std::string(source) + " " + std::string(target);
  // Its leading word: "digraph//x" or "graph/*" begins a DOT header whose "{" may follow on
  // a later line, after the comment.
  const std::string_view word = source.substr(
      0,
      std::min(source.size(), source.find_first_not_of("abcdefghijklmnopqrstuvwxyz"
                                                       "ABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_")));
  // Read back, the file would be another format, refused as one, or its first edge a header.
  return source.starts_with(text::kUtf8Bom) || sniff(line) != InputFormat::kEdgeList ||
         unsupported_format(line) != nullptr || glued_dict_delimiter(line) != 0 ||
         comma_line_reading(line) != CommaLine::kEdges ||
         // DOT's "digraph" and "{" may stand on two lines, after comments
         text::iequals(word, "strict") || text::iequals(word, "graph") ||
         text::iequals(word, "digraph") || source.starts_with("//") || source.starts_with("/*") ||
         (detail::is_header_word(source) && detail::is_header_word(target)) ||
         (!edge_list_number(source) && !edge_list_number(target) && numbers_below);
}

namespace {

// What a format's reader does with a delimiter or a header choice; refusals name both.
bool is_delimited(InputFormat f) {
  return f == InputFormat::kAuto || f == InputFormat::kCsv || f == InputFormat::kTsv;
}

ReadResult parse(LineSource& src, const std::string& path, const ReadOptions& options) {
  const std::string_view head = src.peek(kSniffBytes);
  // Blank as far as sniffed, and nothing beyond (a mapped file's first 64 KiB may be blank
  // lines before its graph).
  if (text::trim(head).empty() && src.peek(head.size() + 1).size() == head.size())
    src.fail_at(0, "empty file: expected a graph");
  // An edge list closure wrote, marked where its first edge alone would read otherwise.
  const bool marked = options.format == InputFormat::kAuto && is_closure_edge_list(head);
  InputFormat format = marked ? InputFormat::kEdgeList : options.format;
  const HeaderRow header =
      marked && options.header == HeaderRow::kGuess ? HeaderRow::kAbsent : options.header;
  // Sniffed from the content: neither named nor marked, nor given by the file's extension.
  const bool detected =
      options.format == InputFormat::kAuto && !marked && format_of_name(path) == InputFormat::kAuto;
  if (options.format == InputFormat::kAuto && !marked) format = detect_format(path, head);
  if (options.delimiter != 0) {
    // Text of lines is split on the delimiter named; a file of another kind is refused.
    if (format == InputFormat::kEdgeList) format = InputFormat::kCsv;
    ReadOptions detected = options;
    detected.format = format;
    check_read_options(detected);
  }
  if (options.header != HeaderRow::kGuess) {
    ReadOptions detected = options;
    detected.format = format;
    check_read_options(detected);
  }
  // XML and JSON hold commas too: refused with the hint before a CSV reader sees them. A
  // format named (or said by the extension: pandas writes "{a},b" rows into a .csv) is read
  // as named.
  if (detected && (format == InputFormat::kEdgeList || format == InputFormat::kCsv ||
                   format == InputFormat::kTsv))
    refuse_unsupported(src, head);
  if (detected && format == InputFormat::kEdgeList) refuse_ambiguous_commas(src, head);
  // A delimiter this reader does not split on, glued to networkx's dicts: refused, never
  // read as vertices named "0;7;{'weight':" (',' is CSV; blanks and tabs are edge lists).
  const char split_on = options.delimiter != 0        ? options.delimiter
                        : format == InputFormat::kCsv ? ','
                        : format == InputFormat::kTsv ? '\t'
                                                      : 0;
  if (const char d = marked ? 0 : glued_dict_delimiter(head);
      d != 0 && d != split_on &&
      (format == InputFormat::kEdgeList || format == InputFormat::kCsv ||
       format == InputFormat::kTsv))
    src.fail_at(0,
                std::string("the first line looks like networkx's write_edgelist with delimiter "
                            "'") +
                    d + "', which this format does not split on",
                Advice::kDelimiter, std::string(1, d));
  switch (format) {
    case InputFormat::kEdgeList:
      return detail::read_edge_list(src, header);
    case InputFormat::kGra:
      return detail::read_gra(src);
    case InputFormat::kDimacs:
      return detail::read_dimacs(src);
    case InputFormat::kMatrixMarket:
      return detail::read_matrix_market(src);
    case InputFormat::kDot:
      return detail::read_dot(src);
    case InputFormat::kAdjList:
      return detail::read_adjacency_list(src);
    case InputFormat::kCsv:
    case InputFormat::kTsv:
      return detail::read_delimited(src, split_on, header);
    case InputFormat::kAuto:
      break;
  }
  throw InternalError("read_graph: unhandled input format");
}

// Every read ends here: a file that changed under the reader is reported as such, whatever
// else its changed bytes made the parser say; running out of memory names the input.
ReadResult read_source(LineSource& src, const std::string& path, const ReadOptions& options) {
  try {
    ReadResult result = parse(src, path, options);
    src.check_unchanged();
    return result;
  } catch (const std::bad_alloc&) {
    src.check_unchanged();
    const size_t size = src.known_size() ? src.known_size() : src.bytes_consumed();
    throw OutOfMemoryError("out of memory while reading " + src.name() + " (" +
                           format_bytes(double(size)) + (src.known_size() ? "" : " read so far") +
                           "; a graph takes about 2-3 times its text in memory while it is "
                           "read; the limit may be free memory, ulimit -v or a cgroup)");
  } catch (const InputError&) {
    src.check_unchanged();
    throw;
  }
}

}  // namespace

InputFormat parse_input_format(std::string_view name) {
  for (const auto& f : kFormatNames)
    if (text::iequals(name, f.name)) return f.format;
  throw UsageError("unknown input format '" + std::string(name) +
                   "' (expected auto, edges, gra, dimacs, mtx, dot, adjlist, csv or tsv)");
}

char parse_delimiter(std::string_view t) {
  if (t == "tab" || t == "\\t" || t == "\t") return '\t';
  const bool one_byte = t.size() == 1 && t[0] > ' ' && t[0] < 127;
  if (one_byte && t[0] != '"' && !std::isalnum(static_cast<unsigned char>(t[0]))) return t[0];
  throw UsageError("delimiter '" + std::string(t) +
                   "': expected one printable character other than a letter, a digit or '\"' "
                   "(such as ',' ';' '|' ':'), or tab; blanks separate an edge list's fields "
                   "without one");
}

void check_read_options(const ReadOptions& o) {
  if (o.delimiter != 0 && !is_delimited(o.format))
    throw UsageError("a delimiter applies to delimited text (csv, tsv), not to the " +
                     std::string(format_name(o.format)) + " format");
  if (o.header != HeaderRow::kGuess && o.delimiter == 0 && !is_delimited(o.format) &&
      o.format != InputFormat::kEdgeList)
    throw UsageError("a header row applies to csv, tsv and edge lists, not to the " +
                     std::string(format_name(o.format)) + " format");
}

std::vector<std::string> input_format_names() {
  std::vector<std::string> out;
  for (const auto& f : kFormatNames)
    if (f.name == format_name(f.format)) out.emplace_back(f.name);
  return out;
}

std::string_view format_name(InputFormat format) {
  for (const auto& f : kFormatNames)
    if (f.format == format) return f.name;
  return "unknown";
}

InputFormat detect_format(const std::string& path, std::string_view first_bytes) {
  const InputFormat named = format_of_name(path);
  return named != InputFormat::kAuto ? named : sniff(first_bytes);
}

ReadResult read_graph(const std::string& path, const ReadOptions& options) {
  LineSource src(path);
  return read_source(src, path, options);
}

ReadResult read_graph(LineSource& source, const ReadOptions& options) {
  return read_source(source, source.name(), options);
}

ReadResult read_graph_from_string(std::string_view text, const ReadOptions& options,
                                  const std::string& name) {
  LineSource src(text, name);
  return read_source(src, name, options);
}

namespace detail {

size_t checked_vertex_count(LineSource& src, std::string_view token, std::string_view what) {
  size_t n = 0;
  switch (text::parse_unsigned(token, n)) {
    case text::NumberStatus::kOk:
      break;
    case text::NumberStatus::kNotNumber:
      src.fail("expected the " + std::string(what) + " (an unsigned integer), found " +
               text::quote(token));
    case text::NumberStatus::kTooLarge:
      n = SIZE_MAX;
      break;
  }
  if (n > kMaxVertices)
    src.fail(std::string(what) + " " + std::string(token) + " exceeds the supported maximum of " +
             std::to_string(kMaxVertices) + " vertices");
  return n;
}

void check_declared_vertices(const LineSource& src, size_t n, size_t line) {
  // Isolated vertices are legal, so a declared count is not bounded by the data; but each
  // vertex costs memory (labels, offsets, every method's per-vertex arrays), so a file may
  // declare at most kFreeDeclaredVertices plus one vertex per byte it holds. Checked at the
  // end, against the bytes actually read, so it holds for pipes and gzip too.
  const size_t allowed = kFreeDeclaredVertices + src.bytes_consumed();
  if (n > allowed)
    src.fail_at(line, "declares " + std::to_string(n) + " vertices, more than a file of " +
                          std::to_string(src.bytes_consumed()) + " bytes may (" +
                          std::to_string(kFreeDeclaredVertices) +
                          " plus one per byte; most would be isolated)");
}

size_t reserve_bound(const LineSource& src, size_t declared, size_t min_record_bytes) {
  // A header's count reserves memory only as far as the file could hold that many records;
  // of unknown size (a pipe, gzip), a modest start, and the vector grows with the data.
  const size_t by_size =
      src.known_size() > 0 ? src.known_size() / min_record_bytes : size_t{1} << 16;
  return std::min(declared, by_size);
}

}  // namespace detail

}  // namespace closure
