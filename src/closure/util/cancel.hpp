// Cancellation: the library's long loops poll a flag that another thread may set, so a
// caller can stop a closure that is taking too long (the Python module sets it on Ctrl-C
// while its computation runs on a thread without the GIL).
//
// A caller installs its token for the current thread with a CancelScope. A long function
// reads current_cancel_token() once, on the calling thread, and polls that pointer from
// its loops and from any worker threads it starts (they have no scope of their own); on
// cancellation it stops its workers, releases what it allocated and throws Cancelled.
// With no scope installed nothing is ever cancelled and polling costs one null check.
#pragma once

#include <atomic>

#include "closure/errors.hpp"

namespace closure {

class CancelToken {
 public:
  void cancel() { flag_.store(true, std::memory_order_relaxed); }
  bool cancelled() const { return flag_.load(std::memory_order_relaxed); }

 private:
  std::atomic<bool> flag_{false};
};

// Its own kind (errors.hpp): not a failure of the work but the caller's wish, which Python
// turns back into the KeyboardInterrupt that asked for it.
class Cancelled : public Error {
 public:
  Cancelled() : Error(ErrorKind::kCancelled, "cancelled") {}
};

// The token installed on this thread by the innermost CancelScope, or nullptr.
const CancelToken* current_cancel_token();

class CancelScope {
 public:
  explicit CancelScope(const CancelToken& token);
  ~CancelScope();
  CancelScope(const CancelScope&) = delete;
  CancelScope& operator=(const CancelScope&) = delete;

 private:
  const CancelToken* previous_;
};

inline bool is_cancelled(const CancelToken* token) {
  return token != nullptr && token->cancelled();
}
inline void throw_if_cancelled(const CancelToken* token) {
  if (is_cancelled(token)) throw Cancelled();
}
// For loops on the calling thread: polls this thread's token.
inline void check_cancelled() {
  throw_if_cancelled(current_cancel_token());
}

}  // namespace closure
