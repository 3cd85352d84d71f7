// How the `closure` executable's malloc treats freed memory. A library leaves its host
// program's allocator alone; the executable is its own host, and a run is a short chain of
// phases (read, condense, propagate, write) whose arrays of a few hundred KB each are freed
// and then asked for again by the next phase.
#pragma once

namespace closure::process {

// glibc maps every block of 128 KiB or more on its own and unmaps it when freed, so the next
// phase's arrays fault in fresh pages again (a fresh 4 KiB page costs 9-19 us in a virtual
// machine). Here blocks under 32 MiB come from the heap, and up to 4 MiB freed at its top
// stays, so freed memory is reused. Not where the address space or data segment is limited
// (ulimit -v, -d): memory kept there would count against the memory budget's room; nor where
// the user set glibc's thresholds (GLIBC_TUNABLES, MALLOC_*_THRESHOLD_) or CLOSURE_HEAP_REUSE
// is "off". Returns whether the policy was set (never under AddressSanitizer, whose malloc
// takes no mallopt).
bool keep_freed_memory_for_reuse();

}  // namespace closure::process
