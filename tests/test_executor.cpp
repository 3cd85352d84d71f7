// The executor: the thread budget caps every parallel loop, parallel_limited runs each
// body once and never more than its concurrency at a time, and nested work is done.
#include <gtest/gtest.h>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <mutex>
#include <set>
#include <thread>
#include <vector>

#include "closure/executor.hpp"

namespace closure {
namespace {

TEST(Executor, ParallelLimitedRunsEachBodyOnceWithinItsConcurrency) {
  set_thread_budget(4);
  EXPECT_EQ(thread_budget(), 4u);
  for (unsigned limit : {1u, 2u, 3u, 8u}) {
    std::vector<std::atomic<int>> runs(50);
    std::atomic<int> running{0}, most{0};
    std::atomic<size_t> inner{0};
    parallel_limited(runs.size(), limit, [&](size_t i) {
      const int now = ++running;
      for (int m = most; now > m && !most.compare_exchange_weak(m, now);) {
      }
      std::this_thread::sleep_for(std::chrono::milliseconds(2));
      // Nested work of a body runs on the same executor and completes.
      parallel_chunks(1000, 10, [&](size_t b, size_t e) { inner += e - b; });
      ++runs[i];
      --running;
    });
    for (const auto& r : runs) EXPECT_EQ(r.load(), 1);
    EXPECT_EQ(inner.load(), 50u * 1000u);
    EXPECT_LE(most.load(), int(std::min(limit, 4u))) << "limit " << limit;
  }
  set_thread_budget(0);
}

TEST(Executor, TheBudgetCapsTheThreadsOfAParallelLoop) {
  set_thread_budget(2);
  std::mutex m;
  std::set<std::thread::id> ids;
  parallel_chunks(1 << 16, 1, [&](size_t, size_t) {
    std::lock_guard lock(m);
    ids.insert(std::this_thread::get_id());
  });
  EXPECT_LE(ids.size(), 2u);
  set_thread_budget(0);
  EXPECT_EQ(thread_budget(), std::max(1u, std::thread::hardware_concurrency()));
}

}  // namespace
}  // namespace closure
