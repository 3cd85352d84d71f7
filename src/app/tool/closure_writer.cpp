// Closure output in four formats, streamed vertex by vertex through one buffer; and the
// exact byte count of each, computed per component from label lengths.
#include "app/tool/closure_writer.hpp"

#include <algorithm>
#include <charconv>
#include <nlohmann/json.hpp>
#include <stdexcept>

#include "closure/bitmatrix.hpp"
#include "closure/errors.hpp"
#include "closure/executor.hpp"
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

OutputFormat parse_output_format(std::string_view name) {
  std::string names;
  for (const auto& f : output_formats()) {
    if (name == f.name || (!f.alias.empty() && name == f.alias)) return f.format;
    names += names.empty() ? "" : ", ";
    names += f.name;
  }
  throw UsageError("unknown output format '" + std::string(name) + "' (" + names + ")");
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
    for (const char* foreign :
         {".graphml", ".gml", ".gexf", ".xml", ".net", ".gra", ".dimacs", ".gr"})
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

uint64_t digits(uint64_t v) {
  uint64_t d = 1;
  while (v >= 10) v /= 10, ++d;
  return d;
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
      // "u v" lines cannot carry a label with a blank in it (DOT allows "a b"): say so
      // rather than write a file that reads back differently.
      if (label.empty() || label.find_first_of(" \t\r\n") != std::string::npos)
        throw UsageError(
            "vertex label '" + label + "' contains whitespace, which an edge list cannot hold",
            Advice::kQuotingFormat);
      const bool escape = label[0] == '#' || label[0] == '%' ||
                          (label[0] == '\\' && label.size() > 1 &&
                           (label[1] == '#' || label[1] == '%' || label[1] == '\\'));
      if (escape) label.insert(label.begin(), '\\');
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

// Per-vertex byte weights of one format: what a vertex adds each time it appears as a
// pair's target (w) and as a line's source.
std::vector<uint64_t> target_weights(const Graph& g, OutputFormat f) {
  std::vector<uint64_t> w(g.vertex_count(), 0);
  if (f == OutputFormat::kEdges || f == OutputFormat::kJson || f == OutputFormat::kCsv ||
      f == OutputFormat::kTsv || f == OutputFormat::kNodeLink) {
    const auto labels = written_labels(g, f);
    for (vertex_t v = 0; v < g.vertex_count(); ++v) w[v] = labels[v].size();
  } else if (f == OutputFormat::kMatrixMarket) {
    for (vertex_t v = 0; v < g.vertex_count(); ++v) w[v] = digits(uint64_t(v) + 1);
  }
  return w;
}

// Over every pair (u,v) of the closure: the sum of w[u] (sources), of w[v] (targets),
// the pair count, and per source u max(count(u) - 1, 0) (JSON's commas). One pass over
// the components: the members of a component share their successors.
struct PairSums {
  uint64_t sources = 0, targets = 0, pairs = 0, commas = 0;
};
PairSums pair_sums(const Closure& c, const std::vector<uint64_t>& w, bool reflexive) {
  const size_t k = c.component_count();
  std::vector<uint64_t> weight(k, 0), size(k, 0);
  for (vertex_t v = 0; v < c.vertex_count(); ++v) {
    weight[c.component_of(v)] += w[v];
    ++size[c.component_of(v)];
  }
  PairSums s;
  std::vector<vertex_t> reached;
  for (vertex_t comp = 0; comp < k; ++comp) {
    if (size[comp] == 0) continue;
    c.component_successors(comp, reached);  // comp itself included iff cyclic
    uint64_t count = 0, reached_weight = 0;
    for (vertex_t d : reached) count += size[d], reached_weight += weight[d];
    if (reflexive && !c.component_cyclic(comp)) {  // acyclic: one vertex, plus (v,v)
      count += size[comp];
      reached_weight += weight[comp];
    }
    s.pairs += size[comp] * count;
    s.sources += weight[comp] * count;
    s.targets += size[comp] * reached_weight;
    s.commas += size[comp] * (count > 0 ? count - 1 : 0);
  }
  return s;
}

uint64_t label_bytes(const Graph& g) {
  uint64_t total = 0;
  for (vertex_t v = 0; v < g.vertex_count(); ++v) total += g.label(v).size();
  return total;
}

constexpr std::string_view kMtxBanner = "%%MatrixMarket matrix coordinate pattern general\n";
std::string mtx_comment(std::string_view what) {
  return "% transitive " + std::string(what) +
         " written by closure; row/column i is the vertex labelled below\n";
}

std::string json_prefix(const Graph& g, uint64_t pairs, bool reflexive) {
  return "{\"vertices\":" + std::to_string(g.vertex_count()) +
         ",\"pairs\":" + std::to_string(pairs) +
         (reflexive ? ",\"reflexive\":true" : ",\"reflexive\":false") + ",\"successors\":{";
}
constexpr std::string_view kJsonSuffix = "\n}}\n";

// node-link: the prefix, {"id":L} per vertex (",\n" between, "\n" first), the middle,
// {"source":U,"target":V} per pair (likewise), the suffix.
constexpr std::string_view kNodeLinkPrefix =
    "{\"directed\":true,\"multigraph\":false,\"graph\":{},\"nodes\":[";
constexpr std::string_view kNodeLinkMiddle = "\n],\"links\":[";
constexpr std::string_view kNodeLinkSuffix = "\n]}\n";
constexpr uint64_t kNodeBytes = 7;   // {"id": and }
constexpr uint64_t kLinkBytes = 21;  // {"source": ,"target": }
uint64_t separators(uint64_t items) {
  return items ? 2 * items - 1 : 0;
}

}  // namespace

static std::string delimited_header(OutputFormat f) {
  return f == OutputFormat::kCsv ? "source,target\n" : "source\ttarget\n";
}

uint64_t output_bytes(const Graph& g, const Closure& c, OutputFormat f, bool reflexive) {
  const uint64_t n = g.vertex_count();
  if (f == OutputFormat::kBinary)
    return sizeof kBinaryMagic + 16 + n * words_per_row(n) * 4 + n * 4 + label_bytes(g);
  const std::vector<uint64_t> w = target_weights(g, f);
  const PairSums s = pair_sums(c, w, reflexive);
  switch (f) {
    case OutputFormat::kEdges:  // "u v\n"
      return s.sources + s.targets + 2 * s.pairs;
    case OutputFormat::kCsv:  // the header, then "u,v\n" (tabs for TSV)
    case OutputFormat::kTsv:
      return delimited_header(f).size() + s.sources + s.targets + 2 * s.pairs;
    case OutputFormat::kMatrixMarket: {  // "%label i label\n" per vertex, "u v\n" per pair
      uint64_t header = kMtxBanner.size() + mtx_comment("closure").size();
      const auto labels = written_labels(g, f);
      for (vertex_t v = 0; v < n; ++v) header += 7 + w[v] + 1 + labels[v].size() + 1;
      header += 2 * digits(n) + digits(s.pairs) + 3;
      return header + s.sources + s.targets + 2 * s.pairs;
    }
    case OutputFormat::kJson: {
      // Per source: separator (1 for the first, else 2), "label", ":[", targets, commas, "]".
      uint64_t per_source = n ? 2 * n - 1 : 0;
      for (vertex_t v = 0; v < n; ++v) per_source += w[v] + 3;
      return json_prefix(g, s.pairs, reflexive).size() + per_source + s.targets + s.commas +
             kJsonSuffix.size();
    }
    case OutputFormat::kNodeLink: {
      uint64_t nodes = separators(n);
      for (vertex_t v = 0; v < n; ++v) nodes += kNodeBytes + w[v];
      return kNodeLinkPrefix.size() + nodes + kNodeLinkMiddle.size() + s.sources + s.targets +
             kLinkBytes * s.pairs + separators(s.pairs) + kNodeLinkSuffix.size();
    }
    case OutputFormat::kBinary:
      break;
  }
  return 0;
}

uint64_t output_bytes_lower_bound(const Graph& g, const Closure& c, OutputFormat f,
                                  bool reflexive) {
  const uint64_t pairs = c.pair_count(reflexive);
  uint64_t shortest = UINT64_MAX;
  for (vertex_t v = 0; v < g.vertex_count(); ++v)
    shortest = std::min<uint64_t>(shortest, g.label(v).size());
  if (shortest == UINT64_MAX) shortest = 0;
  switch (f) {
    case OutputFormat::kEdges:
    case OutputFormat::kCsv:
    case OutputFormat::kTsv:
      return pairs * (2 * shortest + 2);
    case OutputFormat::kMatrixMarket:
      return pairs * 4;
    case OutputFormat::kJson:
      return pairs * (shortest + 3);
    case OutputFormat::kNodeLink:
      return pairs * (2 * shortest + kLinkBytes);
    case OutputFormat::kBinary:
      return output_bytes(g, c, f, reflexive);
  }
  return 0;
}

// A DOT drawing: "digraph closure {" (the pairs' name), each vertex "  ID;" (so every vertex
// is a node, an isolated one too), each pair "  U -> V;", then "}".
std::string dot_header(std::string_view what) {
  return "digraph " + std::string(what) + " {\n";
}
constexpr std::string_view kDotFooter = "}\n";

static std::vector<std::string> dot_ids(const Graph& g) {
  std::vector<std::string> ids(g.vertex_count());
  for (vertex_t v = 0; v < g.vertex_count(); ++v) ids[v] = dot_id(g.label(v));
  return ids;
}

uint64_t output_bytes(const Graph& g, const Closure& c, const OutputSpec& spec, bool reflexive) {
  if (!spec.dot) return output_bytes(g, c, spec.format, reflexive);
  const auto ids = dot_ids(g);
  std::vector<uint64_t> w(ids.size());
  uint64_t nodes = 0;
  for (size_t v = 0; v < ids.size(); ++v) nodes += (w[v] = ids[v].size()) + 4;
  const PairSums s = pair_sums(c, w, reflexive);
  return dot_header("closure").size() + nodes + s.sources + s.targets + 8 * s.pairs +
         kDotFooter.size();
}

uint64_t output_bytes_lower_bound(const Graph& g, const Closure& c, const OutputSpec& spec,
                                  bool reflexive) {
  if (!spec.dot) return output_bytes_lower_bound(g, c, spec.format, reflexive);
  // Every id has its two quotes: the edge list's bound plus 4 quotes and 6 bytes per pair.
  return output_bytes_lower_bound(g, c, OutputFormat::kEdges, reflexive) +
         c.pair_count(reflexive) * 10;
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

// Appends to a buffer and hands it to the sink in large pieces.
class Sink {
 public:
  explicit Sink(ByteSink& out) : out_(out) { buf_.reserve(kChunk + 4096); }
  void put(std::string_view s) {
    buf_.append(s);
    if (buf_.size() >= kChunk) flush();
  }
  void put(char c) { buf_.push_back(c); }
  // A large piece goes to the sink as it is, after what the buffer holds (no copy).
  void put_block(std::string_view s) {
    if (s.size() < kChunk / 16) return put(s);
    flush();
    out_.write(s.data(), s.size());
  }
  void put_number(uint64_t v) {
    char tmp[24];
    auto [end, ec] = std::to_chars(tmp, tmp + sizeof tmp, v);
    buf_.append(tmp, end);
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

void append_number(std::string& out, uint64_t v) {
  char tmp[24];
  auto [end, ec] = std::to_chars(tmp, tmp + sizeof tmp, v);
  out.append(tmp, end);
}

// Edge lists, CSV and TSV: one "u v" line per pair (',' or a tab for CSV and TSV, which
// start with their header).
void write_edges(Sink& out, const Graph& g, const PairRows& rows, const Tick& tick,
                 OutputFormat f) {
  const auto labels = written_labels(g, f);
  const char separator = f == OutputFormat::kCsv ? ',' : f == OutputFormat::kTsv ? '\t' : ' ';
  if (f != OutputFormat::kEdges) out.put(delimited_header(f));
  put_rows(out, rows, g.vertex_count(), tick,
           [&](vertex_t u, const std::vector<vertex_t>& succ, std::string& text) {
             for (vertex_t v : succ) {
               text.append(labels[u]);
               text.push_back(separator);
               text.append(labels[v]);
               text.push_back('\n');
             }
           });
}

void write_matrix_market(Sink& out, const Graph& g, const PairRows& rows, const Tick& tick) {
  const size_t n = g.vertex_count();
  out.put(kMtxBanner);
  out.put(mtx_comment(rows.what()));
  const auto labels = written_labels(g, OutputFormat::kMatrixMarket);
  for (vertex_t v = 0; v < n; ++v) {
    out.put("%label ");
    out.put_number(v + 1);
    out.put(' ');
    out.put(labels[v]);
    out.put('\n');
  }
  out.put_number(n);
  out.put(' ');
  out.put_number(n);
  out.put(' ');
  out.put_number(rows.pair_count());
  out.put('\n');
  put_rows(out, rows, n, tick,
           [&](vertex_t u, const std::vector<vertex_t>& succ, std::string& text) {
             for (vertex_t v : succ) {
               append_number(text, u + 1);
               text.push_back(' ');
               append_number(text, v + 1);
               text.push_back('\n');
             }
           });
}

void write_json(Sink& out, const Graph& g, const PairRows& rows, const Tick& tick) {
  const auto quoted = written_labels(g, OutputFormat::kJson);
  out.put(json_prefix(g, rows.pair_count(), rows.reflexive()));
  std::vector<vertex_t> succ;
  rows.prepare();
  for (vertex_t u = 0; u < g.vertex_count(); ++u) {
    tick(u);
    rows.row(u, succ);
    out.put(u ? ",\n" : "\n");
    out.put(quoted[u]);
    out.put(":[");
    for (size_t i = 0; i < succ.size(); ++i) {
      if (i) out.put(',');
      out.put(quoted[succ[i]]);
    }
    out.put(']');
  }
  out.put(kJsonSuffix);
}

void write_node_link(Sink& out, const Graph& g, const PairRows& rows, const Tick& tick) {
  const auto labels = written_labels(g, OutputFormat::kNodeLink);
  out.put(kNodeLinkPrefix);
  for (size_t v = 0; v < labels.size(); ++v) {
    out.put(v ? ",\n{\"id\":" : "\n{\"id\":");
    out.put(labels[v]);
    out.put('}');
  }
  out.put(kNodeLinkMiddle);
  // Rows are formatted apart (put_rows), so each link carries its separator before it and
  // the first pair of all, in the first row that has one, gets "\n" alone.
  rows.prepare();
  std::vector<vertex_t> succ;
  size_t first = 0;
  while (first < labels.size() && (rows.row(vertex_t(first), succ), succ.empty())) ++first;
  put_rows(out, rows, g.vertex_count(), tick,
           [&](vertex_t u, const std::vector<vertex_t>& targets, std::string& text) {
             for (size_t i = 0; i < targets.size(); ++i) {
               text.append(u == first && i == 0 ? "\n" : ",\n");
               text.append("{\"source\":").append(labels[u]).append(",\"target\":");
               text.append(labels[targets[i]]).push_back('}');
             }
           });
  out.put(kNodeLinkSuffix);
}

void write_dot(Sink& out, const Graph& g, const PairRows& rows, const Tick& tick) {
  const auto ids = dot_ids(g);
  out.put(dot_header(rows.what()));
  for (const std::string& id : ids) {
    out.put("  ");
    out.put(id);
    out.put(";\n");
  }
  put_rows(out, rows, g.vertex_count(), tick,
           [&](vertex_t u, const std::vector<vertex_t>& succ, std::string& text) {
             for (vertex_t v : succ) {
               text.append("  ").append(ids[u]).append(" -> ").append(ids[v]).append(";\n");
             }
           });
  out.put(kDotFooter);
}

void write_binary(ByteSink& file, const Graph& g, const PairRows& rows, const Tick& tick) {
  const uint64_t n = g.vertex_count(), wpr = words_per_row(n);
  file.write(kBinaryMagic, sizeof kBinaryMagic);
  file.write(&n, sizeof n);
  file.write(&wpr, sizeof wpr);
  // Rows in batches of about 16 MB, each row's bits set by one of the pool's threads
  // (ClosureRows straight from its component's reach), then written in order.
  const size_t row_bytes = wpr * sizeof(uint32_t);
  const size_t batch = std::max<size_t>(1, std::min<size_t>(n, (size_t{16} << 20) / row_bytes));
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
  for (vertex_t v = 0; v < n; ++v) {
    const std::string label = g.label(v);
    const uint32_t len = uint32_t(label.size());
    file.write(&len, sizeof len);
    file.write(label.data(), label.size());
  }
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
  if (spec.dot)
    write_dot(text, g, rows, tick);
  else if (spec.format == OutputFormat::kMatrixMarket)
    write_matrix_market(text, g, rows, tick);
  else if (spec.format == OutputFormat::kJson)
    write_json(text, g, rows, tick);
  else if (spec.format == OutputFormat::kNodeLink)
    write_node_link(text, g, rows, tick);
  else
    write_edges(text, g, rows, tick, spec.format);  // edges, CSV, TSV
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
