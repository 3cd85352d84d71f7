// The progress line and the rule that decides when it is shown.
#include "app/tool/progress.hpp"

#include <algorithm>

namespace closure {

bool progress_enabled(ProgressMode mode, bool stderr_is_terminal, bool quiet) {
  switch (mode) {
    case ProgressMode::kOn:
      return true;
    case ProgressMode::kOff:
      return false;
    case ProgressMode::kAuto:
      return stderr_is_terminal && !quiet;
  }
  return false;
}

std::string progress_text(const std::string& phase, double share, double elapsed_s) {
  char buf[64];
  std::string out = "closure: " + phase;
  if (share >= 0) {
    std::snprintf(buf, sizeof buf, " %3.0f%%", 100 * std::min(share, 1.0));
    out += buf;
  }
  std::snprintf(buf, sizeof buf, " %.0f s", elapsed_s);
  return out + buf;
}

ProgressLine::ProgressLine(std::FILE* out, std::chrono::duration<double> delay)
    : out_(out),
      start_(std::chrono::steady_clock::now()),
      phase_start_(start_),
      delay_(delay),
      thread_([this] { loop(); }) {}

ProgressLine::~ProgressLine() {
  {
    std::lock_guard lock(mutex_);
    stop_ = true;
    if (drawn_) std::fprintf(out_, "\r%*s\r", int(width_), "");
    std::fflush(out_);
  }
  wake_.notify_all();
  thread_.join();
}

void ProgressLine::phase(const std::string& name) {
  std::lock_guard lock(mutex_);
  phase_ = name;
  share_ = -1;
  meter_.start(0);
  phase_start_ = std::chrono::steady_clock::now();
  draw_locked();
}

void ProgressLine::share(double fraction) {
  std::lock_guard lock(mutex_);
  share_ = fraction;
}

void ProgressLine::draw_locked() {
  const auto now = std::chrono::steady_clock::now();
  if (stop_ || phase_.empty() || now - start_ < delay_) return;
  const std::string text = progress_text(phase_, share_ >= 0 ? share_ : meter_.share(),
                                         std::chrono::duration<double>(now - phase_start_).count());
  // Pad over a longer previous line, then return to the line's start for the next draw.
  std::fprintf(out_, "\r%s%*s", text.c_str(), int(width_ > text.size() ? width_ - text.size() : 0),
               "");
  std::fflush(out_);
  width_ = text.size();
  drawn_ = true;
}

void ProgressLine::loop() {
  std::unique_lock lock(mutex_);
  while (!stop_) {
    wake_.wait_for(lock, std::chrono::milliseconds(250));
    draw_locked();
  }
}

}  // namespace closure
