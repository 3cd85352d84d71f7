// `closure query` answers from a reachability index: the same lines as from a closure.
#pragma once

#include <string_view>

#include "closure/reach/reach_index.hpp"
#include "closure/tool/reachability_queries.hpp"

namespace closure::reach {

class IndexQueries {
 public:
  IndexQueries(const ReachIndex& index, bool reflexive)
      : index_(index), querier_(index), reflexive_(reflexive) {}
  // "u v yes", "u v no" or "u v unknown vertex 'x'", as ReachabilityIndex::answer.
  QueryAnswer answer(std::string_view u, std::string_view v);
  const QueryStats& stats() const { return querier_.stats(); }

 private:
  const ReachIndex& index_;
  Querier querier_;
  bool reflexive_;
};

}  // namespace closure::reach
