// Writing pairs (a closure, a reduction): edge list in the input's labels, Matrix Market, JSON,
// CSV, TSV, a binary bit matrix or a Graphviz DOT drawing (docs/formats.md), plain or
// gzip-compressed, through an AtomicFile; and the exact size of a closure in each, for the
// --max-output guard.
#pragma once

#include <cstdint>
#include <functional>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "closure/algorithms/closure.hpp"
#include "closure/graph/graph.hpp"
#include "closure/graph/tool_file_magic.hpp"

namespace closure {

class ByteSink;

enum class OutputFormat {
  kEdges,
  kMatrixMarket,
  kJson,
  kBinary,
  kCsv,  // "source,target" then "u,v" rows, labels quoted as CSV needs (pandas reads it)
  kTsv,  // the same with tabs
  // networkx's node-link JSON (nx.node_link_graph reads it): "nodes" then "links"; labels
  // as JSON numbers when every one is a decimal integer, else as strings. Under a .json
  // name only when asked for (--output-format node-link): .json alone is the tool's JSON.
  kNodeLink,
};

// The one table of output format names: what --output-format accepts, what help texts
// list, and the extension that implies each format ("" = none; edges is the default).
struct OutputFormatInfo {
  OutputFormat format;
  std::string_view name;       // canonical name
  std::string_view alias;      // also accepted ("" = none)
  std::string_view extension;  // a path ending in it is written in this format
};
const std::vector<OutputFormatInfo>& output_formats();
std::vector<std::string> output_format_names();  // canonical names, in table order
std::string output_format_choices();             // the same as "edges, matrix-market, ..."
// A format's name or alias, in any case ("MTX"); throws UsageError listing the names.
OutputFormat parse_output_format(std::string_view name);
// The canonical name of an --output-format text (parse_output_format's rule; "dot" too where
// `dot_allowed`), which the options keep so that later rules read one spelling.
std::string canonical_output_spec_name(std::string_view text, bool dot_allowed);
std::string_view output_format_name(OutputFormat f);

// A closure output: its format and whether it is gzip-compressed.
struct OutputSpec {
  OutputFormat format = OutputFormat::kEdges;
  bool gzip = false;
  // A Graphviz DOT drawing of the pairs (.dot, .gv; `format` is then unused). Not an
  // OutputFormat: those are the data formats every command writes, batch included, and a
  // drawing of a whole closure is for small graphs only.
  bool dot = false;
};
// "dot" for a drawing, else the format's name (messages).
std::string_view output_spec_name(const OutputSpec& spec);
// The spec for `path`: .gz compresses, and the extension before it (.mtx, .json, .bin,
// .csv, .tsv; .dot and .gv draw) picks the format; any other extension is an edge list. `requested`
// (--output-format) overrides that for extensions that claim no format and is refused (UsageError)
// when the extension claims another. "-" and streams have no extension: requested or edges.
OutputSpec output_spec(const std::string& path, std::optional<OutputFormat> requested);
// -o's spec under an --output-format text ("" = none): output_spec's rule, plus "dot", which
// asks for a drawing under any name whose extension claims no data format. The one rule
// every command's -o follows.
OutputSpec requested_output_spec(const std::string& path, const std::string& format);
// What --output-format accepts: the data formats, then "dot"; and the same as "a | b | c".
std::vector<std::string> output_spec_names();
std::string output_spec_choices();
// Whether `path` names a Graphviz drawing: it ends in .dot or .gv, case aside, perhaps with
// .gz after it (then *gzip is set). "-" names none.
bool names_dot_output(const std::string& path, bool* gzip = nullptr);

// The exact number of bytes write_closure writes for `f`, before compression: the writer's
// own pieces of each vertex written once into a CountingSink, weighted by its pair counts.
// Costs one pass over the component-level closure (no vertex pairs are expanded).
uint64_t output_bytes(const Graph& g, const Closure& c, OutputFormat f, bool reflexive);
// A cheap lower bound of output_bytes (from the pair count and the shortest label): when
// it already exceeds a limit, the exact count is not needed to refuse.
uint64_t output_bytes_lower_bound(const Graph& g, const Closure& c, OutputFormat f, bool reflexive);
// The same for any spec (a DOT drawing too).
uint64_t output_bytes(const Graph& g, const Closure& c, const OutputSpec& spec, bool reflexive);
uint64_t output_bytes_lower_bound(const Graph& g, const Closure& c, const OutputSpec& spec,
                                  bool reflexive);

// Called now and then while writing with the share of vertices written (0..1).
using WriteProgress = std::function<void(double)>;

// The pairs a writer writes, source by source: a closure's (ClosureRows) or an edge list's
// (EdgeRows, e.g. a transitive reduction). Every format has one encoder, written against
// this, so `run`, `reduce`, batch and Python's savers write the same bytes for the same
// pairs and labels.
class PairRows {
 public:
  virtual ~PairRows() = default;
  virtual size_t vertex_count() const = 0;
  virtual uint64_t pair_count() const = 0;
  // Called once before row() is called from several threads.
  virtual void prepare() const {}
  // Row u's targets, ascending.
  virtual void row(vertex_t u, std::vector<vertex_t>& out) const = 0;
  // Sets the bits of row u's targets in `bits` (zeroed, words_for_bits(n) words).
  virtual void set_row_bits(vertex_t u, uint32_t* bits) const;
  // What the pairs are ("closure", "reduction"): Matrix Market's comment, DOT's graph name.
  virtual std::string_view what() const = 0;
  // Whether every (v,v) is among the pairs by definition (JSON's "reflexive").
  virtual bool reflexive() const { return false; }
};

// A closure's pairs (with every (v,v) when `reflexive`).
class ClosureRows final : public PairRows {
 public:
  ClosureRows(const Closure& c, bool reflexive) : c_(c), reflexive_(reflexive) {}
  size_t vertex_count() const override { return c_.vertex_count(); }
  uint64_t pair_count() const override { return c_.pair_count(reflexive_); }
  void prepare() const override { c_.prepare_rows(); }
  void row(vertex_t u, std::vector<vertex_t>& out) const override;
  void set_row_bits(vertex_t u, uint32_t* bits) const override;
  std::string_view what() const override { return "closure"; }
  bool reflexive() const override { return reflexive_; }

