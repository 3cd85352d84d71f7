// Internal to the edge-list reader: one block of whole lines parsed on its own (by any thread),
// into local label ids and what the checks that need the whole file must know about it.
#pragma once

#include <cstddef>
#include <string>
#include <string_view>
#include <vector>

#include "closure/graph/graph.hpp"
#include "closure/graph/label_map.hpp"

namespace closure::detail {

// What the file's leading comments declare (KONECT's "% sym unweighted", SNAP's
// "# Undirected graph").
struct EdgeListDeclarations {
  bool undirected = false;
  bool columns_declared = false;  // KONECT names its weight and timestamp columns
};

struct EdgeListChunk {
  // Parses `text` (whole lines). Never throws InputError: the first problem is recorded with
  // its line (1-based within the chunk) and parsing stops there.
  void parse(std::string_view text, const EdgeListDeclarations& declared);

  size_t lines = 0;    // lines seen (all of them unless `error_line`)
  size_t records = 0;  // edge lines
  size_t loops = 0;    // of which self-loops
  LabelMap labels{true};
  std::vector<Edge> edges;  // over local ids (labels' ids)

  size_t error_line = 0;  // 0 = none
  std::string error;

  // Column shape: the first data line's column count, and the first line that differs.
  size_t first_data_line = 0, first_columns = 0;
  size_t shape_line = 0, shape_columns = 0;
  // The first two lines holding a label that is not a canonical unsigned number.
  size_t name_lines[2] = {0, 0};
  // The first data line's two labels (for the header-row check).
  std::string first_source, first_target;
};

}  // namespace closure::detail
