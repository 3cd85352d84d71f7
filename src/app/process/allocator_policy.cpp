#include "app/process/allocator_policy.hpp"

#include <malloc.h>
#include <sys/resource.h>

#include <cstddef>
#include <string>

#include "closure/config.hpp"

namespace closure::process {
namespace {

bool limited(int resource) {
  rlimit limit{};
  return ::getrlimit(resource, &limit) == 0 && limit.rlim_cur != RLIM_INFINITY;
}

// Whether the user chose glibc's thresholds, or none of ours: theirs are read at start-up,
// and a mallopt() after would silently override them.
bool user_chose() {
  const std::string tunables = config::text(config::kGlibcTunables);
  return config::text(config::kHeapReuse) == "off" ||
         tunables.find("glibc.malloc.mmap_threshold") != std::string::npos ||
         tunables.find("glibc.malloc.trim_threshold") != std::string::npos ||
         config::is_set(config::kMallocMmapThreshold) ||
         config::is_set(config::kMallocTrimThreshold);
}

}  // namespace

bool keep_freed_memory_for_reuse() {
  if (limited(RLIMIT_AS) || limited(RLIMIT_DATA) || user_chose()) return false;
  // glibc's own ceiling for its sliding threshold (DEFAULT_MMAP_THRESHOLD_MAX on 64-bit):
  // arrays past it (10M commits' CSR) are mapped, on huge pages, as before.
  constexpr int kHeapBelow = 32 << 20;
  // 4 MiB freed at the top kept: 64 MiB was faster still on a 1M-commit count (0.22-0.25 s
  // against 0.25-0.28) but raised its index build's peak from 151 to 173 MB.
  constexpr int kKeptAtTop = 4 << 20;
  return ::mallopt(M_MMAP_THRESHOLD, kHeapBelow) == 1 &&
         ::mallopt(M_TRIM_THRESHOLD, kKeptAtTop) == 1;
}

}  // namespace closure::process
