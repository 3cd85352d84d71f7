// The executable's allocator policy (app/process/allocator_policy): blocks of a few hundred
// KB to a few MB come from the heap and are reused once freed, instead of being mapped and
// unmapped each time; not under an address-space or data limit. Each case runs in a forked
// child, whose malloc settings then die with it.
#include <gtest/gtest.h>
#include <malloc.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cstdlib>
#include <functional>

#include "app/process/allocator_policy.hpp"

namespace closure::process {
namespace {

// Runs check in a child; its exit status (0: passed, else the failed step's number).
int in_child(const std::function<int()>& check) {
  const pid_t pid = ::fork();
  if (pid == 0) ::_exit(check());
  int status = 0;
  ::waitpid(pid, &status, 0);
  return WIFEXITED(status) ? WEXITSTATUS(status) : 100;
}

// Whether a fresh block of `bytes` was mapped on its own (glibc's mmapped chunks count).
bool mapped_on_its_own(size_t bytes) {
  const size_t before = ::mallinfo2().hblks;
  void* volatile p = std::malloc(bytes);
  const bool mapped = ::mallinfo2().hblks > before;
  std::free(p);
  return mapped;
}

constexpr size_t kBlock = size_t{3} << 20;

TEST(AllocatorPolicy, AFreedBlockOfAFewMegabytesIsReused) {
  EXPECT_EQ(in_child([] {
              // glibc's default first (a fixed threshold of 128 KiB): such a block is mapped.
              if (::mallopt(M_MMAP_THRESHOLD, 128 << 10) != 1) return 1;
              if (!mapped_on_its_own(kBlock)) return 2;
              if (!keep_freed_memory_for_reuse()) return 3;
              if (mapped_on_its_own(kBlock)) return 4;
              // Freed, the same memory is handed out again: no fresh pages to fault in.
              void* first = std::malloc(kBlock);
              std::free(first);
              void* again = std::malloc(kBlock);
              const bool same = again == first;
              std::free(again);
              return same ? 0 : 5;
            }),
            0);
}

TEST(AllocatorPolicy, LeftAloneUnderADataLimit) {
  EXPECT_EQ(in_child([] {
              if (::mallopt(M_MMAP_THRESHOLD, 128 << 10) != 1) return 1;
              const rlimit limit{rlim_t{64} << 30, RLIM_INFINITY};
              if (::setrlimit(RLIMIT_DATA, &limit) != 0) return 2;
              if (keep_freed_memory_for_reuse()) return 3;
              return mapped_on_its_own(kBlock) ? 0 : 4;
            }),
            0);
}

}  // namespace
}  // namespace closure::process
