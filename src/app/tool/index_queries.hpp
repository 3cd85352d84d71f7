// `closure query` answers from a reachability index: the same lines as from a closure.
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "app/tool/reachability_queries.hpp"
#include "closure/reach/living_index.hpp"
#include "closure/reach/reach_index.hpp"

namespace closure::reach {

// How one question was decided (the service's answers and the lines below alike).
enum class PairVerdict : uint8_t { kNo, kYes, kUnknownFirst, kUnknownSecond };

class IndexQueries {
 public:
  // Valid while `index` does not change (a snapshot of the service, query's loaded file).
  IndexQueries(const LivingIndex& index, bool reflexive)
      : index_(&index),
        names_(index.base().names()),
        querier_(index),
        reflexive_(reflexive),
        layered_(!index.layer().empty()) {}
  // The verdict of every question, with lookups and queries pipelined as answer_many's.
  std::vector<PairVerdict> decide_many(
      const std::vector<std::pair<std::string, std::string>>& questions);
  std::vector<PairVerdict> decide_many(
      const std::vector<std::pair<std::string_view, std::string_view>>& questions);
  // A label that names no vertex, for decide_ids().
  static constexpr vertex_t kUnknown = ~vertex_t{0};
  // Whether every vertex is called by its id in decimal and nothing is appended: a caller
  // that reads its labels itself may then take canonical decimals below vertex_count() as
  // the ids (ReachIndex::find's rule) and decide them with decide_ids().
  bool numbered() const { return index_->base().view().identity_labels && !layered_; }
  uint64_t vertex_count() const { return index_->base().view().vertices; }
  // The verdicts of pairs already looked up (kUnknown for a label that names no vertex),
  // into out[0, n): decide_many() without its lookups.
  void decide_ids(const vertex_t* us, const vertex_t* vs, size_t n, PairVerdict* out);
  // "u v yes", "u v no" or "u v unknown vertex 'x'", as ReachabilityIndex::answer.
  QueryAnswer answer(std::string_view u, std::string_view v);
  // The same answers for many questions; their name lookups and queries are pipelined (the
  // next questions' table slots and labels are requested while one is answered), which on
  // a large index is most of the time a question takes.
  std::vector<QueryAnswer> answer_many(
      const std::vector<std::pair<std::string, std::string>>& questions);
  // The base index's querier's counts: on a layered index only the questions the base
  // alone decided (layered() says which).
  const QueryStats& stats() const { return querier_.base().stats(); }
  bool layered() const { return layered_; }
  // Another IndexQueries over the same index, for another thread (a querier is one
  // thread's: it owns the search's scratch space).
  std::unique_ptr<IndexQueries> twin() const {
    return std::make_unique<IndexQueries>(*index_, reflexive_);
  }
  // Counts a twin's queries in stats(), as if this one had answered them.
  void absorb_stats(const IndexQueries& twin) { querier_.base().add_stats(twin.stats()); }
  LivingQuerier& querier() { return querier_; }
  // To another index over the same base (LivingQuerier::rebind); false if it differs.
  bool rebind(const LivingIndex& next) {
    if (!querier_.rebind(next)) return false;
    index_ = &next;
    layered_ = !next.layer().empty();
    return true;
  }

 private:
  template <class Questions>
  std::vector<PairVerdict> decide(const Questions& questions);
  const LivingIndex* index_;
  NameTable names_;
  LivingQuerier querier_;
  bool reflexive_, layered_;
  // Scratch kept from batch to batch: a batch's arrays are not fresh pages each time.
  std::vector<vertex_t> us_, vs_, qu_, qv_;
  std::vector<size_t> where_;
  std::vector<uint64_t> hashes_;
  std::unique_ptr<bool[]> yes_;
  size_t yes_size_ = 0;
};

}  // namespace closure::reach
