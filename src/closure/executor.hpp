// The one executor of host parallelism: oneTBB under a thread budget. Host products, sparse
// propagation, the readers and `batch --jobs` all run as TBB tasks, so together they never
// use more threads than the budget, and an idle thread sleeps in TBB instead of spinning in
// our code. The budget is a session's (Session::run: a TBB arena of its threads), capped
// by the process's (set_thread_budget) where one is set.
#pragma once

#include <cstddef>
#include <functional>

namespace closure {

// Caps every TBB thread of the process (the caller included) at `threads`; 0: no cap (the
// hardware's threads, or a session's). Batch's worker processes set it to their share.
void set_thread_budget(unsigned threads);
// Runs body with at most `threads` threads (0: the hardware's), in an arena of its own, so
// that two sessions of one process (Python calls with different threads=) keep their own.
void with_thread_budget(unsigned threads, const std::function<void()>& body);
unsigned thread_budget();  // the budget in force here: the arena's, within the process cap
// std::thread::hardware_concurrency(), at least 1, read once: glibc reads it from
// /sys/devices/system/cpu/online on every call (three system calls, 7 us of a Session's 8).
unsigned hardware_threads();

// Calls body(begin, end) over chunks of [0, n) of at least `grain` items, in parallel
// within the budget (in the calling task's arena, so nested work shares it).
void parallel_chunks(size_t n, size_t grain, const std::function<void(size_t, size_t)>& body);

// Runs `a` on a thread of its own (its parallel work within half the budget; with a budget
// of one thread, before `b` on this thread) and `b` on this one, and rethrows
// the first exception of either (a failure on the other thread never ends the process). Where no
// thread can be started (memory, ulimit -u), runs them one after the other instead.
void run_pair(const std::function<void()>& a, const std::function<void()>& b);

// Runs body(i) for i in [0, n), at most `concurrency` at a time (and never beyond the
// budget); work the bodies start in parallel runs on the same threads.
void parallel_limited(size_t n, unsigned concurrency, const std::function<void(size_t)>& body);

}  // namespace closure

namespace closure {

// Waits for TBB's worker threads to end, before a fork(): a child forked while they live
// inherits a scheduler whose threads are gone (its parallel loops then run slowly or hang).
// TBB starts them again on the next parallel loop, in the parent and in the child. false
// when they cannot be ended (called inside a parallel loop or an arena still in use).
bool end_worker_threads_before_fork();

}  // namespace closure
