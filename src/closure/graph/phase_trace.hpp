// Seconds of each phase of reading a graph on stderr, for finding what does not scale:
// CLOSURE_TRACE_READ=1 prints the reader's phases, CLOSURE_TRACE_READ=2 the steps inside
// them too (docs/benchmarks.md, "Reading on 16 cores").
#pragma once

#include <chrono>
#include <cstdio>
#include <cstdlib>

#include "closure/config.hpp"

namespace closure::detail {

class PhaseTrace {
 public:
  // Marks print when CLOSURE_TRACE_READ is at least `level`.
  explicit PhaseTrace(int level = 1, const char* prefix = "read: ")
      : on_(traced(level)), prefix_(prefix), t_(now()) {}
  void mark(const char* phase) {
    if (!on_) return;
    const auto t = now();
    std::fprintf(stderr, "%s%-10s %.4f s\n", prefix_, phase,
                 std::chrono::duration<double>(t - t_).count());
    t_ = t;
  }

 private:
  static bool traced(int level) { return config::count(config::kTraceRead) >= size_t(level); }
  static std::chrono::steady_clock::time_point now() { return std::chrono::steady_clock::now(); }
  bool on_;
  const char* prefix_;
  std::chrono::steady_clock::time_point t_;
};

}  // namespace closure::detail
