// Reads the limits that bound this process's allocations (see available_memory.hpp).
#include "closure/util/available_memory.hpp"

#include <fcntl.h>
#include <sys/resource.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <charconv>
#include <cstdint>
#include <span>
#include <string>
#include <string_view>

namespace closure {
namespace {

// A kernel-made text file (/proc, /sys) in one read into `buf`, without an iostream's
// set-up: these few reads are most of what a small graph's memory check costs. The text,
// at most the buffer's size; empty where it cannot be read. (Not read_small_file: it reads
// what fstat's size says, and the kernel reports these files' size as 0.)
std::string_view read_text(const char* path, std::span<char> buf) {
  const int fd = ::open(path, O_RDONLY | O_CLOEXEC | O_NONBLOCK);
  if (fd < 0) return {};
  size_t got = 0;
  while (got < buf.size()) {
    const ssize_t n = ::read(fd, buf.data() + got, buf.size() - got);
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) break;
    got += size_t(n);
  }
  ::close(fd);
  return {buf.data(), got};
}

// The unsigned number at the start of `text` after blanks, advancing it past the number.
bool take_number(std::string_view& text, uint64_t& out) {
  while (!text.empty() && (text.front() == ' ' || text.front() == '\t')) text.remove_prefix(1);
  const auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), out);
  if (ec != std::errc()) return false;
  text.remove_prefix(size_t(end - text.data()));
  return true;
}

// A number from a one-value file ("max" and unreadable files: none).
bool read_number(const std::string& path, size_t& out) {
  char buf[64];
  std::string_view text = read_text(path.c_str(), buf);
  uint64_t value = 0;
  if (!take_number(text, value)) return false;
  out = size_t(value);
  return true;
}

size_t meminfo_available() {
  char buf[4096];
  std::string_view text = read_text("/proc/meminfo", buf);
  constexpr std::string_view kKey = "MemAvailable:";
  if (const size_t at = text.find(kKey); at != std::string_view::npos) {
    text.remove_prefix(at + kKey.size());
    uint64_t kb = 0;
    if (take_number(text, kb)) return size_t(kb) * 1024;
  }
  return host_physical_memory();
}

// This process's cgroup folder (v2: the "0::/path" line), else the v1 memory controller's.
size_t cgroup_available() {
  char buf[4096];
  std::string_view text = read_text("/proc/self/cgroup", buf);
  size_t best = SIZE_MAX;
  while (!text.empty()) {
    const size_t eol = std::min(text.find('\n'), text.size());
    const std::string_view line = text.substr(0, eol);
    text.remove_prefix(std::min(text.size(), eol + 1));
    const auto a = line.find(':');
    const auto b = a == std::string_view::npos ? a : line.find(':', a + 1);
    if (b == std::string_view::npos) continue;
    const std::string_view controllers = line.substr(a + 1, b - a - 1);
    const std::string path(line.substr(b + 1));
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
    } else if (controllers.find("memory") != std::string_view::npos) {  // v1
      const std::string dir = "/sys/fs/cgroup/memory" + path;
      if (read_number(dir + "/memory.limit_in_bytes", limit) && limit < (size_t{1} << 60)) {
        read_number(dir + "/memory.usage_in_bytes", current);
        best = std::min(best, limit > current ? limit - current : 0);
      }
    }
  }
  return best;
}

// Pages mapped and pages of data segment, from /proc/self/statm (pages: size, resident,
// shared, text, lib, data); false where it cannot be read.
bool statm_pages(uint64_t& size, uint64_t& data) {
  char buf[256];
  std::string_view text = read_text("/proc/self/statm", buf);
  uint64_t resident = 0, shared = 0, code = 0, lib = 0;
  return take_number(text, size) && take_number(text, resident) && take_number(text, shared) &&
         take_number(text, code) && take_number(text, lib) && take_number(text, data);
}

// RLIMIT_AS against the mapped size and RLIMIT_DATA against the data segment; statm is read
// only where one of them is set.
size_t rlimits_available() {
  rlimit as{}, data_limit{};
  const bool as_set = ::getrlimit(RLIMIT_AS, &as) == 0 && as.rlim_cur != RLIM_INFINITY;
  const bool data_set =
      ::getrlimit(RLIMIT_DATA, &data_limit) == 0 && data_limit.rlim_cur != RLIM_INFINITY;
  if (!as_set && !data_set) return SIZE_MAX;
  uint64_t size = 0, data = 0;
  if (!statm_pages(size, data)) return SIZE_MAX;
  const uint64_t page = uint64_t(::sysconf(_SC_PAGE_SIZE));
  size_t best = SIZE_MAX;
  if (as_set)
    best = std::min<size_t>(best, as.rlim_cur > size * page ? as.rlim_cur - size * page : 0);
  if (data_set)
    best = std::min<size_t>(
        best, data_limit.rlim_cur > data * page ? data_limit.rlim_cur - data * page : 0);
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
  uint64_t size = 0, data = 0;
  if (!statm_pages(size, data)) return SIZE_MAX;
  const uint64_t mapped = size * uint64_t(::sysconf(_SC_PAGE_SIZE));
  return rl.rlim_cur > mapped ? size_t(rl.rlim_cur - mapped) : 0;
}

size_t cpu_device_reserve(unsigned workers) {
  const bool limited = address_space_headroom() != SIZE_MAX;
  return kCpuDeviceOwnBytes + (limited ? size_t(workers) * (size_t{72} << 20) : 0);
}

size_t host_physical_memory() {
  return size_t(::sysconf(_SC_PHYS_PAGES)) * size_t(::sysconf(_SC_PAGE_SIZE));
}

}  // namespace closure
