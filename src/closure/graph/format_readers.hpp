// Internal: one reader per input format, each consuming a LineSource positioned at the start.
#pragma once

#include "closure/graph/line_source.hpp"
#include "closure/graph/read_graph.hpp"

namespace closure::detail {

ReadResult read_edge_list(LineSource& src);
ReadResult read_gra(LineSource& src);
ReadResult read_dimacs(LineSource& src);
ReadResult read_matrix_market(LineSource& src);
ReadResult read_dot(LineSource& src);

// A declared vertex count, checked against kMaxVertices; `what` names the field in messages.
size_t checked_vertex_count(LineSource& src, std::string_view token, std::string_view what);

}  // namespace closure::detail