 private:
  const Closure& c_;
  bool reflexive_;
};

// The pairs of an edge list over vertices 0..n-1 (any order; duplicates written once).
class EdgeRows final : public PairRows {
 public:
  EdgeRows(size_t n, std::span<const Edge> edges, std::string what);
  size_t vertex_count() const override { return offsets_.size() - 1; }
  uint64_t pair_count() const override { return targets_.size(); }
  void row(vertex_t u, std::vector<vertex_t>& out) const override;
  std::string_view what() const override { return what_; }

 private:
  std::vector<uint64_t> offsets_;
  std::vector<vertex_t> targets_;
  std::string what_;
};

// Writes `rows` to `path` in `spec`'s format (AtomicFile: "-" = standard output, streams
// written directly, files replaced atomically), labels escaped as each format needs
// (docs/formats.md); a label the format cannot hold is refused (UsageError) before anything
// is opened. Returns the bytes written (after compression).
// `within`: a name the command owns in that folder (io/atomic_file.hpp; batch's --out).
uint64_t write_pairs(const std::string& path, const Graph& g, const PairRows& rows,
                     const OutputSpec& spec, const WriteProgress& progress = {},
                     const std::string& within = "");
// The same encoders into any sink (spec.gzip is the caller's: `sink` gets the plain text).
void write_pairs(ByteSink& sink, const Graph& g, const PairRows& rows, const OutputSpec& spec,
                 const WriteProgress& progress = {});

// Writes the closure to `path` (AtomicFile: "-" = standard output, streams written
// directly, files replaced atomically). Returns the bytes written (after compression).
uint64_t write_closure(const std::string& path, const Graph& g, const Closure& c, OutputSpec spec,
                       bool reflexive, const WriteProgress& progress = {},
                       const std::string& within = "");
inline uint64_t write_closure(const std::string& path, const Graph& g, const Closure& c,
                              OutputFormat f, bool reflexive, const WriteProgress& progress = {}) {
  return write_closure(path, g, c, OutputSpec{f, false}, reflexive, progress);
}

// The binary format's magic, first 8 bytes of the file (graph/tool_file_magic.hpp, by which
// the readers name a binary closure given to them as a graph).
inline constexpr const char (&kBinaryMagic)[8] = kBinaryClosureMagic;

}  // namespace closure
