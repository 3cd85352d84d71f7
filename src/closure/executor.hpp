// The one executor of host parallelism: oneTBB under a process-wide thread budget. Host
// products, sparse propagation and `batch --jobs` all run as TBB tasks, so together they
// never use more threads than the budget, and an idle thread sleeps in TBB instead of
// spinning in our code.
#pragma once

#include <cstddef>
#include <functional>

namespace closure {

// Caps every TBB thread of the process (the caller included) at `threads`; 0: the
// hardware's threads. The CLI sets it once from --threads, before any work.
void set_thread_budget(unsigned threads);
unsigned thread_budget();  // the cap in force

// Calls body(begin, end) over chunks of [0, n) of at least `grain` items, in parallel
// within the budget (in the calling task's arena, so nested work shares it).
void parallel_chunks(size_t n, size_t grain, const std::function<void(size_t, size_t)>& body);

// Runs `a` on a thread of its own and `b` on this one, and rethrows the first exception of
// either (a failure on the other thread never ends the process). Where no thread can be
// started (memory, ulimit -u), runs them one after the other instead.
void run_pair(const std::function<void()>& a, const std::function<void()>& b);

// Runs body(i) for i in [0, n), at most `concurrency` at a time (and never beyond the
// budget); work the bodies start in parallel runs on the same threads.
void parallel_limited(size_t n, unsigned concurrency, const std::function<void(size_t)>& body);

}  // namespace closure
