// Transparent huge pages for the reader's big arrays. Where the kernel gives them only on
// request (THP "madvise", Debian's default), every fresh 4 KiB page of a 100 MB edge array
// costs a page fault, and in a virtual machine faults dominated reading: huge pages made
// reading an edge list several times faster (docs/benchmarks.md, "Reading").
#pragma once

#include <sys/mman.h>

#include <cstddef>
#include <cstdint>
#include <vector>

namespace closure::detail {

// A transparent huge page's size on x86-64.
constexpr size_t kHugePageBytes = size_t{2} << 20;

// Asks for huge pages over the 2 MiB-aligned part of [p, p + bytes), before it is touched.
inline void advise_huge_pages(const void* p, size_t bytes) {
  constexpr uintptr_t kHuge = kHugePageBytes;
  if (bytes < kHuge) return;
  const uintptr_t begin = (reinterpret_cast<uintptr_t>(p) + kHuge - 1) & ~(kHuge - 1);
  const uintptr_t end = (reinterpret_cast<uintptr_t>(p) + bytes) & ~(kHuge - 1);
  if (end > begin) ::madvise(reinterpret_cast<void*>(begin), end - begin, MADV_HUGEPAGE);
}

// An anonymous mapping of `bytes` (a multiple of 2 MiB), aligned to 2 MiB and asked for huge
// pages; null where it cannot be had. Free it with munmap(p, bytes). Mapped 2 MiB over and
// trimmed: aligned_alloc(2 MiB, n) had taken n + 2 MiB of address space (ulimit -v counts it:
// twice a 2 MiB block's).
void* map_huge_aligned(size_t bytes);

// Touches every page of [p, p + bytes) (raw storage not yet holding objects) from the
// executor's threads. The first touch of a fresh page is where the kernel zeroes it; in this
// project's VM that zeroing was a quarter of an index build's time (perf, commits:10M), and
// on one thread it runs at a fraction of what the cores together can zero.
void prefault_in_parallel(void* p, size_t bytes);

// v.reserve(n), with huge pages for the new storage.
template <class T, class A>
void reserve_huge(std::vector<T, A>& v, size_t n) {
  if (n <= v.capacity()) return;
  v.reserve(n);
  advise_huge_pages(v.data(), v.capacity() * sizeof(T));
}

// v.resize(n) into fresh storage on huge pages, its pages first touched by the executor's
// threads when it is 32 MB or more (resize() then only writes over them, or nothing with
// an allocator that leaves elements unwritten).
template <class T, class A>
void resize_huge(std::vector<T, A>& v, size_t n) {
  reserve_huge(v, n);
  if (n * sizeof(T) >= (size_t{32} << 20)) prefault_in_parallel(v.data(), n * sizeof(T));
  v.resize(n);
}

// A vector of n copies of value, on huge pages where it is big enough.
template <class T>
std::vector<T> huge_filled(size_t n, const T& value) {
  std::vector<T> v;
  reserve_huge(v, n);
  if (n * sizeof(T) >= (size_t{32} << 20)) prefault_in_parallel(v.data(), n * sizeof(T));
  v.assign(n, value);
  return v;
}

}  // namespace closure::detail
