// Label lookup and answer lines for queries on an index.
#include "app/tool/index_queries.hpp"

#include <cstring>
#include <memory>
#include <optional>

namespace closure::reach {

QueryAnswer IndexQueries::answer(std::string_view u, std::string_view v) {
  const auto iu = index_->find(u);
  if (!iu) return unknown_answer(u, v, u);
  const auto iv = index_->find(v);
  if (!iv) return unknown_answer(u, v, v);
  return decided_answer(u, v, (reflexive_ && *iu == *iv) || querier_.reaches(*iu, *iv));
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
  // Vertex ids of both ends, or kUnknown. With names, each lookup is a chain of three
  // misses (table slot, the name's offsets, its bytes); they are requested 12, 8 and 4
  // questions ahead, each stage once the one before has arrived.
  us_.resize(n);
  vs_.resize(n);
  if (names_.slots && !layered_) {
    std::vector<uint64_t>& hashes = hashes_;  // both ends' hashes, interleaved
    hashes.resize(2 * n);
    for (size_t i = 0; i < n; ++i) {
      hashes[2 * i] = names_.hash(questions[i].first);
      hashes[2 * i + 1] = names_.hash(questions[i].second);
    }
    for (size_t i = 0; i < n; ++i) {
      if (i + 12 < n) {
        __builtin_prefetch(names_.first_slot(hashes[2 * i + 24]));
        __builtin_prefetch(names_.first_slot(hashes[2 * i + 25]));
      }
      if (i + 8 < n) {
        names_.prefetch_offsets(hashes[2 * i + 16]);
        names_.prefetch_offsets(hashes[2 * i + 17]);
      }
      if (i + 4 < n) {
        names_.prefetch_name(hashes[2 * i + 8]);
        names_.prefetch_name(hashes[2 * i + 9]);
      }
      us_[i] = names_.find(questions[i].first, hashes[2 * i]).value_or(kUnknown);
      vs_[i] = names_.find(questions[i].second, hashes[2 * i + 1]).value_or(kUnknown);
    }
  } else {
    for (size_t i = 0; i < n; ++i) {
      us_[i] = index_->find(questions[i].first).value_or(kUnknown);
      vs_[i] = index_->find(questions[i].second).value_or(kUnknown);
    }
  }
  decide_ids(us_.data(), vs_.data(), n, out.data());
  return out;
}

void IndexQueries::decide_ids(const vertex_t* us, const vertex_t* vs, size_t n, PairVerdict* out) {
  if (n == 0) return;  // (out may be null: an empty batch's data)
  if (yes_size_ < n) {
    yes_size_ = n;
    yes_.reset(new bool[yes_size_]);
  }
  // Most batches name only known vertices, and no pair of one vertex where that is decided
  // here: the querier takes them as they are, with no gathering and scattering (3 vector
  // appends and a scattered store a pair were a fifth of `query --pairs` on a numbered index).
  const unsigned same_counts = reflexive_ ? 1u : 0u;
  unsigned aside = 0;  // the ors of unsigned tests vectorise, where a bool's && did not
  for (size_t i = 0; i < n; ++i)
    aside |= unsigned(us[i] == kUnknown) | unsigned(vs[i] == kUnknown) |
             (unsigned(us[i] == vs[i]) & same_counts);
  if (aside == 0) {
    querier_.reaches_many(us, vs, n, yes_.get());
    // kNo and kYes are false's and true's bytes.
    static_assert(uint8_t(PairVerdict::kNo) == 0 && uint8_t(PairVerdict::kYes) == 1);
    std::memcpy(out, yes_.get(), n);
    return;
  }
  // Else the known pairs go to the querier as one batch.
  qu_.clear();
  qv_.clear();
  where_.clear();
  for (size_t i = 0; i < n; ++i) {
    if (us[i] == kUnknown) {
      out[i] = PairVerdict::kUnknownFirst;
    } else if (vs[i] == kUnknown) {
      out[i] = PairVerdict::kUnknownSecond;
    } else if (reflexive_ && us[i] == vs[i]) {
      out[i] = PairVerdict::kYes;
    } else {
      qu_.push_back(us[i]);
      qv_.push_back(vs[i]);
      where_.push_back(i);
    }
  }
  querier_.reaches_many(qu_.data(), qv_.data(), where_.size(), yes_.get());
  for (size_t k = 0; k < where_.size(); ++k)
    out[where_[k]] = yes_[k] ? PairVerdict::kYes : PairVerdict::kNo;
}

std::vector<QueryAnswer> IndexQueries::answer_many(
    const std::vector<std::pair<std::string, std::string>>& questions) {
  const std::vector<PairVerdict> verdicts = decide_many(questions);
  std::vector<QueryAnswer> out(questions.size());
  for (size_t i = 0; i < questions.size(); ++i) {
    const auto& [u, v] = questions[i];
    switch (verdicts[i]) {
      case PairVerdict::kUnknownFirst:
        out[i] = unknown_answer(u, v, u);
        break;
      case PairVerdict::kUnknownSecond:
        out[i] = unknown_answer(u, v, v);
        break;
      default:
        out[i] = decided_answer(u, v, verdicts[i] == PairVerdict::kYes);
    }
  }
  return out;
}

}  // namespace closure::reach
