// `closure query` answers from a reachability index: the same lines as from a closure.
#pragma once

#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "closure/reach/reach_index.hpp"
#include "closure/tool/reachability_queries.hpp"

namespace closure::reach {

class IndexQueries {
 public:
  IndexQueries(const ReachIndex& index, bool reflexive)
      : index_(index), names_(index.names()), querier_(index), reflexive_(reflexive) {}
  // "u v yes", "u v no" or "u v unknown vertex 'x'", as ReachabilityIndex::answer.
  QueryAnswer answer(std::string_view u, std::string_view v);
  // The same answers for many questions; their name lookups and queries are pipelined (the
  // next questions' table slots and labels are requested while one is answered), which on
  // a large index is most of the time a question takes.
  std::vector<QueryAnswer> answer_many(
      const std::vector<std::pair<std::string, std::string>>& questions);
  const QueryStats& stats() const { return querier_.stats(); }

 private:
  const ReachIndex& index_;
  NameTable names_;
  Querier querier_;
  bool reflexive_;
};

}  // namespace closure::reach
