// The read trace's level: one process-wide switch, set only by `closure bench read`.
#include "closure/graph/phase_trace.hpp"

#include <atomic>

namespace closure::detail {
namespace {
std::atomic<int> trace_level{0};
}  // namespace

void set_read_trace(int level) {
  trace_level = level;
}
int read_trace_level() {
  return trace_level;
}

}  // namespace closure::detail
