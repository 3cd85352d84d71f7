// Milestones of a process on stderr, for finding where a whole process's time goes when
// the summary's phases do not add up to it (docs/benchmarks-startup.md, "The GPU's floor";
// tools/gpu-startup-phases.sh). With CLOSURE_TRACE set, each call prints
//   closure-trace <seconds since the epoch, microseconds> <event>
// so that a script can subtract the time it launched the process. Off, a call costs one
// load of a flag read once.
#pragma once

namespace closure {

void trace(const char* event);

}  // namespace closure
