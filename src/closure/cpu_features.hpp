// The CPU's instruction-set extensions that the host word loops pick copies by, read once
// at first use from what glibc's loader already found (no cpuid of our own).
//
// Not __builtin_cpu_supports: it links libgcc's cpu-model object, whose constructor reads
// every feature leaf with cpuid at process start, and under a hypervisor each cpuid traps
// (about 8 us on the 2-core machine): tens of microseconds of every `closure` process,
// whatever it runs (docs/benchmarks-startup.md, "A process's fixed cost").
#pragma once

namespace closure {

bool cpu_has_popcnt();           // the popcnt instruction
bool cpu_has_avx2();             // AVX2, with the OS saving the ymm registers
bool cpu_has_avx512_popcount();  // AVX-512F and VPOPCNTDQ, with the OS saving the zmm state

// The same, read once as the process starts, for the word loops that pick a copy on every
// call (per row and merge: the call and its guard were 1% of counting 10M commits' chains).
// Read from another static initialiser they may still be false: the plain copies, correct.
extern const bool kCpuPopcnt;
extern const bool kCpuAvx2;
extern const bool kCpuAvx512Popcount;

}  // namespace closure
