// The distributed closure's pieces without MPI: the column split, the column-range
// propagation (every split of the columns, merged, equals the whole closure bit for bit),
// the slice message (hostile bytes refused), the device's word ranges, and the
// fail-together agreement over a stand-in communicator.
#include <gtest/gtest.h>

#include <climits>
#include <cstring>
#include <random>

#include "app/distributed/column_slices.hpp"
#include "app/distributed/panel_squaring.hpp"
#include "app/distributed/request_agreement.hpp"
#include "app/distributed/slice_message.hpp"
#include "closure/algorithms/host_closure.hpp"
#include "closure/engine/device_propagation.hpp"
#include "closure/errors.hpp"
#include "closure/kernels/tuning.hpp"
#include "closure/session/communicator.hpp"
#include "test_support.hpp"

namespace closure {
namespace {

struct Condensed {
  SccResult scc;
  CsrDag dag;
  std::vector<uint32_t> sizes;
};
Condensed condensed(const Graph& g) {
  Condensed c;
  c.scc = strongly_connected_components(g);
  c.dag = condensation_csr(g, c.scc);
  c.sizes.assign(c.scc.component_count(), 0);
  for (vertex_t x : c.scc.component_of) ++c.sizes[x];
  return c;
}

// Every part's slice placed into one matrix: what rank 0 assembles.
Closure merged(const Condensed& c, size_t parts, bool counted_pairs_match = true) {
  const size_t C = c.scc.component_count();
  BitMatrix reach(C, C, {}, WordOrder::kRowMajor);
  uint64_t cross = 0;
  for (const WordRange& r : partition_columns(c.dag, parts)) {
    const ColumnSlice s = propagate_columns(c.dag, c.sizes, r, true);
    const ColumnSlice counted = propagate_columns(c.dag, c.sizes, r, false);
    EXPECT_TRUE(counted.rows.empty());
    EXPECT_EQ(counted.cross_pairs, s.cross_pairs);
    cross += s.cross_pairs;
    place_slice(decode_slice(encode_slice(s), C, r), reach);
  }
  Closure out = Closure::from_dense(c.scc.component_of, c.scc.cyclic, std::move(reach));
  uint64_t within = 0;
  for (size_t k = 0; k < C; ++k)
    if (c.scc.cyclic[k]) within += uint64_t(c.sizes[k]) * c.sizes[k];
  if (counted_pairs_match) {
    EXPECT_EQ(cross + within, out.pair_count());
  }
  return out;
}

TEST(ColumnSlices, PartitionCoversEveryWordOnceInOrder) {
  std::mt19937_64 rng(3);
  for (size_t n : {0, 1, 31, 33, 100, 1000}) {
    const Condensed c = condensed(testing::random_cyclic_graph(rng, std::max<size_t>(n, 1)));
    const size_t W = words_for_bits(c.scc.component_count());
    for (size_t parts : {1, 2, 3, 4, 7, 64}) {
      const auto ranges = partition_columns(c.dag, parts);
      ASSERT_EQ(ranges.size(), parts);
      EXPECT_EQ(ranges.front().begin, 0u);
      EXPECT_EQ(ranges.back().end, W);
      for (size_t r = 1; r < parts; ++r) EXPECT_EQ(ranges[r].begin, ranges[r - 1].end);
      // Every part has a word while there are enough words.
      if (W >= parts) {
        for (const auto& r : ranges) EXPECT_GT(r.words(), 0u);
      }
    }
  }
}

TEST(ColumnSlices, PartitionBalancesTheWork) {
  // A random DAG: the right-hand words carry more reads, so the first part is wider.
  std::mt19937_64 rng(5);
  std::vector<Edge> edges;
  const size_t n = 32 * 200;
  std::uniform_int_distribution<vertex_t> pick(0, vertex_t(n - 1));
  for (size_t i = 0; i < 4 * n; ++i) {
    vertex_t u = pick(rng), v = pick(rng);
    if (u != v) edges.emplace_back(std::min(u, v), std::max(u, v));
  }
  const Condensed c = condensed(Graph(n, edges));
  const auto ranges = partition_columns(c.dag, 2);
  EXPECT_GT(ranges[0].words(), ranges[1].words());
}

TEST(ColumnSlices, MergedSlicesEqualTheClosureOnRandomCyclicGraphs) {
  std::mt19937_64 rng(20261130);
  int graphs = 0;
  for (int round = 0; round < 40; ++round)
    for (size_t n : {1, 2, 31, 32, 33, 64, 65, 97, 129, 300}) {
      const Graph g = testing::random_cyclic_graph(rng, n);
      const Closure expect = closure_sparse(g);
      const Condensed c = condensed(g);
      for (size_t parts : {1, 2, 3, 4}) {
        const Closure got = merged(c, parts);
        ASSERT_EQ(got.pair_count(), expect.pair_count()) << "n=" << n << " parts=" << parts;
        ASSERT_TRUE(got == expect) << "n=" << n << " parts=" << parts;
      }
      ++graphs;
    }
  EXPECT_GE(graphs, 400);
}

TEST(ColumnSlices, CountedInPiecesUnderATightBudget) {
  std::mt19937_64 rng(9);
  const Condensed c = condensed(testing::random_cyclic_graph(rng, 2000));
  const size_t W = words_for_bits(c.scc.component_count());
  const ColumnSlice whole = propagate_columns(c.dag, c.sizes, {0, uint32_t(W)}, true);
  // Room for about three word-columns: the range is counted three words at a time.
  MemoryBudget budget(c.scc.component_count() * 4 * 6, 0, "test");
  const ColumnSlice counted = propagate_columns(c.dag, c.sizes, {0, uint32_t(W)}, false, &budget);
  EXPECT_EQ(counted.cross_pairs, whole.cross_pairs);
  MemoryBudget small(c.scc.component_count() * 4 * 6, 0, "test");
  EXPECT_THROW(propagate_columns(c.dag, c.sizes, {0, uint32_t(W)}, true, &small), ResourceError);
}

TEST(ColumnSlices, HostileSliceMessagesAreRefused) {
  std::mt19937_64 rng(13);
  const Condensed c = condensed(testing::random_cyclic_graph(rng, 100));
  const size_t C = c.scc.component_count();
  const WordRange r = partition_columns(c.dag, 2)[1];
  const ColumnSlice s = propagate_columns(c.dag, c.sizes, r, true);
  const std::vector<uint8_t> good = encode_slice(s);
  EXPECT_NO_THROW(decode_slice(good, C, r));
  auto refused = [&](std::vector<uint8_t> bytes, size_t components, WordRange range) {
    EXPECT_THROW(decode_slice(bytes, components, range), InternalError);
  };
  refused({}, C, r);
  refused({good.begin(), good.begin() + 39}, C, r);  // a short header
  refused({good.begin(), good.end() - 1}, C, r);     // a truncated row
  auto longer = good;
  longer.push_back(0);
  refused(longer, C, r);  // trailing bytes
  auto magic = good;
  magic[0] ^= 1;
  refused(magic, C, r);
  refused(good, C + 1, r);                          // another component count
  refused(good, C, WordRange{r.begin, r.end + 1});  // another range
  auto huge = good;
  const uint64_t all_ones = ~uint64_t{0};  // a row count of 2^64 - 1
  std::memcpy(huge.data() + 32, &all_ones, sizeof all_ones);
  refused(huge, C, r);
  // A bit beyond the last component (C = 100: bits 100..127 of the last word are padding).
  ASSERT_EQ(r.end, words_for_bits(C));
  auto stray = good;
  stray.back() |= 0x80;
  refused(stray, C, r);
}

TEST(ColumnSlices, DeviceWordRangesEqualTheHostSlices) {
  CLOSURE_REQUIRE_DEVICE();
  std::mt19937_64 rng(17);
  for (size_t n : {33, 200, 1000}) {
    const Graph g = testing::random_cyclic_graph(rng, n);
    const Condensed c = condensed(g);
    for (const WordRange& r : partition_columns(c.dag, 3)) {
      if (r.words() == 0) continue;
      const ColumnSlice host = propagate_columns(c.dag, c.sizes, r, true);
      DevicePropagationOptions o;
      o.word_begin = r.begin;
      o.word_end = r.end;
      o.max_slice_words = 1 + n % 3;  // several device slices inside the range
      const Closure dev = closure_propagate_device(c.scc, c.dag, *testing::test_runtime(), o);
      EXPECT_EQ(dev.resident_reach()->cross_pairs(), host.cross_pairs) << "n=" << n;
      // Only the range's columns, as a rank sends them; then the whole rows.
      EXPECT_EQ(dev.resident_reach()->host_columns(r.begin, r.end).storage(), host.rows)
          << "n=" << n;
      const BitMatrix& rows = dev.resident_reach()->host_rows();
      for (size_t k = 0; k < c.scc.component_count(); ++k)
        for (size_t w = 0; w < r.words(); ++w)
          ASSERT_EQ(rows.row_ptr(k)[r.begin + w], host.rows[k * r.words() + w]) << "n=" << n;
      // Once downloaded, the columns come from the host copy, the same.
      EXPECT_EQ(dev.resident_reach()->host_columns(r.begin, r.end).storage(), host.rows)
          << "n=" << n;
    }
  }
}

// Ranks simulated in one process: each "rank" runs collectively() in turn against a
// shared table of who failed, so the agreement's outcome can be checked per rank.
class StandIn final : public Communicator {
 public:
  StandIn(int rank, int size, int first_failed, std::string told)
      : rank_(rank), size_(size), first_failed_(first_failed), told_(std::move(told)) {}
  int rank() const override { return rank_; }
  int size() const override { return size_; }
  int local_rank() const override { return rank_; }
  int local_size() const override { return size_; }
  uint64_t sum(uint64_t v) override { return v; }
  double max(double v) override { return v; }
  int min(int v) override { return std::min(v, first_failed_); }
  std::string broadcast(const std::string& text, int root) override {
    return rank_ == root ? text : told_;
  }
  void gather_to_root(std::span<const uint8_t>,
                      const std::function<void(int, std::span<const uint8_t>)>&) override {}

