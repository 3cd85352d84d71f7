// Memory found early (row_estimate.hpp): a row's size is what sparse stores for it, checked
// row by row against the rows sparse made on random graphs with cycles and on commit
// histories; the sampled estimate is near the exact total. (The warning it gives a run:
// test_memory_hint.cpp.)
#include <gtest/gtest.h>

#include <algorithm>
#include <random>
#include <string>
#include <vector>

#include "bench/index_generators.hpp"
#include "closure/algorithms/host_closure.hpp"
#include "closure/algorithms/row_estimate.hpp"
#include "test_support.hpp"

namespace closure {
namespace {

using testing::random_cyclic_graph;

// Component c's reached components (sorted, c excluded) as its ragged row holds them.
std::vector<vertex_t> reach_of(const RaggedRow& r) {
  std::vector<vertex_t> out;
  for (vertex_t d = r.run_begin; d < r.run_end; ++d) out.push_back(d);
  for (vertex_t d : r.id_list()) out.push_back(d);
  for (uint32_t w = 0; w < r.word_count; ++w)
    for (int b = 0; b < 32; ++b)
      if (r.words[w] >> b & 1u) out.push_back(vertex_t((size_t(r.word_lo) + w) * 32 + b));
  std::sort(out.begin(), out.end());
  return out;
}

// Checks every row of g's sparse closure; returns the rows' stored words in all.
uint64_t check_every_row(const Graph& g, const std::string& what) {
  SccResult scc = strongly_connected_components(g);
  const CsrDag dag = condensation_csr(g, scc);
  const Closure closure = closure_sparse(std::move(scc), dag);
  const RaggedReach* ragged = closure.ragged_reach();
  if (!ragged) {
    ADD_FAILURE() << what << ": sparse made no ragged rows";
    return 0;
  }
  uint64_t total = 0;
  for (vertex_t c = 0; c < ragged->rows.size(); ++c) {
    const RaggedRow& r = ragged->rows[c];
    const size_t stored = r.id_count ? r.id_count : r.word_count;
    const std::vector<vertex_t> reach = reach_of(r);
    EXPECT_EQ(stored_row_words(c, reach), stored) << what << ", component " << c;
    // The same row sized from its bits (what the estimate's searches hold), c's own bit
    // set or not, and its scratch span the listed row's.
    std::vector<word_t> bits(words_for_bits(ragged->rows.size()) + 1, 0);
    for (const vertex_t d : reach) set_bit(bits.data(), d);
    const vertex_t last = reach.empty() ? c : reach.back();
    const RowSize sized =
        row_size_from_bits(c, bits.data(), ragged->rows.size(), reach.size(), last);
    EXPECT_EQ(sized.words, stored) << what << ", component " << c;
    set_bit(bits.data(), c);
    EXPECT_EQ(row_size_from_bits(c, bits.data(), ragged->rows.size(), reach.size(), last).words,
              stored)
        << what << ", component " << c << " (own bit set)";
    size_t run = 0;
    while (run < reach.size() && reach[run] == c + 1 + run) ++run;
    const size_t span = run < reach.size() ? word_of(reach.back()) + 1 - word_of(reach[run]) : 0;
    EXPECT_EQ(sized.span, span) << what << ", component " << c;
    // The count by columns' words: from c + 1's word to the last reached id's, the run
    // included (none where c reaches nothing).
    const size_t reach_words = reach.empty() ? 0 : word_of(reach.back()) + 1 - word_of(c + 1);
    EXPECT_EQ(sized.reach, reach_words) << what << ", component " << c;
    total += stored;
  }
  return total;
}

TEST(RowEstimate, ARowsSizeIsWhatSparseStores) {
  std::mt19937_64 rng(27);
  for (size_t n : {1, 2, 31, 32, 33, 65, 200, 700, 3000})
    for (int round = 0; round < 4; ++round)
      check_every_row(random_cyclic_graph(rng, n), "n=" + std::to_string(n));
  check_every_row(commit_history_dag(4001, 3), "history");
}

TEST(RowEstimate, TheSampledEstimateIsNearTheTotal) {
  std::mt19937_64 rng(5);
  const Graph g = random_cyclic_graph(rng, 3000);
  const double exact = double(check_every_row(g, "n=3000")) * sizeof(word_t);
  const SccResult scc = strongly_connected_components(g);
  const CsrDag dag = condensation_csr(g, scc);
  const RowEstimate e = estimate_row_bytes(dag, 2000, 1e6);
  EXPECT_EQ(e.samples, 2000u);
  EXPECT_EQ(e.cut, 0u);
  ASSERT_GT(exact, 0);
  EXPECT_NEAR(e.bytes / exact, 1.0, 0.1) << e.bytes << " against " << exact;
}

// The one pass (64-bit masks in id order) sizes every sampled row as the searches do: the
// same bytes and spans to the bit, on graphs with cycles, histories, chains and stars, with
// sources drawn twice (few components) and the last component among them.
TEST(RowEstimate, OnePassSizesTheRowsAsTheSearchesDo) {
  std::mt19937_64 rng(41);
  std::vector<std::pair<std::string, Graph>> graphs;
  for (size_t n : {1, 2, 3, 31, 33, 64, 65, 200, 1000, 3001})
    graphs.emplace_back("n=" + std::to_string(n), random_cyclic_graph(rng, n));
  graphs.emplace_back("history", commit_history_dag(5003, 2));
  std::vector<Edge> chain, star;
  for (vertex_t v = 0; v + 1 < 97; ++v) chain.emplace_back(v, v + 1);
  for (vertex_t v = 1; v < 97; ++v) star.emplace_back(0, v);
  graphs.emplace_back("chain", Graph(97, std::move(chain)));
  graphs.emplace_back("star", Graph(97, std::move(star)));
  for (const auto& [what, g] : graphs) {
    const SccResult scc = strongly_connected_components(g);
    const CsrDag dag = condensation_csr(g, scc);
    for (size_t samples : {1, 7, 64})
      for (uint64_t seed : {1, 2}) {
        const RowEstimate a = estimate_row_bytes(dag, samples, 1e6, seed, EstimatePath::kSearches);
        const RowEstimate b = estimate_row_bytes(dag, samples, 1e6, seed, EstimatePath::kOnePass);
        const RowEstimate c = estimate_row_bytes(dag, samples, 1e6, seed);
        EXPECT_EQ(a.cut, 0u) << what;
        EXPECT_EQ(a.samples, b.samples) << what;
        EXPECT_EQ(a.bytes, b.bytes) << what << ", " << samples << " samples, seed " << seed;
        EXPECT_EQ(a.span_words, b.span_words) << what << ", " << samples << " samples";
        EXPECT_EQ(a.reach_words, b.reach_words) << what << ", " << samples << " samples";
        EXPECT_EQ(a.bytes, c.bytes) << what << ", " << samples << " samples (chosen)";
      }
  }
}

TEST(RowEstimate, OutOfTimeTheSearchesStopAndStillAnswer) {
  // Rows of a quarter of a million components each: the searches are cut at their share of
  // no time at all, and what they reached still makes an estimate (never none).
  std::vector<Edge> edges;
  const vertex_t n = 250000;
  std::mt19937_64 rng(9);
  for (vertex_t v = 0; v + 1000 < n; ++v)
    for (int k = 0; k < 3; ++k) edges.emplace_back(v, v + 1 + vertex_t(rng() % 1000));
  const Graph g(n, std::move(edges));
  const SccResult scc = strongly_connected_components(g);
  const CsrDag dag = condensation_csr(g, scc);
  const RowEstimate e = estimate_row_bytes(dag, 8, 0.0);
  EXPECT_EQ(e.samples, 8u);
  EXPECT_GT(e.cut, 0u);
  EXPECT_GT(e.bytes, 0.0);
}

}  // namespace
}  // namespace closure
