// Label lookup and answer lines for queries on an index.
#include "app/tool/index_queries.hpp"

#include <memory>
#include <optional>

namespace closure::reach {
namespace {

QueryAnswer unknown(std::string_view u, std::string_view v, std::string_view which) {
  std::string text;
  text.reserve(u.size() + v.size() + which.size() + 20);
  text.append(u).append(" ").append(v).append(" unknown vertex '").append(which).append("'");
  return {QueryAnswer::kUnknownLabel, std::move(text)};
}

QueryAnswer decided(std::string_view u, std::string_view v, bool yes) {
  std::string text;
  text.reserve(u.size() + v.size() + 5);
  text.append(u).append(" ").append(v).append(yes ? " yes" : " no");
  return {yes ? QueryAnswer::kReachable : QueryAnswer::kUnreachable, std::move(text)};
}

}  // namespace

QueryAnswer IndexQueries::answer(std::string_view u, std::string_view v) {
  const auto iu = index_->find(u);
  if (!iu) return unknown(u, v, u);
  const auto iv = index_->find(v);
  if (!iv) return unknown(u, v, v);
  return decided(u, v, (reflexive_ && *iu == *iv) || querier_.reaches(*iu, *iv));
}

std::vector<PairVerdict> IndexQueries::decide_many(
    const std::vector<std::pair<std::string, std::string>>& questions) {
  return decide(questions);
}

std::vector<PairVerdict> IndexQueries::decide_many(
    const std::vector<std::pair<std::string_view, std::string_view>>& questions) {
  return decide(questions);
}

template <class Questions>
std::vector<PairVerdict> IndexQueries::decide(const Questions& questions) {
  const size_t n = questions.size();
  std::vector<PairVerdict> out(n);
  // Vertex ids of both ends, or kNone for an unknown label. With names, each lookup is a
  // chain of three misses (table slot, the name's offsets, its bytes); they are requested
  // 12, 8 and 4 questions ahead, each stage once the one before has arrived.
  constexpr vertex_t kNone = ~vertex_t{0};
  std::vector<vertex_t> us(n), vs(n);
  if (names_.slots && !layered_) {
    std::vector<uint64_t> hu(n), hv(n);
    for (size_t i = 0; i < n; ++i) {
      hu[i] = names_.hash(questions[i].first);
      hv[i] = names_.hash(questions[i].second);
    }
    for (size_t i = 0; i < n; ++i) {
      if (i + 12 < n) {
        __builtin_prefetch(names_.first_slot(hu[i + 12]));
        __builtin_prefetch(names_.first_slot(hv[i + 12]));
      }
      if (i + 8 < n) {
        names_.prefetch_offsets(hu[i + 8]);
        names_.prefetch_offsets(hv[i + 8]);
      }
      if (i + 4 < n) {
        names_.prefetch_name(hu[i + 4]);
        names_.prefetch_name(hv[i + 4]);
      }
      us[i] = names_.find(questions[i].first, hu[i]).value_or(kNone);
      vs[i] = names_.find(questions[i].second, hv[i]).value_or(kNone);
    }
  } else {
    for (size_t i = 0; i < n; ++i) {
      us[i] = index_->find(questions[i].first).value_or(kNone);
      vs[i] = index_->find(questions[i].second).value_or(kNone);
    }
  }
  // The known pairs go to the querier as one batch.
  std::vector<vertex_t> qu, qv;
  std::vector<size_t> where;
  for (size_t i = 0; i < n; ++i) {
    if (us[i] == kNone) {
      out[i] = PairVerdict::kUnknownFirst;
    } else if (vs[i] == kNone) {
      out[i] = PairVerdict::kUnknownSecond;
    } else if (reflexive_ && us[i] == vs[i]) {
      out[i] = PairVerdict::kYes;
    } else {
      qu.push_back(us[i]);
      qv.push_back(vs[i]);
      where.push_back(i);
    }
  }
  const std::unique_ptr<bool[]> yes(new bool[where.size()]);
  querier_.reaches_many(qu.data(), qv.data(), where.size(), yes.get());
  for (size_t k = 0; k < where.size(); ++k)
    out[where[k]] = yes[k] ? PairVerdict::kYes : PairVerdict::kNo;
  return out;
}

std::vector<QueryAnswer> IndexQueries::answer_many(
    const std::vector<std::pair<std::string, std::string>>& questions) {
  const std::vector<PairVerdict> verdicts = decide_many(questions);
  std::vector<QueryAnswer> out(questions.size());
  for (size_t i = 0; i < questions.size(); ++i) {
    const auto& [u, v] = questions[i];
    switch (verdicts[i]) {
      case PairVerdict::kUnknownFirst:
        out[i] = unknown(u, v, u);
        break;
      case PairVerdict::kUnknownSecond:
        out[i] = unknown(u, v, v);
        break;
      default:
        out[i] = decided(u, v, verdicts[i] == PairVerdict::kYes);
    }
  }
  return out;
}

}  // namespace closure::reach
