#include "closure/util/resource_failure.hpp"

#include <sys/resource.h>

#include <cstdio>
#include <new>
#include <string_view>
#include <system_error>

#include "closure/util/available_memory.hpp"

namespace closure {
namespace {

// The memory this process may still take (the memory guard's figure), in `buf`.
const char* memory_left(char (&buf)[64]) {
  try {
    std::snprintf(buf, sizeof buf, "%s", format_bytes(double(available_host_memory())).c_str());
  } catch (...) {
    std::snprintf(buf, sizeof buf, "too little memory to say how much");
  }
  return buf;
}

// " (N processes)" where ulimit -u sets a limit, in `buf`.
const char* process_limit(char (&buf)[64]) {
  rlimit rl{};
  buf[0] = '\0';
  if (::getrlimit(RLIMIT_NPROC, &rl) == 0 && rl.rlim_cur != RLIM_INFINITY)
    std::snprintf(buf, sizeof buf, " (%llu processes)",
                  static_cast<unsigned long long>(rl.rlim_cur));
  return buf;
}

}  // namespace

ResourceFailure resource_failure_of(const std::exception& e) {
  if (dynamic_cast<const std::bad_alloc*>(&e)) return ResourceFailure::kAllocation;
  const auto* system = dynamic_cast<const std::system_error*>(&e);
  if ((system && system->code() == std::errc::resource_unavailable_try_again) ||
      std::string_view(e.what()).starts_with("pthread_create has failed"))
    return ResourceFailure::kThreadStart;
  return ResourceFailure::kNone;
}

const char* resource_failure_text(const std::exception& e, ResourceFailure f, Audience audience,
                                  char* buf, size_t size) {
  char left[64], processes[64];
  if (f == ResourceFailure::kAllocation)
    std::snprintf(buf, size,
                  "out of memory (an allocation failed with %s left to this process; the limit "
                  "may be the free memory, ulimit -v or a cgroup; %s or a smaller graph)",
                  memory_left(left), advice_words(Advice::kSparseMethod, audience));
  else
    std::snprintf(buf, size,
                  "out of memory or threads: a thread could not start (%s) with %s left to this "
                  "process; the limit may be the free memory, ulimit -v, ulimit -u%s or a "
                  "cgroup; %s",
                  e.what(), memory_left(left), process_limit(processes),
                  advice_words(Advice::kOneThread, audience));
  return buf;
}

}  // namespace closure
