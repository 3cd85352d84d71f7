// Ending a process without waiting for the kernel to tear down what it held on a device.
// The driver's files and mappings are released by the kernel when the last task holding
// them exits: for an NVIDIA context that is slow (docs/benchmarks-startup.md, "The GPU's floor"),
// it comes after main has returned and every output is closed, and the user's shell waits
// for it. Here a child task that shares
// the memory and the file table (clone with CLONE_VM | CLONE_FILES; a process of its own,
// not a thread) holds them past the parent's exit and dies with it (PR_SET_PDEATHSIG), so
// the parent's exit drops two references and its waiter resumes at once, and the teardown
// happens in the child, unwaited.
#pragma once

namespace closure {

// Closes standard input, output and error once all output is flushed, so that no reader
// waits for an end of file on whoever still holds them. A close error on standard output
// (a deferred write error) turns status 0 into 4; returns the status.
int close_standard_streams(int status);

// Closes the standard streams (close_standard_streams), hands the teardown to a child as
// above, and ends the process with `status`. Never returns. Call it only once all output
// is flushed.
[[noreturn]] void exit_handing_off_teardown(int status);

}  // namespace closure
