// 64 unpredictable bits from the kernel (hash seeds, temporary names).
#pragma once

#include <cstdint>

namespace closure {

// One getrandom(2) call. Not std::random_device, whose set-up probes the CPU with cpuid
// (a trap under a hypervisor, tens of microseconds of a small run); it is the fallback
// where getrandom fails (an old kernel or a seccomp filter).
uint64_t random_u64();

}  // namespace closure
