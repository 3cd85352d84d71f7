// Writing a closure: edge list in the input's labels, Matrix Market, JSON, CSV, TSV, a binary
// bit matrix or a Graphviz DOT drawing (docs/formats.md), plain or gzip-compressed, through an
// AtomicFile; and the exact size of each, for the --max-output guard.
#pragma once

#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "closure/algorithms/closure.hpp"
#include "closure/graph/graph.hpp"

namespace closure {

enum class OutputFormat {
  kEdges,
  kMatrixMarket,
  kJson,
  kBinary,
  kCsv,  // "source,target" then "u,v" rows, labels quoted as CSV needs (pandas reads it)
  kTsv,  // the same with tabs
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
// Throws UsageError listing the names.
OutputFormat parse_output_format(std::string_view name);
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
// Whether `path` names a Graphviz drawing: it ends in .dot or .gv, case aside, perhaps with
// .gz after it (then *gzip is set). "-" names none.
bool names_dot_output(const std::string& path, bool* gzip = nullptr);

// The exact number of bytes write_closure writes for `f`, before compression. Costs one
// pass over the component-level closure (no vertex pairs are expanded).
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

// Writes the closure to `path` (AtomicFile: "-" = standard output, streams written
// directly, files replaced atomically). Returns the bytes written (after compression).
uint64_t write_closure(const std::string& path, const Graph& g, const Closure& c, OutputSpec spec,
                       bool reflexive, const WriteProgress& progress = {});
inline uint64_t write_closure(const std::string& path, const Graph& g, const Closure& c,
                              OutputFormat f, bool reflexive, const WriteProgress& progress = {}) {
  return write_closure(path, g, c, OutputSpec{f, false}, reflexive, progress);
}

// The binary format's magic, first 8 bytes of the file.
inline constexpr char kBinaryMagic[8] = {'C', 'L', 'O', 'S', 'B', 'I', 'T', '1'};

}  // namespace closure
