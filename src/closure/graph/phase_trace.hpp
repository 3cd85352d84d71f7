// Seconds of each phase of reading a graph on stderr, for finding what does not scale:
// `closure bench read --trace 1` prints the reader's phases, `--trace 2` the steps inside
// them too (docs/benchmarks.md, "Reading on 16 cores"). A diagnostic of the bench command
// only: the product never turns it on.
#pragma once

#include <chrono>
#include <cstdio>

namespace closure::detail {

// The level in force (0: no trace); set by the bench command before it reads.
void set_read_trace(int level);
int read_trace_level();

class PhaseTrace {
 public:
  // Marks print when the trace level is at least `level`.
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
  static bool traced(int level) { return read_trace_level() >= level; }
  static std::chrono::steady_clock::time_point now() { return std::chrono::steady_clock::now(); }
  bool on_;
  const char* prefix_;
  std::chrono::steady_clock::time_point t_;
};

}  // namespace closure::detail
