// Progress on stderr for long runs: one line, rewritten in place, naming the phase
// (reading, computing, verifying, writing), its share when known and the seconds spent.
// Shown only when asked for (--progress) or, by default, when stderr is a terminal; and
// even then only once the run has lasted `delay` (a second), so short runs stay silent.
#pragma once

#include <chrono>
#include <condition_variable>
#include <cstdio>
#include <mutex>
#include <string>
#include <thread>

#include "closure/util/work_meter.hpp"

namespace closure {

enum class ProgressMode { kAuto, kOn, kOff };

// Whether a run shows progress: kOn always, kOff never, kAuto on a terminal unless quiet.
bool progress_enabled(ProgressMode mode, bool stderr_is_terminal, bool quiet);
// The line shown: "closure: computing (sparse) 12 s" or "closure: writing out.txt 40% 3 s".
// share < 0: unknown.
std::string progress_text(const std::string& phase, double share, double elapsed_s);

// Receives the run's phases; the library calls it, the CLI decides how to show it.
class Progress {
 public:
  virtual ~Progress() = default;
  virtual void phase(const std::string& name) = 0;  // a new phase begins (share unknown)
  virtual void share(double fraction) = 0;          // 0..1 of the current phase
  // Where the library's long loops may count their work (installed with a WorkMeterScope);
  // its share is shown while share() has not been called in the phase. nullptr: none.
  virtual WorkMeter* meter() { return nullptr; }
};

// Progress as a line on a FILE (stderr), redrawn by a background thread four times a
// second once `delay` has passed since construction; cleared when destroyed.
class ProgressLine : public Progress {
 public:
  explicit ProgressLine(std::FILE* out,
                        std::chrono::duration<double> delay = std::chrono::seconds(1));
  ~ProgressLine() override;
  void phase(const std::string& name) override;
  void share(double fraction) override;
  WorkMeter* meter() override { return &meter_; }

 private:
  void draw_locked();  // mutex_ held
  void loop();

  std::FILE* out_;
  std::chrono::steady_clock::time_point start_, phase_start_;
  std::chrono::duration<double> delay_;
  std::mutex mutex_;
  std::condition_variable wake_;
  std::string phase_;
  double share_ = -1;
  WorkMeter meter_;
  bool stop_ = false, drawn_ = false;
  size_t width_ = 0;  // of the last line drawn, to blank it out
  std::thread thread_;
};

}  // namespace closure