 private:
  int rank_, size_, first_failed_;
  std::string told_;
};

TEST(ColumnSlices, EveryRankFailsWithTheFailingRanksMessage) {
  // Rank 1 of 3 ran out of memory: rank 1 rethrows its own error, ranks 0 and 2 throw a
  // resource error naming rank 1 and its message.
  const std::string told = std::string(1, char('0' + int(ErrorKind::kResource))) + "no room";
  StandIn failing(1, 3, 1, told);
  EXPECT_THROW(collectively(failing, [] { throw std::bad_alloc(); }), std::bad_alloc);
  StandIn peer(0, 3, 1, told);
  try {
    collectively(peer, [] {});
    FAIL() << "the peer did not fail";
  } catch (const Error& e) {
    EXPECT_EQ(e.kind(), ErrorKind::kResource);
    EXPECT_STREQ(e.what(), "rank 1 of 3: no room");
  }
  StandIn fine(0, 3, INT_MAX, "");
  EXPECT_NO_THROW(collectively(fine, [] {}));
  // A garbled kind is an internal error, never a crash.
  StandIn garbled(2, 3, 0, "zzz");
  try {
    collectively(garbled, [] {});
  } catch (const Error& e) {
    EXPECT_EQ(e.kind(), ErrorKind::kInternal);
  }
}

TEST(ColumnSlices, PanelSquaringOnOneRankEqualsTheClosure) {
  // One rank holds every column: the rounds, the panel broadcast (to itself) and the
  // products run as on P ranks; the multi-rank runs are the mpirun tests.
  std::mt19937_64 rng(19);
  for (size_t n : {1, 33, 97, 300}) {
    const Graph g = testing::random_cyclic_graph(rng, n);
    const Closure expect = closure_sparse(g);
    const Condensed c = condensed(g);
    const size_t C = c.scc.component_count();
    StandIn one(0, 1, INT_MAX, "");
    const std::vector<WordRange> all{{0, uint32_t(words_for_bits(C))}};
    for (ocl::Runtime* rt : {static_cast<ocl::Runtime*>(nullptr), testing::test_runtime()}) {
      if (n == 1 && rt) continue;
      PanelSquaringStats stats;
      const ColumnSlice s =
          square_panels(one, c.dag, c.sizes, all, rt,
                        rt ? tuned_boolean_params(rt->device()) : BooleanParams{}, &stats);
      BitMatrix reach(C, C, {}, WordOrder::kRowMajor);
      place_slice(s, reach);
      const Closure got = Closure::from_dense(c.scc.component_of, c.scc.cyclic, std::move(reach));
      EXPECT_TRUE(got == expect) << "n=" << n << (rt ? " device" : " host");
      EXPECT_GE(stats.rounds, 1);
    }
  }
}

TEST(ColumnSlices, RanksAgreeOnTheRequestBeforeAnyCollective) {
  // Same request: nothing happens. Rank 1 given another -o: both ranks refuse with one
  // message naming rank 1's request and rank 0's (a usage error: exit 2 on every rank).
  StandIn same(1, 2, INT_MAX, "run output=a.txt");
  EXPECT_NO_THROW(agree_on_request(same, "run output=a.txt"));
  const std::string expected =
      "the 2 MPI ranks were not given the same command: rank 1 runs `run output=b.txt`, rank 0 "
      "`run output=a.txt`";
  StandIn differing(1, 2, 1, "run output=a.txt");  // rank 0's text reaches rank 1
  StandIn root(0, 2, 1, "run output=b.txt");       // rank 1's text reaches rank 0
  for (auto [comm, mine] : {std::pair<StandIn*, const char*>{&differing, "run output=b.txt"},
                            {&root, "run output=a.txt"}}) {
    try {
      agree_on_request(*comm, mine);
      FAIL() << "rank " << comm->rank() << " did not refuse";
    } catch (const UsageError& e) {
      EXPECT_NE(std::string(e.what()).find(expected), std::string::npos) << e.what();
    }
  }
}

}  // namespace
}  // namespace closure
