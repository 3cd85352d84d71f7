// The executable's allocator policy (app/process/allocator_policy): blocks of a few hundred
// KB to a few MB come from the heap and are reused once freed, instead of being mapped and
// unmapped each time; not under an address-space or data limit, nor where the user chose
// glibc's thresholds. Each case runs in a forked child, whose malloc settings die with it.
#include <gtest/gtest.h>
#include <malloc.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cstdlib>
#include <cstring>
#include <functional>

#include "app/process/allocator_policy.hpp"
#include "closure/util/sanitizer.hpp"

namespace closure::process {
namespace {

constexpr bool kSanitizerMalloc = detail::kAddressSanitizer;  // no mallopt there

bool limited(int resource) {
  rlimit limit{};
  return ::getrlimit(resource, &limit) == 0 && limit.rlim_cur != RLIM_INFINITY;
}

// Runs check in a child; its exit status (0: passed, else the failed step's number).
int in_child(const std::function<int()>& check) {
  const pid_t pid = ::fork();
  if (pid == 0) ::_exit(check());
  int status = 0;
  ::waitpid(pid, &status, 0);
  return WIFEXITED(status) ? WEXITSTATUS(status) : 100;
}

long minor_faults() {
  rusage usage{};
  ::getrusage(RUSAGE_SELF, &usage);
  return usage.ru_minflt;
}

constexpr size_t kBlock = size_t{3} << 20;
constexpr long kBlockPages = long(kBlock / 4096);

// Writes every byte of p, in a way the compiler may not drop (a memset into a block that is
// only freed after is a dead store).
void write_all(void* p, int value) {
  std::memset(p, value, kBlock);
  asm volatile("" : : "r"(p) : "memory");
}

// The page faults of writing a fresh block of kBlock bytes, right after another was
// written and freed.
long faults_of_a_block_after_one_freed() {
  void* first = std::malloc(kBlock);
  write_all(first, 1);
  std::free(first);
  const long before = minor_faults();
  void* again = std::malloc(kBlock);
  write_all(again, 2);
  const long faults = minor_faults() - before;
  std::free(again);
  return faults;
}

// glibc's default start (a fixed threshold of 128 KiB, as a fresh process has), so that
// what earlier tests freed in this process does not decide the outcome.
bool glibc_defaults() {
  return ::mallopt(M_MMAP_THRESHOLD, 128 << 10) == 1 && ::mallopt(M_TRIM_THRESHOLD, 128 << 10) == 1;
}

TEST(AllocatorPolicy, AFreedBlockOfAFewMegabytesIsReusedWithoutFaults) {
  if (kSanitizerMalloc) GTEST_SKIP() << "the sanitizer's malloc takes no mallopt";
  if (limited(RLIMIT_AS) || limited(RLIMIT_DATA)) GTEST_SKIP() << "run under ulimit -v or -d";
  EXPECT_EQ(in_child([] {
              ::unsetenv("GLIBC_TUNABLES");
              ::unsetenv("CLOSURE_HEAP_REUSE");
              if (!glibc_defaults()) return 1;
              // Mapped on its own and unmapped when freed: every page faulted in again.
              if (faults_of_a_block_after_one_freed() < kBlockPages / 2) return 2;
              if (!keep_freed_memory_for_reuse()) return 3;
              faults_of_a_block_after_one_freed();  // the heap grows to hold it once
              return faults_of_a_block_after_one_freed() < kBlockPages / 8 ? 0 : 4;
            }),
            0);
}

TEST(AllocatorPolicy, LeftAloneUnderADataLimit) {
  if (kSanitizerMalloc) GTEST_SKIP() << "the sanitizer's malloc takes no mallopt";
  EXPECT_EQ(in_child([] {
              if (!glibc_defaults()) return 1;
              rlimit limit{};
              if (::getrlimit(RLIMIT_DATA, &limit) != 0) return 2;
              // A limit within the hard one, which an unprivileged process may not raise.
              const rlim_t cap = rlim_t{64} << 30;
              limit.rlim_cur = limit.rlim_max == RLIM_INFINITY ? cap : limit.rlim_max;
              if (::setrlimit(RLIMIT_DATA, &limit) != 0) return 3;
              if (keep_freed_memory_for_reuse()) return 4;
              return faults_of_a_block_after_one_freed() >= kBlockPages / 2 ? 0 : 5;
            }),
            0);
}

TEST(AllocatorPolicy, LeftAloneWhereTheUserChoseGlibcsThresholds) {
  if (kSanitizerMalloc) GTEST_SKIP() << "the sanitizer's malloc takes no mallopt";
  if (limited(RLIMIT_AS) || limited(RLIMIT_DATA)) GTEST_SKIP() << "run under ulimit -v or -d";
  for (const char* setting : {"GLIBC_TUNABLES=glibc.malloc.trim_threshold=1000000",
                              "MALLOC_MMAP_THRESHOLD_=1000000", "CLOSURE_HEAP_REUSE=off"}) {
    SCOPED_TRACE(setting);
    EXPECT_EQ(in_child([setting] {
                ::unsetenv("GLIBC_TUNABLES");
                ::unsetenv("CLOSURE_HEAP_REUSE");
                if (::putenv(const_cast<char*>(setting)) != 0) return 1;
                if (!glibc_defaults()) return 2;
                if (keep_freed_memory_for_reuse()) return 3;
                return faults_of_a_block_after_one_freed() >= kBlockPages / 2 ? 0 : 4;
              }),
              0);
  }
}

}  // namespace
}  // namespace closure::process
