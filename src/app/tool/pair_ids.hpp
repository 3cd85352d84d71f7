// `closure query IDX --pairs FILE --pairs-format u32`: questions as binary vertex numbers,
// answers as one byte each, so that a batch pays neither for parsing labels nor for
// printing lines (docs/formats.md, "Binary pairs"). A pair is two little-endian unsigned
// 32-bit numbers, u then v (8 bytes; numpy's '<u4'); its answer is the byte of its
// PairVerdict: 0 no, 1 yes, 2 u names no vertex, 3 v names none. Answered from a numbered
// index (IndexQueries::numbered(): the vertices are called 0..n-1), read and answered in
// blocks as pair_lines.hpp's lines are, large blocks in pieces on threads.
#pragma once

#include <ostream>
#include <string>

#include "app/tool/index_queries.hpp"
#include "app/tool/reachability_queries.hpp"

namespace closure::reach {

// Answers the pairs read from `fd` (not closed here) until its end into `out`; `name` names
// it in messages. Throws UsageError when the index's vertices have names, InputError when a
// file's size is not a whole number of pairs (before any answer) or a pipe ends within a
// pair (after the answers of the whole ones). A pipe's answers go out as its pairs come.
QueryBatchStats answer_pair_ids(IndexQueries& queries, int fd, const std::string& name,
                                std::ostream& out);

}  // namespace closure::reach
