// The thread budget (tbb::global_control), the two loop shapes the library uses, and the
// one two-thread split.
#include "closure/executor.hpp"

#include <sched.h>
#include <sys/resource.h>
#include <tbb/blocked_range.h>
#include <tbb/global_control.h>
#include <tbb/info.h>
#include <tbb/parallel_for.h>
#include <tbb/task_arena.h>

#include <algorithm>
#include <atomic>
#include <cstdint>
#include <exception>
#include <limits>
#include <memory>
#include <mutex>
#include <new>
#include <optional>
#include <system_error>
#include <thread>

namespace closure {
namespace {

std::mutex budget_mutex;
std::unique_ptr<tbb::global_control> budget_control;
std::atomic<bool> capped{false};  // budget_control is set

// The budget of a body that with_thread_budget runs on this thread outside every arena (0:
// none), which thread_budget() answers there without asking TBB: TBB's first use (its
// market, a search of the library path for OpenMP's runtime) is about 60 us of a small
// graph's run, which then never starts TBB at all.
thread_local unsigned implicit_budget = 0;

// This thread has never run in an arena (TBB keeps no data for it): no arena's width and,
// with no cap of ours, nothing but the CPUs this process may use limits it.
bool outside_every_arena() {
  return tbb::this_task_arena::current_thread_index() == tbb::task_arena::not_initialized;
}

// The CPUs this process may run on (its affinity mask, as TBB's default concurrency counts
// them), read once.
unsigned usable_cpus() {
  static const unsigned n = [] {
    cpu_set_t set;
    CPU_ZERO(&set);
    if (sched_getaffinity(0, sizeof set, &set) == 0 && CPU_COUNT(&set) > 0)
      return unsigned(CPU_COUNT(&set));
    return hardware_threads();
  }();
  return n;
}

// The threads the address space holds. Under `ulimit -v` each host thread reserves a stack
// and, once it allocates, a malloc arena of 64 MiB, all counted against the limit; a worker
// TBB then fails to start ends the process in std::terminate inside its pool (exit 134:
// --threads 64 under 800 MB), where running out of memory must be a message. So a budget
// stays within half the limit at 72 MiB a thread; no limit, no cap. Read once.
unsigned address_space_threads() {
  static const unsigned n = [] {
    rlimit limit{};
    if (::getrlimit(RLIMIT_AS, &limit) != 0 || limit.rlim_cur == RLIM_INFINITY)
      return std::numeric_limits<unsigned>::max();
    constexpr uint64_t kThreadBytes = uint64_t{72} << 20;
    return unsigned(std::clamp<uint64_t>(uint64_t(limit.rlim_cur) / 2 / kThreadBytes, 1,
                                         std::numeric_limits<unsigned>::max()));
  }();
  return n;
}

}  // namespace

unsigned hardware_threads() {
  static const unsigned n = std::max(1u, std::thread::hardware_concurrency());
  return n;
}

void set_thread_budget(unsigned threads) {
  std::lock_guard lock(budget_mutex);
  budget_control.reset();  // one control at a time: TBB takes the smallest of those alive
  if (threads != 0) threads = std::min(threads, address_space_threads());
  capped = threads != 0;
  if (threads == 0) return;  // no cap: the hardware's threads, or a session's
  budget_control = std::make_unique<tbb::global_control>(
      tbb::global_control::max_allowed_parallelism, size_t(threads));
}

void with_thread_budget(unsigned threads, const std::function<void()>& body) {
  if (threads == 0) threads = hardware_threads();
  threads = std::min(threads, address_space_threads());
  if (threads == hardware_threads() && !capped && outside_every_arena()) {
    // The hardware's width, no cap and no arena around: the body runs here, TBB untouched
    // until it has parallel work.
    const unsigned outer = implicit_budget;
    implicit_budget = std::min(threads, usable_cpus());
    struct Restore {
      unsigned value;
      ~Restore() { implicit_budget = value; }
    } restore{outer};
    return body();
  }
  // More threads than the hardware's (--threads 8 on 2 cores, as batch's waiting jobs want)
  // need the process's worker limit raised too; a smaller cap already set still wins, as
  // TBB takes the smallest control alive.
  std::optional<tbb::global_control> raise;
  if (threads > tbb::global_control::active_value(tbb::global_control::max_allowed_parallelism))
    raise.emplace(tbb::global_control::max_allowed_parallelism, size_t(threads));
  // The hardware's width is the implicit arena's: no arena of its own, so a process whose
  // work stays on one thread (a small graph) never starts TBB's workers nor loads its
  // allocator (about 1 ms of a small run's start on 2 cores).
  if (!raise && threads == hardware_threads()) return body();
  tbb::task_arena arena{int(threads)};
  arena.execute(body);
}

unsigned thread_budget() {
  if (implicit_budget != 0 && outside_every_arena()) return implicit_budget;
  const size_t cap =
      tbb::global_control::active_value(tbb::global_control::max_allowed_parallelism);
  // Outside a session's arena (the implicit one, of the hardware's width) the process cap
  // is the budget; inside one, the arena's width within that cap.
  const int here = tbb::this_task_arena::max_concurrency();
  if (here == tbb::info::default_concurrency()) return unsigned(std::max<size_t>(1, cap));
  return unsigned(std::max<size_t>(1, std::min(cap, size_t(std::max(1, here)))));
}

void parallel_chunks(size_t n, size_t grain, const std::function<void(size_t, size_t)>& body) {
  if (n == 0) return;
  if (n <= grain || thread_budget() == 1) {
    body(0, n);
    return;
  }
  tbb::parallel_for(tbb::blocked_range<size_t>(0, n, std::max<size_t>(grain, 1)),
                    [&](const tbb::blocked_range<size_t>& r) { body(r.begin(), r.end()); });
}

void parallel_limited(size_t n, unsigned concurrency, const std::function<void(size_t)>& body) {
  const unsigned width = std::max(1u, std::min({concurrency, thread_budget(), unsigned(n)}));
  if (width <= 1) {
    for (size_t i = 0; i < n; ++i) body(i);
    return;
  }
  tbb::task_arena arena(int(width), 1);
  arena.execute([&] {
    tbb::parallel_for(tbb::blocked_range<size_t>(0, n, 1),
                      [&](const tbb::blocked_range<size_t>& r) {
                        // While a body waits for its own parallel work, its thread takes
                        // only that work, not another body (no bodies nested in bodies).
                        for (size_t i = r.begin(); i < r.end(); ++i)
                          tbb::this_task_arena::isolate([&] { body(i); });
                      });
  });
}

void run_pair(const std::function<void()>& a, const std::function<void()>& b) {
  // Within the budget: one thread runs them one after the other; otherwise the other
  // thread's parallel work gets half of it (joining this thread's arena instead could
  // deadlock: its slots may all be taken while this thread waits in join).
  const unsigned budget = thread_budget();
  if (budget <= 1) {
    a();
    b();
    return;
  }
  std::exception_ptr failed_a;
  std::optional<std::thread> other;
  try {
    other.emplace([&] {
      try {
        with_thread_budget(budget / 2, a);
      } catch (...) {
        failed_a = std::current_exception();
      }
    });
  } catch (const std::system_error&) {  // no thread to be had: one after the other
    a();
    b();
    return;
  }
  std::exception_ptr failed_b;
  try {
    b();
  } catch (...) {
    failed_b = std::current_exception();
  }
  other->join();
  if (failed_a) std::rethrow_exception(failed_a);
  if (failed_b) std::rethrow_exception(failed_b);
}

bool end_worker_threads_before_fork() {
  tbb::task_scheduler_handle handle{tbb::attach{}};
  return tbb::finalize(handle, std::nothrow);
}

}  // namespace closure
