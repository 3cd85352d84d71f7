// Internal: one reader per input format, each consuming a LineSource positioned at the start.
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include "closure/graph/line_source.hpp"
#include "closure/graph/read_graph.hpp"

namespace closure::detail {

// `header`: kGuess refuses a first line that looks like one; kPresent skips it.
ReadResult read_edge_list(LineSource& src, HeaderRow header = HeaderRow::kGuess);
ReadResult read_gra(LineSource& src);
ReadResult read_dimacs(LineSource& src);
ReadResult read_matrix_market(LineSource& src);
ReadResult read_dot(LineSource& src);
ReadResult read_adjacency_list(LineSource& src);
// CSV (delimiter ',') or TSV ('\t') with pandas' header rule.
// A usual column title ("source", "target", "from", "node1", ...), case aside.
bool is_header_word(std::string_view w);
ReadResult read_delimited(LineSource& src, char delimiter, HeaderRow header = HeaderRow::kGuess);
// A delimited row's fields (quotes as CSV's, blanks around fields dropped); false, with
// `error`, on a quote that does not close.
bool split_fields(std::string_view line, char delimiter, std::vector<std::string>& fields,
                  std::string& error);
// A weight or timestamp column: any number std::from_chars reads (1, -2.5, 1e-3, inf).
bool is_column_number(std::string_view s);

// A declared vertex count, checked against kMaxVertices; `what` names the field in messages.
size_t checked_vertex_count(LineSource& src, std::string_view token, std::string_view what);

// Declared vertex counts (DIMACS p line, Matrix Market size line, GRAIL line 2) beyond
// kFreeDeclaredVertices plus one per input byte are refused (at `line`), whatever kMaxVertices
// says: a 22-byte `p sp 134217728 1` must not allocate gigabytes.
inline constexpr size_t kFreeDeclaredVertices = size_t{1} << 20;
void check_declared_vertices(const LineSource& src, size_t n, size_t line);
// How many records to reserve for a header that declares `declared`, each at least
// `min_record_bytes` long: never more than the file could hold.
size_t reserve_bound(const LineSource& src, size_t declared, size_t min_record_bytes);

}  // namespace closure::detail
