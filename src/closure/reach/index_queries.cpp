// Label lookup and answer lines for queries on an index.
#include "closure/reach/index_queries.hpp"

#include <string>

namespace closure::reach {

QueryAnswer IndexQueries::answer(std::string_view u, std::string_view v) {
  std::string prefix;
  prefix.reserve(u.size() + v.size() + 2);
  prefix.append(u).append(" ").append(v).append(" ");
  const auto iu = index_.find(u);
  if (!iu) return {QueryAnswer::kUnknownLabel, prefix + "unknown vertex '" + std::string(u) + "'"};
  const auto iv = index_.find(v);
  if (!iv) return {QueryAnswer::kUnknownLabel, prefix + "unknown vertex '" + std::string(v) + "'"};
  const bool yes = (reflexive_ && *iu == *iv) || querier_.reaches(*iu, *iv);
  return {yes ? QueryAnswer::kReachable : QueryAnswer::kUnreachable, prefix + (yes ? "yes" : "no")};
}

}  // namespace closure::reach
