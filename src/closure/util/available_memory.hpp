// How much more memory this process may allocate: physical memory is not the limit a
// process meets first under `ulimit -v`, `ulimit -d` or a cgroup (a container, systemd
// unit or batch scheduler), and an estimate checked against the wrong figure ends in
// std::bad_alloc instead of a fallback. The one reader of these limits: methods, the
// verifier and the OpenCL runtime all ask it.
#pragma once

#include <cstddef>

namespace closure {

// The least of: MemAvailable (/proc/meminfo; physical memory where absent), the cgroup's
// memory.max minus memory.current (v2, with every parent's; limit_in_bytes minus
// usage_in_bytes for v1), RLIMIT_AS (ulimit -v) minus the address space already mapped,
// and RLIMIT_DATA minus the data segment in use. Never 0 (at least one page), so callers
// can compare against it freely.
size_t available_host_memory();

// RLIMIT_AS (ulimit -v) minus the address space already mapped; SIZE_MAX without a limit.
// What a driver that reserves address space (thread stacks, a JIT) can still map.
size_t address_space_headroom();

// What an OpenCL CPU device (PoCL) takes of this process beside its buffers, planned for
// before they are made: under ulimit -v, its `workers` threads' stacks and malloc arenas
// (72 MiB each, as the executor counts a thread; mapped as they first run), and
// kCpuDeviceOwnBytes (its queues, a download's staging) always.
inline constexpr size_t kCpuDeviceOwnBytes = size_t{32} << 20;
size_t cpu_device_reserve(unsigned workers);

// Physical memory of this machine, in bytes.
size_t host_physical_memory();

}  // namespace closure
