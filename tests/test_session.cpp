// A Session decides once: the device spec (the option over $CLOSURE_DEVICE), the thread
// budget its work runs under, and a host session never opens a device.
#include <gtest/gtest.h>
#include <stdlib.h>
#include <sys/stat.h>
#include <unistd.h>

#include <atomic>
#include <fstream>
#include <mutex>
#include <random>
#include <set>
#include <thread>

#include "bench/index_generators.hpp"
#include "closure/algorithms/cost_model.hpp"
#include "closure/algorithms/planner.hpp"
#include "closure/engine/compute.hpp"
#include "closure/engine/methods.hpp"
#include "closure/session/device_opener.hpp"
#include "closure/session/session.hpp"
#include "closure/verify/boost_closure.hpp"

namespace closure {
namespace {

struct ScopedEnv {
  ScopedEnv(const char* name, const char* value) : name_(name) {
    if (const char* old = ::getenv(name)) old_ = old, had_ = true;
    ::setenv(name, value, 1);
  }
  ~ScopedEnv() { had_ ? ::setenv(name_, old_.c_str(), 1) : ::unsetenv(name_); }
  const char* name_;
  std::string old_;
  bool had_ = false;
};

TEST(Session, TheDeviceOptionWinsOverTheEnvironment) {
  ScopedEnv env("CLOSURE_DEVICE", "host");
  EXPECT_EQ(Session().device_spec(), "host");
  EXPECT_FALSE(Session().device_named());
  SessionOptions o;
  o.device = "cpu";
  EXPECT_EQ(Session(o).device_spec(), "cpu");
  EXPECT_TRUE(Session(o).device_named());
}

// The exit watcher's question, asked before reading: only a run that may open a GPU forks it.
TEST(Session, ASmallPlainFileUnderAutoOpensNoGpu) {
  ScopedEnv env("CLOSURE_DEVICE", "");
  const std::string dir = ::testing::TempDir();
  const std::string small = dir + "/may_open_small.txt", large = dir + "/may_open_large.txt",
                    zipped = dir + "/may_open_small.txt.gz";
  { std::ofstream(small) << "0 1\n1 2\n"; }
  { std::ofstream(large) << std::string(kAutoModelFrom, '#') << "\n0 1\n"; }
  { std::ofstream(zipped) << std::string("\x1f\x8b\x08", 3); }  // gzip's magic: any size within
  SessionOptions o;
  EXPECT_FALSE(run_may_open_gpu(o, Method::kAuto, small));
  EXPECT_TRUE(run_may_open_gpu(o, Method::kAuto, large));
  EXPECT_TRUE(run_may_open_gpu(o, Method::kAuto, zipped));
  EXPECT_TRUE(run_may_open_gpu(o, Method::kAuto, "-"));  // standard input: its size is unknown
  EXPECT_TRUE(run_may_open_gpu(o, Method::kAuto, ""));
  EXPECT_TRUE(run_may_open_gpu(o, Method::kAuto, dir));  // not a file: the reader says what
  const std::string fifo = dir + "/may_open.fifo";
  ::unlink(fifo.c_str());
  ASSERT_EQ(::mkfifo(fifo.c_str(), 0600), 0);
  EXPECT_TRUE(run_may_open_gpu(o, Method::kAuto, fifo));  // returns: no writer is waited for
  // Links are judged by what they name; a missing file is left to the reader.
  const std::string to_small = dir + "/may_open_to_small", to_fifo = dir + "/may_open_to_fifo";
  ::unlink(to_small.c_str());
  ::unlink(to_fifo.c_str());
  ASSERT_EQ(::symlink(small.c_str(), to_small.c_str()), 0);
  ASSERT_EQ(::symlink(fifo.c_str(), to_fifo.c_str()), 0);
  EXPECT_FALSE(run_may_open_gpu(o, Method::kAuto, to_small));
  EXPECT_TRUE(run_may_open_gpu(o, Method::kAuto, to_fifo));
  EXPECT_TRUE(run_may_open_gpu(o, Method::kAuto, dir + "/may_open_missing.txt"));
  ::unlink(to_small.c_str());
  ::unlink(to_fifo.c_str());
  ::unlink(fifo.c_str());
  EXPECT_TRUE(run_may_open_gpu(o, Method::kPropagate, small));  // the method needs a device
  EXPECT_FALSE(run_may_open_gpu(o, Method::kSparse, large));    // a host method, none named
  o.device = "gpu";
  EXPECT_TRUE(run_may_open_gpu(o, Method::kAuto, small));
  EXPECT_TRUE(run_may_open_gpu(o, Method::kSparse, small));  // a name is checked by opening
  o.device = "host";
  EXPECT_FALSE(run_may_open_gpu(o, Method::kPropagate, large));
  o.device = "";
  ScopedEnv host("CLOSURE_DEVICE", "host");
  EXPECT_FALSE(run_may_open_gpu(o, Method::kAuto, large));
}

TEST(Session, ItsWorkRunsWithinItsThreads) {
  for (unsigned threads : {1u, 2u, 3u}) {
    SessionOptions o;
    o.threads = threads;
    Session s(o);
    EXPECT_EQ(s.threads(), threads);
    EXPECT_EQ(s.run([] { return thread_budget(); }), threads);
    std::mutex m;
    std::set<std::thread::id> ids;
    s.run([&] {
      parallel_chunks(1 << 16, 1, [&](size_t, size_t) {
        std::lock_guard lock(m);
        ids.insert(std::this_thread::get_id());
      });
    });
    EXPECT_LE(ids.size(), threads);
  }
  // Outside any session the budget is the process's again.
  EXPECT_EQ(thread_budget(), std::max(1u, std::thread::hardware_concurrency()));
}

TEST(Session, RunPairWithinOneThreadRunsBothInOrder) {
  SessionOptions o;
  o.threads = 1;
  Session s(o);
  std::vector<int> order;
  s.run([&] { run_pair([&] { order.push_back(1); }, [&] { order.push_back(2); }); });
  EXPECT_EQ(order, (std::vector<int>{1, 2}));
  o.threads = 2;
  Session two(o);
  std::atomic<int> done{0};
  two.run([&] { run_pair([&] { ++done; }, [&] { ++done; }); });
  EXPECT_EQ(done.load(), 2);
}

TEST(Session, AHostSessionComputesWithoutADevice) {
  SessionOptions o;
  o.device = "host";
  Session s(o);
  EXPECT_EQ(s.runtime(), nullptr);
  const Graph g(5, {{0, 1}, {1, 2}, {2, 0}, {2, 3}});
  for (const auto& entry : method_registry()) {
    ComputeOptions c = s.compute_options(entry.method, DeviceOpening::kWhileReading);
    ComputeReport report;
    const Closure closure = s.run([&] { return compute_closure(g, c, &report); });
    EXPECT_EQ(report.device, "host") << entry.name;
    EXPECT_NE(report.method, Method::kAuto);
    EXPECT_EQ(closure.pair_count(), 12u) << entry.name;  // 3 x 3 in the cycle, + 3 to vertex 3
  }
}

// A library caller's thread count past the CLI's and Python's range is a UsageError (past
// 65,536 TBB's arena had crashed the process); a moved-from closure is empty, pair counts
// included; ids past the closure are a UsageError, not a read past its map.
TEST(Session, ThreadsPastTheRangeAreAUsageError) {
  SessionOptions wide;
  wide.device = "host";
  wide.threads = 100000;
  EXPECT_THROW(Session{wide}, UsageError);
  SessionOptions o;
  o.device = "host";
  Session s(o);
  const Graph g(3, {{0, 1}, {1, 0}, {1, 2}});
  Options many;
  many.threads = kMostThreads + 1;
  EXPECT_THROW(s.close(g, many), UsageError);
  many.threads = kMostThreads;
  EXPECT_EQ(s.close(g, many).pair_count(), 6u);
}

TEST(Session, AMovedFromClosureIsEmptyAndIdsAreChecked) {
  SessionOptions o;
  o.device = "host";
  Session s(o);
  const Graph g(3, {{0, 1}, {1, 0}, {1, 2}});
  Closure c = s.close(g);
  Closure d = std::move(c);
  EXPECT_EQ(d.pair_count(), 6u);
  EXPECT_EQ(c.vertex_count(), 0u);
  EXPECT_EQ(c.pair_count(), 0u);
  EXPECT_EQ(c.pair_count(true), 0u);
  EXPECT_TRUE(c == Closure());
  c = std::move(d);
  EXPECT_EQ(c.pair_count(true), 7u);
  EXPECT_THROW((void)Closure().reaches(0, 0), UsageError);
  EXPECT_THROW((void)c.reaches(2, 3), UsageError);
  std::vector<vertex_t> out;
  EXPECT_THROW(c.successors(3, out), UsageError);
  EXPECT_TRUE(c.reaches(0, 2));
}

TEST(Session, SpeculationIsOnlyForAutoWithNoDeviceNamed) {
  ScopedEnv env("CLOSURE_DEVICE", "");
  Session s;
  ComputeOptions sparse = s.compute_options(Method::kSparse);
  s.speculate_gpu_for_auto(sparse);
  EXPECT_FALSE(sparse.speculate_gpu);
  SessionOptions named;
  named.device = "host";
  Session host(named);
  ComputeOptions c = host.compute_options(Method::kAuto);
  host.speculate_gpu_for_auto(c);
  EXPECT_FALSE(c.speculate_gpu);
  if (may_open_devices_on_another_thread()) {  // not in sanitized builds
    ComputeOptions a = s.compute_options(Method::kAuto);
    s.speculate_gpu_for_auto(a);
    // Only where a GPU's device node exists (none on a machine without a GPU).
    EXPECT_EQ(bool(a.speculate_gpu), ocl::gpu_may_be_present());
  }
}

// A GPU the session began opening at the start (a large input file) is released exactly once
// when the graph as read says the host wins: at once, before the host's work, and never
// opened again; on a graph where a GPU may win it is kept for the plan (here no GPU answers,
// so the host runs and the opening is released at the end, once). No speculation starts
// twice.
TEST(Session, AnOpeningBegunAtStartIsKeptOrReleasedOnce) {
  struct Case {
    Graph g;
    bool may_win;
  };
  std::vector<Case> cases;
  cases.push_back({Graph(4, {{0, 1}, {1, 2}, {2, 3}}), false});
  cases.push_back({commit_history_dag(200000, 1), true});
  for (const Case& k : cases) {
    ComputeOptions c;
    c.method = Method::kAuto;
    int speculated = 0, released = 0, opened = 0;
    c.speculate_gpu = [&] { ++speculated; };
    c.release_unused_device = [&] { ++released; };
    c.lazy_runtime = [&]() -> ocl::Runtime* {
      ++opened;
      return nullptr;
    };
    c.gpu_opening_since = std::chrono::steady_clock::now();
    c.propagate.rows_needed = false;
    ComputeReport report;
    const Closure closure = compute_closure(k.g, c, &report);
    ComputeOptions sparse;
    sparse.method = Method::kSparse;
    EXPECT_EQ(closure.pair_count(), compute_closure(k.g, sparse).pair_count());
    EXPECT_EQ(speculated, 0);
    EXPECT_EQ(released, 1) << k.g.vertex_count();
    EXPECT_EQ(report.device, "host");
    if (!k.may_win) {
      EXPECT_EQ(opened, 0);  // released before anything waits for it
    }
  }
}

// Whether a GPU may win is decided from the graph as read, before any device is opened:
// a long history (every commit reaches most older ones) says yes, graphs of the same size
// whose vertices reach a few others (random sparse, disjoint pairs) say no.
TEST(Session, GpuMayWinDecidedFromTheGraphAsRead) {
  EXPECT_TRUE(gpu_may_win_as_read(commit_history_dag(200000, 1)));
  std::mt19937_64 rng(3);
  std::uniform_int_distribution<vertex_t> pick(0, 299999);
  std::vector<Edge> random_edges, pairs;
  for (int i = 0; i < 250000; ++i) random_edges.emplace_back(pick(rng), pick(rng));
  for (vertex_t v = 0; v < 400000; v += 2) pairs.emplace_back(v, v + 1);
  EXPECT_FALSE(gpu_may_win_as_read(Graph(300000, random_edges)));
  EXPECT_FALSE(gpu_may_win_as_read(Graph(400000, pairs)));
  EXPECT_FALSE(gpu_may_win_as_read(Graph(0, {})));
}

// A GPU opened at the process's start (a large file) has part of its start-up paid by the
// time the graph is read, so the GPU's prediction is lower, and the sampled reach must go
// far enough to pass it: cut too early, a 1M-commit history on 16 threads looked like the
// host's, and its GPU was released and then opened again after condensing (auto 0.58 s against the
// GPU named 0.36 on the H200).
TEST(Session, GpuMayWinWithItsOpeningSunkStillSeesALongHistory) {
  const Graph history = commit_history_dag(1'000'000, 1);
  for (unsigned threads : {2u, 16u})
    for (bool opening : {false, true})
      EXPECT_TRUE(gpu_may_win_as_read(history, true, threads,
                                      opening ? std::optional(GpuOpening(0.1)) : std::nullopt))
          << threads << " threads, GPU opening at the start " << opening;
}

// A GPU already opening is released only where the host surely wins. A random graph of 1.1M
// edges on 1M ids (a giant component that a few samples run into and the cap stops) keeps
// it (auto's plan chose it there); disjoint pairs release it; neither opens one that was
// not opening.
TEST(Session, AGpuOpeningAlreadyIsKeptUnlessTheHostSurelyWins) {
  std::mt19937_64 rng(5);
  std::uniform_int_distribution<vertex_t> pick(0, 999'999);
  std::vector<Edge> random_edges, pairs;
  for (int i = 0; i < 1'100'000; ++i) random_edges.emplace_back(pick(rng), pick(rng));
  for (vertex_t v = 0; v < 3'000'000; v += 2) pairs.emplace_back(v, v + 1);
  const Graph random(1'000'000, std::move(random_edges)), disjoint(3'000'000, std::move(pairs));
  // Opening since the process's start, for the reading of a 13-22 MB file (0.06-0.08 s on
  // the H200 machine) or a slower one: the decision must not turn on the reading's speed.
  for (double elapsed : {0.0, 0.1, 0.2}) {
    EXPECT_TRUE(gpu_may_win_as_read(random, true, 16, GpuOpening(elapsed))) << elapsed;
    EXPECT_FALSE(gpu_may_win_as_read(disjoint, true, 16, GpuOpening(elapsed))) << elapsed;
  }
  EXPECT_FALSE(gpu_may_win_as_read(random, true, 16));
  EXPECT_FALSE(gpu_may_win_as_read(disjoint, true, 16));
}

// The random graph above is a class, not an instance: the GPU machines' awk drew a different
// 1M-edge graph each time, and weighed with half the edges as block items, 3 of these 12
// seeds released their GPU as read (the plan then chose it: auto 23% over the GPU named on
// the H100 machine); with a cap at the GPU's own prediction, seed 9 kept it or not as the
// opening's time so far moved by 0.04 s (a sanitized build flipped it). Each must keep it,
// however long the reading took.
TEST(Session, AGpuOpeningIsKeptOnEveryRandomGraphOfThatClass) {
  for (uint64_t seed = 1; seed <= 12; ++seed) {
    std::mt19937_64 rng(seed);
    std::uniform_int_distribution<vertex_t> pick(0, 999'999);
    std::vector<Edge> edges;
    for (int i = 0; i < 1'000'000; ++i) edges.emplace_back(pick(rng), pick(rng));
    const Graph random(1'000'000, std::move(edges));
    for (double elapsed : {0.0, 0.05, 0.09, 0.2})
      EXPECT_TRUE(gpu_may_win_as_read(random, true, 16, GpuOpening(elapsed)))
          << "seed " << seed << ", opening for " << elapsed << " s";
  }
}

}  // namespace
}  // namespace closure
