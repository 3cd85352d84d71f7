// Closure output in four formats, streamed vertex by vertex through one buffer.
#include "closure/io/closure_writer.hpp"

#include <charconv>
#include <nlohmann/json.hpp>
#include <stdexcept>

#include "closure/io/atomic_file.hpp"

namespace closure {

OutputFormat parse_output_format(std::string_view name) {
  if (name == "edges") return OutputFormat::kEdges;
  if (name == "matrix-market" || name == "mtx") return OutputFormat::kMatrixMarket;
  if (name == "json") return OutputFormat::kJson;
  if (name == "binary") return OutputFormat::kBinary;
  throw std::invalid_argument("unknown output format '" + std::string(name) +
                              "' (edges, matrix-market, json, binary)");
}

std::string_view output_format_name(OutputFormat f) {
  switch (f) {
    case OutputFormat::kEdges:
      return "edges";
    case OutputFormat::kMatrixMarket:
      return "matrix-market";
    case OutputFormat::kJson:
      return "json";
    case OutputFormat::kBinary:
      return "binary";
  }
  return "?";
}

static std::vector<std::string> all_labels(const Graph& g) {
  std::vector<std::string> out(g.vertex_count());
  for (vertex_t v = 0; v < g.vertex_count(); ++v) out[v] = g.label(v);
  return out;
}

// Labels as the text formats write them, so that they read back as the same labels
// (docs/formats.md): in an edge list a label starting with '#' or '%' would read as a
// comment, so it (and one starting with '\' followed by '#', '%' or '\') gets a leading '\';
// in a Matrix Market "%label" line a line break would end the comment, so '\', CR and LF
// are written as \\, \r and \n.
static std::vector<std::string> written_labels(const Graph& g, OutputFormat f) {
  std::vector<std::string> out = all_labels(g);
  for (std::string& label : out) {
    if (f == OutputFormat::kEdges) {
      const bool escape =
          !label.empty() && (label[0] == '#' || label[0] == '%' ||
                             (label[0] == '\\' && label.size() > 1 &&
                              (label[1] == '#' || label[1] == '%' || label[1] == '\\')));
      if (escape) label.insert(label.begin(), '\\');
    } else if (f == OutputFormat::kMatrixMarket &&
               label.find_first_of("\\\r\n") != std::string::npos) {
      std::string e;
      for (char c : label)
        e += c == '\n' ? "\\n" : c == '\r' ? "\\r" : c == '\\' ? "\\\\" : std::string(1, c);
      label = std::move(e);
    }
  }
  return out;
}

static uint64_t words_per_row(size_t n) {
  return (n + 31) / 32;
}

uint64_t estimate_output_bytes(const Graph& g, const Closure& c, OutputFormat f, bool reflexive) {
  const size_t n = g.vertex_count();
  uint64_t label_bytes = 0;
  for (vertex_t v = 0; v < n; ++v) label_bytes += g.label(v).size();
  const double avg = n ? double(label_bytes) / double(n) : 1;
  const double pairs = double(c.pair_count(reflexive));
  switch (f) {
    case OutputFormat::kEdges:
      return uint64_t(pairs * (2 * avg + 2));
    case OutputFormat::kMatrixMarket: {
      const double digits = double(std::to_string(n).size());
      return uint64_t(pairs * (2 * digits + 2) + double(n) * (avg + 16) + 100);
    }
    case OutputFormat::kJson:
      return uint64_t(pairs * (avg + 3) + double(n) * (avg + 8) + 100);
    case OutputFormat::kBinary:
      return 24 + n * words_per_row(n) * 4 + n * 4 + label_bytes;
  }
  return 0;
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

// Appends to a buffer and hands it to the file in large pieces.
class Sink {
 public:
  explicit Sink(AtomicFile& f) : file_(f) { buf_.reserve(kChunk + 4096); }
  void put(std::string_view s) {
    buf_.append(s);
    if (buf_.size() >= kChunk) flush();
  }
  void put(char c) { buf_.push_back(c); }
  void put_number(uint64_t v) {
    char tmp[24];
    auto [end, ec] = std::to_chars(tmp, tmp + sizeof tmp, v);
    buf_.append(tmp, end);
  }
  void flush() {
    file_.write(buf_);
    buf_.clear();
  }

 private:
  static constexpr size_t kChunk = 1 << 20;
  AtomicFile& file_;
  std::string buf_;
};

void write_edges(Sink& out, const Graph& g, const Closure& c, bool reflexive, const Tick& tick) {
  const auto labels = written_labels(g, OutputFormat::kEdges);
  // "u v" lines cannot carry a label with a blank in it (DOT allows "a b"): say so
  // rather than write a file that reads back differently.
  for (const auto& label : labels)
    if (label.empty() || label.find_first_of(" \t\r\n") != std::string::npos)
      throw std::runtime_error("vertex label '" + label +
                               "' contains whitespace, which an edge list cannot hold; use "
                               "--output-format json or matrix-market");
  std::vector<vertex_t> succ;
  for (vertex_t u = 0; u < g.vertex_count(); ++u) {
    tick(u);
    c.successors(u, succ, reflexive);
    for (vertex_t v : succ) {
      out.put(labels[u]);
      out.put(' ');
      out.put(labels[v]);
      out.put('\n');
    }
  }
}

void write_matrix_market(Sink& out, const Graph& g, const Closure& c, bool reflexive,
                         const Tick& tick) {
  const size_t n = g.vertex_count();
  out.put("%%MatrixMarket matrix coordinate pattern general\n");
  out.put("% transitive closure written by closure; row/column i is the vertex labelled below\n");
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
  out.put_number(c.pair_count(reflexive));
  out.put('\n');
  std::vector<vertex_t> succ;
  for (vertex_t u = 0; u < n; ++u) {
    tick(u);
    c.successors(u, succ, reflexive);
    for (vertex_t v : succ) {
      out.put_number(u + 1);
      out.put(' ');
      out.put_number(v + 1);
      out.put('\n');
    }
  }
}

void write_json(Sink& out, const Graph& g, const Closure& c, bool reflexive, const Tick& tick) {
  const auto labels = all_labels(g);
  std::vector<std::string> quoted(labels.size());
  for (size_t v = 0; v < labels.size(); ++v) {
    // JSON text is UTF-8: a label that is not cannot be written without changing it.
    try {
      quoted[v] = nlohmann::json(labels[v]).dump();
    } catch (const nlohmann::json::type_error&) {
      throw std::runtime_error("vertex label '" + labels[v] +
                               "' is not UTF-8 and cannot be written as JSON; use "
                               "--output-format edges, matrix-market or binary");
    }
  }
  out.put("{\"vertices\":");
  out.put_number(g.vertex_count());
  out.put(",\"pairs\":");
  out.put_number(c.pair_count(reflexive));
  out.put(reflexive ? ",\"reflexive\":true" : ",\"reflexive\":false");
  out.put(",\"successors\":{");
  std::vector<vertex_t> succ;
  for (vertex_t u = 0; u < g.vertex_count(); ++u) {
    tick(u);
    c.successors(u, succ, reflexive);
    out.put(u ? ",\n" : "\n");
    out.put(quoted[u]);
    out.put(":[");
    for (size_t i = 0; i < succ.size(); ++i) {
      if (i) out.put(',');
      out.put(quoted[succ[i]]);
    }
    out.put(']');
  }
  out.put("\n}}\n");
}

void write_binary(AtomicFile& file, const Graph& g, const Closure& c, bool reflexive,
                  const Tick& tick) {
  const uint64_t n = g.vertex_count(), wpr = words_per_row(n);
  file.write(kBinaryMagic, sizeof kBinaryMagic);
  file.write(&n, sizeof n);
  file.write(&wpr, sizeof wpr);
  std::vector<uint32_t> row(wpr);
  std::vector<vertex_t> succ;
  for (vertex_t u = 0; u < n; ++u) {
    tick(u);
    std::fill(row.begin(), row.end(), 0);
    c.successors(u, succ, reflexive);
    for (vertex_t v : succ) row[v / 32] |= uint32_t{1} << (v % 32);
    file.write(row.data(), row.size() * sizeof(uint32_t));
  }
  for (vertex_t v = 0; v < n; ++v) {
    const std::string label = g.label(v);
    const uint32_t len = uint32_t(label.size());
    file.write(&len, sizeof len);
    file.write(label);
  }
}

}  // namespace

void write_closure(const std::string& path, const Graph& g, const Closure& c, OutputFormat f,
                   bool reflexive, const WriteProgress& progress) {
  AtomicFile file(path);
  const Tick tick(progress, g.vertex_count());
  if (f == OutputFormat::kBinary) {
    write_binary(file, g, c, reflexive, tick);
  } else {
    Sink sink(file);
    if (f == OutputFormat::kEdges) write_edges(sink, g, c, reflexive, tick);
    if (f == OutputFormat::kMatrixMarket) write_matrix_market(sink, g, c, reflexive, tick);
    if (f == OutputFormat::kJson) write_json(sink, g, c, reflexive, tick);
    sink.flush();
  }
  file.commit();
  if (progress) progress(1.0);
}

}  // namespace closure
