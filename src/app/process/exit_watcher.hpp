// A command whose caller need not wait for its teardown. A process that used a GPU ends
// slowly even after every output is closed: the driver's threads are slow to die in
// exit_group (docs/benchmarks-startup.md, "The GPU's floor"), and the
// user's shell waits for the last of them. start_exit_watcher() splits the process in two
// before any thread starts: it returns in a child (the worker, which does all the work)
// while the original process (the watcher, the pid the shell waits for) waits for the
// worker's status and ends with it the moment the worker reports it, before the worker's
// own exit. Signals sent to the watcher (kill PID) are forwarded to the worker; a worker
// that dies without reporting is mirrored (its exit code, or its signal raised again).
#pragma once

namespace closure {

// Forks; returns true in the worker. Returns false, unforked, when the process cannot be
// split (no pipe or no fork): everything then runs here as usual. Never returns in the
// watcher. Call it before any thread starts.
bool start_exit_watcher();

// Whether this process is a worker whose watcher waits for report_exit_status().
bool exit_watched();

// In the worker, once all output is flushed and the standard streams are closed
// (teardown_handoff.hpp's close_standard_streams, so that no reader waits on the worker):
// sends the status to the watcher, which ends with it. The worker then exits; nobody waits
// for its end, so it needs no teardown hand-off.
void report_exit_status(int status);

}  // namespace closure
