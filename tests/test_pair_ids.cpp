// `query --pairs --pairs-format u32` (pair_ids.hpp): binary pairs answered by one byte each,
// against the closure's answers of the same vertices, from files on any number of threads,
// from pipes that split pairs between writes, and hostile input (a torn last pair, a file
// that is no whole number of pairs, an index with names).
#include <gtest/gtest.h>
#include <unistd.h>

#include <cstdint>
#include <cstring>
#include <memory>
#include <random>
#include <sstream>
#include <string>
#include <thread>
#include <vector>

#include "app/tool/index_queries.hpp"
#include "app/tool/pair_ids.hpp"
#include "app/tool/reachability_queries.hpp"
#include "closure/algorithms/host_closure.hpp"
#include "closure/errors.hpp"
#include "closure/executor.hpp"
#include "closure/graph/input_error.hpp"

namespace closure::reach {
namespace {

// 1,237 vertices called by their numbers, 3,001 random edges (cycles among them), seed 37.
Graph numbered_graph() {
  std::mt19937_64 rng(37);
  std::vector<Edge> edges;
  for (int i = 0; i < 3001; ++i) edges.push_back({vertex_t(rng() % 1237), vertex_t(rng() % 1237)});
  return Graph(1237, std::move(edges));
}

// `count` pairs, little-endian, about 1 in 64 naming a vertex past the graph (either side),
// 1 in 64 a vertex with itself.
std::string random_pairs(size_t count, uint64_t seed) {
  std::mt19937_64 rng(seed);
  std::string bytes;
  for (size_t i = 0; i < count; ++i) {
    uint32_t p[2] = {uint32_t(rng() % 1237), uint32_t(rng() % 1237)};
    const uint64_t r = rng() % 64;
    if (r == 0) p[0] = 1237 + uint32_t(rng() % 5) * 1000000007u;
    if (r == 1) p[1] = 0xFFFFFFFFu;
    if (r == 2) p[1] = p[0];
    for (uint32_t x : p)
      for (int b = 0; b < 4; ++b) bytes += char((x >> (8 * b)) & 0xFF);
  }
  return bytes;
}

struct Answers {
  std::string bytes;
  QueryBatchStats stats;
};

// The reference: each whole pair asked of the closure by its labels (the decimal numbers).
Answers from_closure(const Graph& g, bool reflexive, const std::string& pairs) {
  const Closure c = closure_sparse(g);
  ReachabilityIndex index(g, c, reflexive);
  Answers a;
  for (size_t at = 0; at + 8 <= pairs.size(); at += 8) {
    uint32_t u, v;
    std::memcpy(&u, pairs.data() + at, 4);
    std::memcpy(&v, pairs.data() + at + 4, 4);
    const QueryAnswer q = index.answer(std::to_string(u), std::to_string(v));
    uint8_t b = q.status == QueryAnswer::kReachable ? 1 : 0;
    if (q.status == QueryAnswer::kUnknownLabel) b = u >= g.vertex_count() ? 2 : 3;
    a.bytes += char(b);
    ++a.stats.answered;
    a.stats.reachable += b == 1;
    a.stats.unknown += b >= 2;
  }
  return a;
}

// The pairs from a file of their own, at most `threads` threads; `written`, where given,
// keeps what was answered when the reader throws.
Answers by_file(IndexQueries& q, const std::string& pairs, unsigned threads,
                std::string* written = nullptr) {
  char path[] = "/tmp/closure-pair-ids-XXXXXX";
  const int fd = ::mkstemp(path);
  EXPECT_GE(fd, 0);
  EXPECT_EQ(::write(fd, pairs.data(), pairs.size()), ssize_t(pairs.size()));
  EXPECT_EQ(::lseek(fd, 0, SEEK_SET), 0);
  ::unlink(path);
  std::ostringstream out;
  Answers a;
  try {
    with_thread_budget(threads, [&] { a.stats = answer_pair_ids(q, fd, "pairs.u32", out); });
  } catch (...) {
    ::close(fd);
    if (written) *written = out.str();
    throw;
  }
  ::close(fd);
  a.bytes = out.str();
  return a;
}

// The pairs through a pipe a thread writes `chunk` bytes at a time; `out` keeps what was
// answered when the reader throws.
QueryBatchStats by_pipe(IndexQueries& q, const std::string& pairs, size_t chunk,
                        std::ostringstream& out) {
  int fds[2];
  EXPECT_EQ(::pipe(fds), 0);
  std::thread writer([&] {
    for (size_t at = 0; at < pairs.size(); at += chunk)
      if (::write(fds[1], pairs.data() + at, std::min(chunk, pairs.size() - at)) <= 0) break;
    ::close(fds[1]);
  });
  struct Join {
    std::thread& t;
    int fd;
    ~Join() {
      ::close(fd);  // a writer still writing gets EPIPE, not a wait
      t.join();
    }
  } join{writer, fds[0]};
  return answer_pair_ids(q, fds[0], "pairs.u32", out);
}

void expect_same(const Answers& got, const Answers& want, const std::string& what) {
  EXPECT_EQ(got.bytes.size(), want.bytes.size()) << what;
  EXPECT_TRUE(got.bytes == want.bytes) << what << ": the answer bytes differ";
  EXPECT_EQ(got.stats.answered, want.stats.answered) << what;
  EXPECT_EQ(got.stats.reachable, want.stats.reachable) << what;
  EXPECT_EQ(got.stats.unknown, want.stats.unknown) << what;
}

TEST(PairIds, FilesOnAnyThreadsAnswerAsTheClosure) {
  const Graph g = numbered_graph();
  const LivingIndex index(std::make_shared<const ReachIndex>(build_index(g)));
  // 100,003 pairs: past the pairs a read is cut into pieces for threads at, and not a
  // multiple of any piece count.
  const std::string pairs = random_pairs(100003, 1);
  for (bool reflexive : {false, true}) {
    IndexQueries q(index, reflexive);
    const Answers want = from_closure(g, reflexive, pairs);
    ASSERT_GT(want.stats.reachable, 1000u);
    ASSERT_GT(want.stats.unknown, 1000u);
    ASSERT_LT(want.stats.reachable, want.stats.answered - want.stats.unknown);
    uint64_t one_thread = 0;
    for (unsigned threads : {1u, 2u, 3u, 8u}) {
      const uint64_t before = q.stats().queries;
      expect_same(by_file(q, pairs, threads), want,
                  std::to_string(threads) + " threads, reflexive " + std::to_string(reflexive));
      // The twins' queries are counted in the caller's stats, as if it had answered them.
      const uint64_t queries = q.stats().queries - before;
      if (threads == 1) one_thread = queries;
      EXPECT_EQ(queries, one_thread) << threads << " threads";
      EXPECT_GT(queries, want.stats.answered / 2) << threads << " threads";
    }
  }
}

TEST(PairIds, PipesThatSplitPairsAnswerAsTheClosure) {
  const Graph g = numbered_graph();
  const LivingIndex index(std::make_shared<const ReachIndex>(build_index(g)));
  IndexQueries q(index, false);
  const std::string pairs = random_pairs(20011, 2);
  const Answers want = from_closure(g, false, pairs);
  for (size_t chunk : {size_t{1}, size_t{3}, size_t{4093}, size_t{1} << 20}) {
    std::ostringstream out;
    const Answers got{"", by_pipe(q, pairs, chunk, out)};
    expect_same(Answers{out.str(), got.stats}, want, std::to_string(chunk) + " bytes a write");
  }
  std::ostringstream none;
  EXPECT_EQ(by_pipe(q, "", 1, none).answered, 0u);
  EXPECT_TRUE(none.str().empty());
}

TEST(PairIds, ATornLastPairIsAnErrorAfterTheWholeOnesAnswers) {
  const Graph g = numbered_graph();
  const LivingIndex index(std::make_shared<const ReachIndex>(build_index(g)));
  IndexQueries q(index, false);
  const std::string pairs = random_pairs(5000, 3);
  const Answers want = from_closure(g, false, pairs);
  for (size_t extra : {1, 4, 7}) {
    // From a pipe: the whole pairs' answers, then the error naming the bytes left.
    std::ostringstream out;
    try {
      by_pipe(q, pairs + std::string(extra, '\x01'), 777, out);
      ADD_FAILURE() << extra << " bytes past the pairs were not refused";
    } catch (const InputError& e) {
      EXPECT_NE(std::string(e.what()).find("ends with " + std::to_string(extra) + " byte"),
                std::string::npos)
          << e.what();
      EXPECT_NE(std::string(e.what()).find("pairs.u32"), std::string::npos) << e.what();
    }
    EXPECT_TRUE(out.str() == want.bytes) << extra << " bytes past the pairs";
    // From a file: refused before a single answer.
    std::string written = "untouched";
    try {
      by_file(q, pairs + std::string(extra, '\x01'), 2, &written);
      ADD_FAILURE() << "a file of " << extra << " bytes past the pairs was not refused";
    } catch (const InputError& e) {
      EXPECT_NE(std::string(e.what()).find("not a whole number of 8-byte pairs"), std::string::npos)
          << e.what();
    }
    EXPECT_EQ(written, "") << "answers written before the refusal";
  }
}

TEST(PairIds, AnIndexWithNamesRefusesNumbers) {
  const Graph g(3, {{0, 1}, {1, 2}}, {"a", "b", "c"});
  const LivingIndex index(std::make_shared<const ReachIndex>(build_index(g)));
  IndexQueries q(index, false);
  std::string written = "untouched";
  EXPECT_THROW(by_file(q, random_pairs(3, 4), 1, &written), UsageError);
  EXPECT_EQ(written, "");
}

}  // namespace
}  // namespace closure::reach
