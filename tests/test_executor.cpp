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
#include "closure/graph/huge_pages.hpp"

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

TEST(HugePages, FilledVectorsHoldTheirValueWhetherPrefaultedOrNot) {
  // 9M words (36 MB) take the parallel first-touch path, 1000 do not; odd sizes leave a
  // partial last page and chunk.
  for (size_t n : {size_t{1000}, size_t{9'000'001}}) {
    const std::vector<uint32_t> v = detail::huge_filled<uint32_t>(n, 0xdeadbeefu);
    ASSERT_EQ(v.size(), n);
    EXPECT_EQ(std::count(v.begin(), v.end(), 0xdeadbeefu), ptrdiff_t(n));
  }
  // Every page of an odd-sized range is touched (a zero written into it), nothing outside
  // it (ASan checks the bounds in the sanitized run).
  std::vector<unsigned char> raw((size_t{40} << 20) + 123, 0x5a);
  detail::prefault_in_parallel(raw.data() + 1, raw.size() - 2);
  EXPECT_EQ(raw.front(), 0x5a);
  EXPECT_EQ(raw.back(), 0x5a);
  for (size_t page = 4096; page + 4096 < raw.size(); page += 4096)
    ASSERT_NE(std::find(raw.begin() + ptrdiff_t(page), raw.begin() + ptrdiff_t(page + 4096), 0),
              raw.begin() + ptrdiff_t(page + 4096))
        << page;
}

}  // namespace
}  // namespace closure
