// WorkMeter: how far the current long step has come (units done of a known total), so that a
// progress line can show a share. It follows CancelScope's pattern: a caller installs its
// meter for the current thread with a WorkMeterScope; a long function reads
// current_work_meter() once, on the calling thread, starts it with its total and adds units
// from its loops (and its workers), in batches, at the places where it polls cancellation.
// With no scope installed, metering costs one null check.
#pragma once

#include <algorithm>
#include <atomic>
#include <cstdint>

namespace closure {

class WorkMeter {
 public:
  // A new step of `total` units (0: unknown) begins.
  void start(uint64_t total) {
    done_.store(0, std::memory_order_relaxed);
    total_.store(total, std::memory_order_relaxed);
  }
  void add(uint64_t units) { done_.fetch_add(units, std::memory_order_relaxed); }
  // The current step's total (0: unknown), which tells a reader which step it is.
  uint64_t total() const { return total_.load(std::memory_order_relaxed); }
  // 0..1, or -1 while the total is unknown.
  double share() const {
    const uint64_t total = total_.load(std::memory_order_relaxed);
    if (total == 0) return -1;
    return std::min(1.0, double(done_.load(std::memory_order_relaxed)) / double(total));
  }

 private:
  std::atomic<uint64_t> done_{0}, total_{0};
};

// The meter installed on this thread by the innermost WorkMeterScope, or nullptr.
WorkMeter* current_work_meter();

class WorkMeterScope {
 public:
  explicit WorkMeterScope(WorkMeter* meter);
  ~WorkMeterScope();
  WorkMeterScope(const WorkMeterScope&) = delete;
  WorkMeterScope& operator=(const WorkMeterScope&) = delete;

 private:
  WorkMeter* previous_;
};

inline void meter_start(WorkMeter* meter, uint64_t total) {
  if (meter) meter->start(total);
}
inline void meter_add(WorkMeter* meter, uint64_t units) {
  if (meter) meter->add(units);
}
// The step of `total` units is done, whatever its loops counted (a pass that skipped work).
inline void meter_finish(WorkMeter* meter, uint64_t total) {
  if (meter) {
    meter->start(total);
    meter->add(total);
  }
}

}  // namespace closure
