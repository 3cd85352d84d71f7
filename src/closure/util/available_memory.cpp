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

// A number from a one-value file ("max" and unreadable files: none).
bool read_number(const std::string& path, size_t& out) {
  std::ifstream in(path);
  std::string text;
  if (!(in >> text) || text == "max") return false;
  try {
    out = size_t(std::stoull(text));
    return true;
  } catch (const std::exception&) {
    return false;
  }
}

size_t meminfo_available() {
  std::ifstream in("/proc/meminfo");
  for (std::string line; std::getline(in, line);)
    if (line.rfind("MemAvailable:", 0) == 0) return size_t(std::stoull(line.substr(13))) * 1024;
  return host_physical_memory();
}

// This process's cgroup folder (v2: the "0::/path" line), else the v1 memory controller's.
size_t cgroup_available() {
  std::ifstream in("/proc/self/cgroup");
  size_t best = SIZE_MAX;
  for (std::string line; std::getline(in, line);) {
    const auto a = line.find(':'), b = line.find(':', a + 1);
    if (a == std::string::npos || b == std::string::npos) continue;
    const std::string controllers = line.substr(a + 1, b - a - 1), path = line.substr(b + 1);
    size_t limit = 0, current = 0;
    if (controllers.empty()) {  // v2
      // Limits of the parents apply too: walk up to the root.
      for (std::string p = path;; p = p.substr(0, p.find_last_of('/'))) {
        const std::string dir = "/sys/fs/cgroup" + (p == "/" ? std::string() : p);
        if (read_number(dir + "/memory.max", limit)) {
          read_number(dir + "/memory.current", current);
          best = std::min(best, limit > current ? limit - current : 0);
        }
        if (p.empty() || p == "/") break;
      }
    } else if (controllers.find("memory") != std::string::npos) {  // v1
      const std::string dir = "/sys/fs/cgroup/memory" + path;
      if (read_number(dir + "/memory.limit_in_bytes", limit) && limit < (size_t{1} << 60)) {
        read_number(dir + "/memory.usage_in_bytes", current);
        best = std::min(best, limit > current ? limit - current : 0);
      }
    }
  }
  return best;
}

// RLIMIT_AS against the mapped size and RLIMIT_DATA against the data segment, from
// /proc/self/statm (pages: size, resident, shared, text, lib, data).
size_t rlimits_available() {
  std::ifstream in("/proc/self/statm");
  uint64_t size = 0, resident = 0, shared = 0, text = 0, lib = 0, data = 0;
  if (!(in >> size >> resident >> shared >> text >> lib >> data)) return SIZE_MAX;
  const uint64_t page = uint64_t(::sysconf(_SC_PAGE_SIZE));
  size_t best = SIZE_MAX;
  rlimit rl{};
  if (::getrlimit(RLIMIT_AS, &rl) == 0 && rl.rlim_cur != RLIM_INFINITY)
    best = std::min<size_t>(best, rl.rlim_cur > size * page ? rl.rlim_cur - size * page : 0);
  if (::getrlimit(RLIMIT_DATA, &rl) == 0 && rl.rlim_cur != RLIM_INFINITY)
    best = std::min<size_t>(best, rl.rlim_cur > data * page ? rl.rlim_cur - data * page : 0);
  return best;
}

}  // namespace

size_t available_host_memory() {
  const size_t page = size_t(::sysconf(_SC_PAGE_SIZE));
  return std::max(page, std::min({meminfo_available(), cgroup_available(), rlimits_available()}));
}

size_t address_space_headroom() {
  rlimit rl{};
  if (::getrlimit(RLIMIT_AS, &rl) != 0 || rl.rlim_cur == RLIM_INFINITY) return SIZE_MAX;
  std::ifstream in("/proc/self/statm");
  uint64_t size = 0;
  if (!(in >> size)) return SIZE_MAX;
  const uint64_t mapped = size * uint64_t(::sysconf(_SC_PAGE_SIZE));
  return rl.rlim_cur > mapped ? size_t(rl.rlim_cur - mapped) : 0;
}

size_t host_physical_memory() {
  return size_t(::sysconf(_SC_PHYS_PAGES)) * size_t(::sysconf(_SC_PAGE_SIZE));
}

}  // namespace closure
