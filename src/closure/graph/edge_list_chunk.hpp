// Internal to the edge-list reader: one block of whole lines parsed on its own (by any thread),
// into local label ids and what the checks that need the whole file must know about it.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "closure/errors.hpp"
#include "closure/graph/graph.hpp"
#include "closure/graph/label_map.hpp"
#include "closure/util/work_meter.hpp"

namespace closure::detail {

// What the file's leading comments declare (KONECT's "% sym unweighted", SNAP's
// "# Undirected graph").
struct EdgeListDeclarations {
  bool undirected = false;
  bool columns_declared = false;  // KONECT names its weight and timestamp columns
};

// Extra columns that are attributes, never a vertex of an adjacency list.
enum : uint8_t {
  kDictColumn = 1,      // networkx's attribute dict
  kFractionColumn = 2,  // a number that is not an unsigned integer: 0.5, -1, 1e3 (a weight)
};

struct EdgeListChunk {
  // Parses `text` (whole lines). Never throws InputError: the first problem is recorded with
  // its line (1-based within the chunk) and parsing stops there.
  void parse(std::string_view text, const EdgeListDeclarations& declared);
  WorkMeter* meter = nullptr;  // parse() adds the bytes it has read, every 16384 lines

  // Until the first label that is not a canonical number, a chunk only collects the numbers
  // (`raw`): the reader then numbers all chunks at once through a flat table when the values
  // are small, instead of hashing every label (random probes into a big table were most of
  // the time of an integer edge list). to_labels() turns the numbers into `labels`/`edges`.
  bool to_labels();  // false when more than kMaxVertices distinct labels
  bool raw = true;
  // raw: source, target, source, target, ... Numbers of 2^32 and more end raw mode (they are
  // numbered by hashing): 32-bit values halve the memory the largest array needs.
  std::vector<uint32_t> values;
  uint64_t max_value = 0;

  size_t lines = 0;             // lines seen (all of them unless `error_line`)
  size_t records = 0;           // edge lines
  size_t loops = 0;             // of which self-loops
  LabelMap labels{true, true};  // names are views of the parsed text
  std::vector<Edge> edges;      // over local ids (labels' ids)

  size_t error_line = 0;  // 0 = none
  std::string error;
  Advice error_advice = Advice::kNone;

  // Column shape: the first data line's column count, and the first line that differs.
  size_t first_data_line = 0, first_columns = 0;
  size_t shape_line = 0, shape_columns = 0;
  // What those lines' extra columns hold (kDictColumn, kFractionColumn): then the columns
  // differ by attributes, not by successors, and the adjacency-list hint would misread.
  uint8_t first_attributes = 0, shape_attributes = 0;
  // The first two lines holding a label that is not a canonical unsigned number.
  size_t name_lines[2] = {0, 0};
  // The first data line's two labels (for the header-row check).
  std::string first_source, first_target;
};

// How the edge-list reader cuts an input in memory: chunks of at least `min_chunk_bytes`,
// one per thread of `threads` (0 = the thread budget). Tests and the
// fuzzer set tiny chunks to check that any cut gives the same graph and the same errors;
// without `use_threads` the chunks are parsed one after another (the fuzzer: thousands of
// inputs a second instead of tens).
void set_edge_list_chunking(size_t min_chunk_bytes, size_t threads, bool use_threads = true);

}  // namespace closure::detail
