// Reading graphs from files: edge lists, GRAIL .gra, DIMACS, Matrix Market and DOT, plain or
// gzip-compressed, with format detection and InputError for every malformed input.
#pragma once

#include <cstddef>
#include <string>
#include <string_view>
#include <vector>

#include "closure/graph/graph.hpp"
#include "closure/graph/input_error.hpp"

namespace closure {

enum class InputFormat {
  kAuto,
  kEdgeList,
  kGra,
  kDimacs,
  kMatrixMarket,
  kDot,
  kAdjList,
  kCsv,  // comma-separated, as pandas writes it (header rule: read_delimited.cpp)
  kTsv,  // tab-separated with the same rule
};

// Accepts "auto", "edges", "gra", "dimacs", "mtx", "dot", "adjlist", "csv", "tsv"
// (case-insensitive; also the
// aliases "edgelist", "snap", "grail", "matrix-market", "mm", "gv", "graphviz",
// "adjacency-list"). adjlist is never detected: only named. Throws UsageError listing the
// valid names.
InputFormat parse_input_format(std::string_view name);

// Whether the first data row is a header: guessed (docs/formats.md, "Header rows"), or said.
enum class HeaderRow { kGuess, kPresent, kAbsent };

// How to read a graph: its format (kAuto: from the name and content) and, for delimited
// text and edge lists, what detection would otherwise guess. A format alone converts to it.
struct ReadOptions {
  InputFormat format = InputFormat::kAuto;
  HeaderRow header = HeaderRow::kGuess;  // CSV, TSV, --delimiter and edge lists only
  char delimiter = 0;  // 0: the format's own; else delimited text split on this byte
  ReadOptions() = default;
  ReadOptions(InputFormat f) : format(f) {}  // NOLINT(google-explicit-constructor)
};
// A delimiter as users write it: one printable byte other than a quote, a letter or a digit,
// or "tab" / "\t". Throws UsageError naming what is accepted.
char parse_delimiter(std::string_view text);
// Refuses (UsageError) a delimiter or header choice with a format that has no such thing
// (a delimiter with mtx, a header with gra, ...).
void check_read_options(const ReadOptions& options);
// The canonical names, "auto" first: what help texts and validation list.
std::vector<std::string> input_format_names();
// The canonical name parse_input_format accepts ("edges", "gra", ...).
std::string_view format_name(InputFormat format);
// The format a file is in: its extension first (a trailing .gz is looked through), then its
// content. Never returns kAuto; falls back to kEdgeList.
InputFormat detect_format(const std::string& path, std::string_view first_bytes);

// The first line of an edge list closure writes where its first edge alone would read as
// something else (another format, a header row, a CSV row): a comment that tells the reader
// to read every line as an edge, whatever it looks like (docs/formats.md, "Escapes").
inline constexpr std::string_view kEdgeListMarker =
    "# closure edge list: every line below is an edge";
// Whether `head`, the first bytes of an input, starts with kEdgeListMarker.
bool is_closure_edge_list(std::string_view head);
// Whether an edge list whose first line is "source target" (as written: escaped) needs the
// marker to read back as written; `numbers_below`: a label of another vertex is a number
// (edge_list_number()), so a first line of names may stand above lines of numbers only,
// which the reader guesses a header row.
bool edge_list_needs_marker(std::string_view source, std::string_view target, bool numbers_below);
// Whether an edge list's reader takes `label` for a number: canonical unsigned decimal (no
// sign, no leading zero but "0") below 2^64.
bool edge_list_number(std::string_view label);

// Vertex counts beyond this are refused: a header such as `p sp 4000000000 1` must not make the
// reader allocate gigabytes, and no closure method can handle so many vertices anyway (the
// dense closure alone would need n*n/8 bytes).
inline constexpr size_t kMaxVertices = size_t{1} << 27;
// The message every reader gives past that count.
inline std::string too_many_vertices() {
  return "more than " + std::to_string(kMaxVertices) + " distinct vertices";
}

struct ReadResult {
  Graph graph;
  InputFormat format = InputFormat::kAuto;  // the format actually read, never kAuto
  // Edge records as the file wrote them, before duplicates collapse (an undirected DOT edge or
  // a symmetric Matrix Market entry counts once). The GRAIL table's m counts these.
  size_t edge_records = 0;
};

// Reads `path` ("-" = standard input). Throws InputError naming the file and line.
ReadResult read_graph(const std::string& path, const ReadOptions& options = {});
// The same from an input already opened (closure/graph/line_source.hpp), e.g. one whose
// first bytes a command peeked at to tell an index from a graph.
class LineSource;
ReadResult read_graph(LineSource& source, const ReadOptions& options = {});
// The same over text in memory; `name` stands for the file in messages and, with kAuto, its
// extension takes part in detection.
ReadResult read_graph_from_string(std::string_view text, const ReadOptions& options,
                                  const std::string& name = "<string>");

}  // namespace closure
