// How much more memory this process may allocate: physical memory is not the limit a
// process meets first under `ulimit -v`, `ulimit -d` or a cgroup (a container, systemd
// unit or batch scheduler), and an estimate checked against the wrong figure ends in
// std::bad_alloc instead of a fallback.
#pragma once

#include <cstddef>

namespace closure {

// The smallest of: physical memory, RLIMIT_AS minus the address space already mapped,
// RLIMIT_DATA minus the data segment in use, and the cgroup v2 memory.max minus
// memory.current. Never 0 (at least one page), so callers can compare against it freely.
size_t available_memory_bytes();

}  // namespace closure
