// The CPU's features, read once (see cpu_features.hpp): from the table glibc's loader
// filled at start (<sys/platform/x86.h>, glibc 2.33 on), which costs no cpuid; else from
// cpuid leaves 1 and 7 and xgetbv.
#include "closure/cpu_features.hpp"

#if defined(__x86_64__) && defined(__GNUC__)
#if __has_include(<sys/platform/x86.h>)
#include <sys/platform/x86.h>
#define CLOSURE_GLIBC_CPU_FEATURES 1
#else
#include <cpuid.h>
#endif
#endif

namespace closure {
namespace {

struct Features {
  bool popcnt = false;
  bool avx2 = false;
  bool avx512_popcount = false;
};

Features read_features() {
  Features f;
#if defined(CLOSURE_GLIBC_CPU_FEATURES)
  // "Active": the CPU has it and the OS saves its registers.
  f.popcnt = CPU_FEATURE_ACTIVE(POPCNT);
  f.avx2 = CPU_FEATURE_ACTIVE(AVX2);
  f.avx512_popcount = CPU_FEATURE_ACTIVE(AVX512F) && CPU_FEATURE_ACTIVE(AVX512_VPOPCNTDQ);
#elif defined(__x86_64__) && defined(__GNUC__)
  unsigned a = 0, b = 0, c = 0, d = 0;
  if (!__get_cpuid(1, &a, &b, &c, &d)) return f;
  f.popcnt = (c & bit_POPCNT) != 0;
  // AVX2 needs the OS to save the ymm state (OSXSAVE, then XCR0's SSE and AVX bits), as
  // the compiler's own check does.
  if (!(c & bit_OSXSAVE) || !(c & bit_AVX)) return f;
  unsigned lo = 0, hi = 0;
  __asm__("xgetbv" : "=a"(lo), "=d"(hi) : "c"(0));
  if ((lo & 6u) != 6u) return f;
  if (!__get_cpuid_count(7, 0, &a, &b, &c, &d)) return f;
  f.avx2 = (b & bit_AVX2) != 0;
  // AVX-512 also needs XCR0's opmask and zmm bits.
  f.avx512_popcount = (lo & 0xe6u) == 0xe6u && (b & bit_AVX512F) && (c & bit_AVX512VPOPCNTDQ);
#endif
  return f;
}

const Features& features() {
  static const Features f = read_features();
  return f;
}

}  // namespace

bool cpu_has_popcnt() {
  return features().popcnt;
}
bool cpu_has_avx2() {
  return features().avx2;
}
bool cpu_has_avx512_popcount() {
  return features().avx512_popcount;
}

const bool kCpuPopcnt = cpu_has_popcnt();
const bool kCpuAvx2 = cpu_has_avx2();
const bool kCpuAvx512Popcount = cpu_has_avx512_popcount();

}  // namespace closure
