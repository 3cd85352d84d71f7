// libFuzzer target: read_graph's entry: format detection by content and by extension, and the
// input layer itself (a mapped file, gzip members inflated by the streaming path), through a
// file in memory (memfd). The first byte picks the file name's extension and, for the file,
// the read options (a header said or not, a delimiter named).
#include <sys/mman.h>
#include <unistd.h>

#include <string>

#include "fuzz_reader.hpp"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  if (size == 0) return 0;
  static const char* const kNames[] = {"g", "g.gra", "g.mtx", "g.dot", "g.gr", "g.txt.gz"};
  const char* name = kNames[data[0] % 6];
  closure::fuzz::read_as(data + 1, size - 1, closure::InputFormat::kAuto, name);
  // The same bytes as a file: mapped when plain, streamed when gzip.
  const int fd = ::memfd_create("fuzz", 0);
  if (fd < 0) return 0;
  if (::write(fd, data + 1, size - 1) == static_cast<ssize_t>(size - 1)) {
    try {
      closure::ReadOptions options;
      options.header = static_cast<closure::HeaderRow>(data[0] / 6 % 3);
      static const char kDelimiters[] = {0, ';', '|', '\t'};
      options.delimiter = kDelimiters[data[0] / 18 % 4];
      const auto r = closure::read_graph("/proc/self/fd/" + std::to_string(fd), options);
      volatile size_t sink = r.graph.edge_count();
      (void)sink;
    } catch (const closure::InputError&) {
    } catch (const closure::UsageError&) {  // a header or delimiter the detected format lacks
    }
  }
  ::close(fd);
  return 0;
}
