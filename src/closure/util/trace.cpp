// CLOSURE_TRACE's milestones (trace.hpp).
#include "closure/util/trace.hpp"

#include <cstdio>
#include <ctime>

#include "closure/config.hpp"

namespace closure {

void trace(const char* event) {
  static const bool on = config::is_set(config::kTrace);
  if (!on) return;
  timespec t{};
  ::clock_gettime(CLOCK_REALTIME, &t);
  // One fprintf: stderr is unbuffered, so the line is written whole even among threads.
  std::fprintf(stderr, "closure-trace %ld.%06ld %s\n", long(t.tv_sec), long(t.tv_nsec / 1000),
               event);
}

}  // namespace closure
