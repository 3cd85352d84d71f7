// Reads the limits that bound this process's allocations (see available_memory.hpp).
#include "closure/util/available_memory.hpp"

#include <sys/resource.h>
#include <unistd.h>

#include <algorithm>
#include <cstdint>
#include <fstream>
#include <string>

namespace closure {
namespace {

// Fields of /proc/self/statm are in pages: size (address space), resident, shared,
// text, lib, data (data + stack).
bool statm(uint64_t& size_bytes, uint64_t& data_bytes) {
  std::ifstream in("/proc/self/statm");
  uint64_t size = 0, resident = 0, shared = 0, text = 0, lib = 0, data = 0;
  if (!(in >> size >> resident >> shared >> text >> lib >> data)) return false;
  const uint64_t page = uint64_t(::sysconf(_SC_PAGE_SIZE));
  size_bytes = size * page;
  data_bytes = data * page;
  return true;
}

// A cgroup v2 file holding a byte count, or "max"; false when absent or unlimited.
bool cgroup_value(const std::string& name, uint64_t& value) {
  std::ifstream in("/sys/fs/cgroup/" + name);
  std::string text;
  if (!(in >> text) || text == "max") return false;
  try {
    value = std::stoull(text);
    return true;
  } catch (const std::exception&) {
    return false;
  }
}

}  // namespace

size_t available_memory_bytes() {
  const uint64_t page = uint64_t(::sysconf(_SC_PAGE_SIZE));
  uint64_t avail = uint64_t(::sysconf(_SC_PHYS_PAGES)) * page;
  auto clamp_to = [&](uint64_t limit, uint64_t used) {
    avail = std::min(avail, limit > used ? limit - used : 0);
  };
  uint64_t mapped = 0, data = 0;
  const bool have_statm = statm(mapped, data);
  rlimit rl{};
  if (have_statm && ::getrlimit(RLIMIT_AS, &rl) == 0 && rl.rlim_cur != RLIM_INFINITY)
    clamp_to(rl.rlim_cur, mapped);
  if (have_statm && ::getrlimit(RLIMIT_DATA, &rl) == 0 && rl.rlim_cur != RLIM_INFINITY)
    clamp_to(rl.rlim_cur, data);
  uint64_t cg_max = 0, cg_current = 0;
  if (cgroup_value("memory.max", cg_max)) {
    if (!cgroup_value("memory.current", cg_current)) cg_current = 0;
    clamp_to(cg_max, cg_current);
  }
  return size_t(std::max(avail, page));
}

}  // namespace closure
