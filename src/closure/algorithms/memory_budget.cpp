// Memory limits from /proc, cgroups and rlimits.
#include "closure/algorithms/memory_budget.hpp"

#include <sys/resource.h>
#include <unistd.h>

#include <algorithm>
#include <fstream>
#include <sstream>

#include "closure/algorithms/compute.hpp"

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

size_t address_space_available() {
  struct rlimit rl {};
  if (::getrlimit(RLIMIT_AS, &rl) != 0 || rl.rlim_cur == RLIM_INFINITY) return SIZE_MAX;
  std::ifstream statm("/proc/self/statm");
  size_t pages = 0;
  statm >> pages;
  const size_t mapped = pages * size_t(::sysconf(_SC_PAGE_SIZE));
  return rl.rlim_cur > mapped ? size_t(rl.rlim_cur) - mapped : 0;
}

}  // namespace

size_t available_host_memory() {
  return std::min({meminfo_available(), cgroup_available(), address_space_available()});
}

void MemoryBudget::charge(size_t bytes) {
  const size_t before = used_.fetch_add(bytes, std::memory_order_relaxed);
  if (fixed_ + before + bytes <= limit_) return;
  used_.fetch_sub(bytes, std::memory_order_relaxed);
  throw OutOfMemoryError(
      what_ + " needs more than " + format_bytes(double(fixed_ + before + bytes)) +
      " of host memory (" + format_bytes(double(fixed_)) + " of work arrays, " +
      format_bytes(double(before + bytes)) + " of closure rows so far); " +
      format_bytes(double(limit_)) + " is available (free memory, ulimit -v or a cgroup limit)");
}

}  // namespace closure
