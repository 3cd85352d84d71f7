// Label lookup and per-line answers for `closure query`.
#include "closure/tool/reachability_queries.hpp"

#include <sstream>

namespace closure {

ReachabilityIndex::ReachabilityIndex(const Graph& g, const Closure& c, bool reflexive)
    : closure_(c), reflexive_(reflexive) {
  id_of_.reserve(g.vertex_count());
  for (vertex_t v = 0; v < g.vertex_count(); ++v) id_of_.emplace(g.label(v), v);
}

QueryAnswer ReachabilityIndex::answer(std::string_view u, std::string_view v) const {
  const std::string prefix = std::string(u) + " " + std::string(v) + " ";
  const auto iu = id_of_.find(std::string(u));
  if (iu == id_of_.end())
    return {QueryAnswer::kUnknownLabel, prefix + "unknown vertex '" + std::string(u) + "'"};
  const auto iv = id_of_.find(std::string(v));
  if (iv == id_of_.end())
    return {QueryAnswer::kUnknownLabel, prefix + "unknown vertex '" + std::string(v) + "'"};
  const bool yes =
      (reflexive_ && iu->second == iv->second) || closure_.reaches(iu->second, iv->second);
  return {yes ? QueryAnswer::kReachable : QueryAnswer::kUnreachable, prefix + (yes ? "yes" : "no")};
}

QueryBatchStats answer_pairs(const ReachabilityIndex& index, std::istream& in,
                             const std::string& name, std::ostream& out) {
  return answer_pairs([&](std::string_view u, std::string_view v) { return index.answer(u, v); },
                      in, name, out);
}

QueryBatchStats answer_pairs(const PairAnswerer& answer, std::istream& in, const std::string& name,
                             std::ostream& out) {
  QueryBatchStats stats;
  std::string line;
  size_t line_no = 0;
  while (std::getline(in, line)) {
    ++line_no;
    std::istringstream fields(line);
    std::string u, v, extra;
    if (!(fields >> u) || u[0] == '#') continue;
    if (!(fields >> v) || (fields >> extra && extra[0] != '#')) {
      out << name << ":" << line_no << ": expected two labels 'u v'\n";
      ++stats.malformed;
      continue;
    }
    const QueryAnswer a = answer(u, v);
    out << a.text << '\n';
    ++stats.answered;
    if (a.status == QueryAnswer::kReachable) ++stats.reachable;
    if (a.status == QueryAnswer::kUnknownLabel) ++stats.unknown;
  }
  return stats;
}

}  // namespace closure
