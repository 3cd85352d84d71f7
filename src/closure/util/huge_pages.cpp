#include "closure/util/huge_pages.hpp"

#include "closure/executor.hpp"

namespace closure::detail {

void* map_huge_aligned(size_t bytes) {
  constexpr uintptr_t kHuge = kHugePageBytes;
  void* raw =
      ::mmap(nullptr, bytes + kHuge, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
  if (raw == MAP_FAILED) return nullptr;
  const uintptr_t base = reinterpret_cast<uintptr_t>(raw);
  const uintptr_t aligned = (base + kHuge - 1) & ~(kHuge - 1);
  // The head (none where the kernel aligned the mapping) and the tail (never empty): 2 MiB.
  if (aligned > base) ::munmap(raw, aligned - base);
  ::munmap(reinterpret_cast<void*>(aligned + bytes), base + kHuge - aligned);
  void* p = reinterpret_cast<void*>(aligned);
  advise_huge_pages(p, bytes);
  return p;
}

void prefault_in_parallel(void* p, size_t bytes) {
  constexpr uintptr_t kPage = 4096;
  constexpr size_t kGrain = size_t{8} << 20;
  auto* base = static_cast<unsigned char*>(p);
  parallel_chunks(bytes, kGrain, [&](size_t a, size_t b) {
    // The chunk's first byte, then the first byte of every page that starts inside it, so
    // every page the range touches is touched whatever the alignment of p.
    base[a] = 0;
    const uintptr_t first = (reinterpret_cast<uintptr_t>(base + a) + kPage) & ~(kPage - 1);
    for (uintptr_t q = first; q < reinterpret_cast<uintptr_t>(base + b); q += kPage)
      *reinterpret_cast<unsigned char*>(q) = 0;
  });
}

}  // namespace closure::detail
