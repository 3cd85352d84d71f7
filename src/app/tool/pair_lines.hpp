// `closure query --pairs` on an index with plain answer lines, without per-line costs:
// the input is read in large blocks (or whatever a pipe holds), each line's labels are
// views into the block, a block's complete lines are looked up and answered in pipelined
// batches of a few thousand (IndexQueries::decide_many; on a numbered index the ids are
// read with the lines and decide_ids() answers), and the answers are written into one
// buffer per block. Lines and answers are those of answer_pairs() (reachability_queries.hpp).
#pragma once

#include <ostream>
#include <string>

#include "app/tool/index_queries.hpp"
#include "app/tool/reachability_queries.hpp"

namespace closure::reach {

// Answers the "u v" lines read from `fd` (not closed here) until its end; `name` names it
// in messages. A pipe's answers go out once the lines it held are answered, so a program
// that writes a line and waits gets its answer.
QueryBatchStats answer_pair_lines(IndexQueries& queries, int fd, const std::string& name,
                                  std::ostream& out);

}  // namespace closure::reach
