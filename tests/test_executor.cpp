// The executor: the thread budget caps every parallel loop, parallel_limited runs each
// body once and never more than its concurrency at a time, and nested work is done.
#include <gtest/gtest.h>
#include <signal.h>
#include <sys/wait.h>
#include <tbb/info.h>
#include <tbb/task_arena.h>
#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <fstream>
#include <mutex>
#include <set>
#include <string>
#include <thread>
#include <vector>

#include "closure/executor.hpp"
#include "closure/util/huge_pages.hpp"

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

// A session's body at the hardware's width on a thread that was never in an arena runs
// there, not in an arena of its own (no TBB to start for a small run), and the budget it
// reads there is TBB's own answer; work it starts
// within a smaller budget still reads that, and a process cap still wins.
TEST(Executor, TheHardwareWidthBodyRunsOutsideArenasAndReadsTbbsBudget) {
  const unsigned hw = std::max(1u, std::thread::hardware_concurrency());
  const unsigned tbb_default = unsigned(std::max(1, tbb::info::default_concurrency()));
  unsigned outside = 0, in_arena = 0;
  bool put_in_arena = true;
  std::thread([&] {
    with_thread_budget(0, [&] {
      outside = thread_budget();
      put_in_arena =
          tbb::this_task_arena::current_thread_index() != tbb::task_arena::not_initialized;
      with_thread_budget(1, [&] { in_arena = thread_budget(); });
    });
  }).join();
  EXPECT_FALSE(put_in_arena);
  EXPECT_EQ(outside, std::min(hw, tbb_default));
  EXPECT_EQ(in_arena, 1u);

  set_thread_budget(1);
  unsigned capped = 0;
  std::thread([&] { with_thread_budget(0, [&] { capped = thread_budget(); }); }).join();
  set_thread_budget(0);
  EXPECT_EQ(capped, 1u);
}

// Distinct threads a parallel loop of 64 sleeping chunks ran on, in a child forked now
// (its exit status; 0 when it did not end within 20 s, then killed).
int threads_of_a_loop_in_a_forked_child() {
  const pid_t pid = fork();
  if (pid == 0) {
    std::mutex m;
    std::set<std::thread::id> ids;
    parallel_chunks(64, 1, [&](size_t, size_t) {
      std::this_thread::sleep_for(std::chrono::milliseconds(2));
      std::lock_guard lock(m);
      ids.insert(std::this_thread::get_id());
    });
    _exit(int(std::min<size_t>(ids.size(), 100)));
  }
  int status = 0;
  for (int waited = 0; waited < 2000; ++waited) {
    if (waitpid(pid, &status, WNOHANG) == pid) return WIFEXITED(status) ? WEXITSTATUS(status) : 0;
    std::this_thread::sleep_for(std::chrono::milliseconds(10));
  }
  kill(pid, SIGKILL);
  waitpid(pid, &status, 0);
  return 0;
}

// A child forked after the parent's parallel work has threads of its own again once the
// parent's workers were ended first (closure bench's children: without it their threaded
// methods ran on one thread, 2-10x slower than the same run in a process of its own).
TEST(Executor, AChildForkedAfterEndingTheWorkersRunsLoopsOnSeveralThreads) {
  if (std::thread::hardware_concurrency() < 2) GTEST_SKIP() << "one hardware thread";
  std::atomic<size_t> done{0};
  parallel_chunks(1 << 12, 1, [&](size_t b, size_t e) { done += e - b; });  // workers started
  ASSERT_EQ(done.load(), size_t{1} << 12);
  EXPECT_TRUE(end_worker_threads_before_fork());
  EXPECT_GE(threads_of_a_loop_in_a_forked_child(), 2);
  // The parent's loops start their workers again.
  done = 0;
  parallel_chunks(1 << 12, 1, [&](size_t b, size_t e) { done += e - b; });
  EXPECT_EQ(done.load(), size_t{1} << 12);
}

TEST(HugePages, FilledVectorsHoldTheirValueWhetherPrefaultedOrNot) {
  // 9M words (36 MB) take the parallel first-touch path, 1000 do not; odd sizes leave a
  // partial last page and chunk.
  for (size_t n : {size_t{1000}, size_t{9'000'001}}) {
    const std::vector<uint32_t> v = detail::huge_filled<uint32_t>(n, 0xdeadbeefu);
    ASSERT_EQ(v.size(), n);
    EXPECT_EQ(std::count(v.begin(), v.end(), 0xdeadbeefu), ptrdiff_t(n));
  }
  // Every OS page the range overlaps gets a zero, whatever the range's alignment, and
  // nothing outside the range is written (ASan checks the bounds in the sanitized run).
  std::vector<unsigned char> raw((size_t{40} << 20) + 8192, 0x5a);
  for (size_t skew : {size_t{1}, size_t{4095}, size_t{2049}}) {
    std::fill(raw.begin(), raw.end(), 0x5a);
    unsigned char* start = raw.data() + skew;
    unsigned char* end = raw.data() + raw.size() - skew;
    detail::prefault_in_parallel(start, size_t(end - start));
    EXPECT_EQ(start[-1], 0x5a);
    EXPECT_EQ(*end, 0x5a);
    const uintptr_t kPage = 4096;
    for (uintptr_t page = reinterpret_cast<uintptr_t>(start) & ~(kPage - 1);
         page < reinterpret_cast<uintptr_t>(end); page += kPage) {
      unsigned char* lo = std::max(start, reinterpret_cast<unsigned char*>(page));
      unsigned char* hi = std::min(end, reinterpret_cast<unsigned char*>(page + kPage));
      ASSERT_NE(std::find(lo, hi, 0), hi) << "skew " << skew << ", page at " << (lo - start);
    }
  }
}

// The process's address space (VmSize) in KiB.
long address_space_kib() {
  std::ifstream status("/proc/self/status");
  std::string line;
  while (std::getline(status, line))
    if (line.rfind("VmSize:", 0) == 0) return std::stol(line.substr(7));
  return -1;
}

// A huge-page block is aligned to 2 MiB, usable end to end, and takes its own bytes of
// address space: aligned_alloc had taken another 2 MiB (ulimit -v counts it).
TEST(HugePages, AnAlignedMappingTakesOnlyItsBytesOfAddressSpace) {
  for (size_t bytes : {size_t{2} << 20, size_t{6} << 20}) {
    const long before = address_space_kib();
    auto* p = static_cast<unsigned char*>(detail::map_huge_aligned(bytes));
    const long after = address_space_kib();
    ASSERT_NE(p, nullptr);
    EXPECT_EQ(reinterpret_cast<uintptr_t>(p) % (uintptr_t{2} << 20), 0u);
    p[0] = 1;
    p[bytes - 1] = 2;
    EXPECT_EQ(p[0] + p[bytes - 1], 3);
    EXPECT_GE(after - before, long(bytes >> 10));
    EXPECT_LE(after - before, long(bytes >> 10) + 64) << bytes;  // not another 2 MiB
    ::munmap(p, bytes);
  }
}

}  // namespace
}  // namespace closure
