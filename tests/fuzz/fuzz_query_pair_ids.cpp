// libFuzzer target for `query --pairs --pairs-format u32` input (pair_ids.hpp), differential:
// any bytes, read as pairs of little-endian 32-bit vertex numbers from a memory file and from
// a pipe, must be answered one byte each with the closure's verdict of the same vertices (0
// no, 1 yes, 2 u unknown, 3 v unknown); bytes that are no whole number of pairs must be
// refused, from the file before any answer, from the pipe after the whole pairs' answers; an
// index whose vertices have names refuses them. The graph is fixed and small: a
// cycle, a self-loop, a DAG part, an isolated vertex, called 0..7. The first byte picks
// reflexive answers, and whether each number is taken modulo 11 (mostly known vertices).
#include <sys/mman.h>
#include <unistd.h>

#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <memory>
#include <sstream>
#include <string>
#include <vector>

#include "app/tool/index_queries.hpp"
#include "app/tool/pair_ids.hpp"
#include "app/tool/reachability_queries.hpp"
#include "closure/algorithms/host_closure.hpp"
#include "closure/errors.hpp"
#include "closure/graph/input_error.hpp"
#include "closure/reach/living_index.hpp"
#include "closure/reach/reach_index.hpp"
#include "query_fixture.hpp"

namespace {

// The pairs answered from `fd` (closed here); throws as answer_pair_ids() does, `written`
// then holding what was answered before.
std::string answered(closure::reach::IndexQueries& queries, int fd, std::string& written) {
  std::ostringstream out;
  try {
    closure::reach::answer_pair_ids(queries, fd, "q.u32", out);
  } catch (...) {
    ::close(fd);
    written = out.str();
    throw;
  }
  ::close(fd);
  return out.str();
}

// A memory file holding `in` (a regular file: its size is checked before any answer).
int memory_file(const std::string& in) {
  const int fd = ::memfd_create("pairs", MFD_CLOEXEC);
  if (fd < 0) std::abort();
  if (!in.empty() && ::write(fd, in.data(), in.size()) != ssize_t(in.size())) std::abort();
  ::lseek(fd, 0, SEEK_SET);
  return fd;
}

// A pipe holding `in` (at most its 64 KiB buffer), its writing end closed: read as it comes,
// a torn last pair found only at its end.
int pipe_holding(const std::string& in) {
  int fds[2];
  if (::pipe(fds) != 0) std::abort();
  if (!in.empty() && ::write(fds[1], in.data(), in.size()) != ssize_t(in.size())) std::abort();
  ::close(fds[1]);
  return fds[0];
}

uint32_t u32_at(const std::string& s, size_t at) {
  uint32_t x;
  std::memcpy(&x, s.data() + at, 4);
  return x;
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  static const closure::fuzz::QueryFixture numbered({});
  static const closure::fuzz::QueryFixture named({"a", "b", "c", "d", "e", "f", "g", "h"});
  if (size == 0) return 0;
  const bool reflexive = data[0] & 1;
  std::string in(reinterpret_cast<const char*>(data + 1), size - 1);
  if (data[0] & 2)
    for (size_t at = 0; at + 4 <= in.size(); at += 4) {
      const uint32_t x = u32_at(in, at) % 11;
      std::memcpy(in.data() + at, &x, 4);
    }
  closure::reach::IndexQueries queries(*numbered.index, reflexive);
  closure::ReachabilityIndex from_closure(numbered.graph, numbered.closure, reflexive);
  std::string want;  // the whole pairs' verdicts
  for (size_t at = 0; at + 8 <= in.size(); at += 8) {
    const uint32_t u = u32_at(in, at), v = u32_at(in, at + 4);
    const closure::QueryAnswer a = from_closure.answer(std::to_string(u), std::to_string(v));
    want += a.status == closure::QueryAnswer::kReachable      ? '\1'
            : a.status != closure::QueryAnswer::kUnknownLabel ? '\0'
            : u >= 8                                          ? '\2'
                                                              : '\3';
  }
  const bool torn = in.size() % 8 != 0;
  std::string written = "none";
  // A file: refused before any answer where torn, else the closure's verdicts.
  try {
    if (answered(queries, memory_file(in), written) != want || torn) std::abort();
  } catch (const closure::InputError&) {
    if (!torn || !written.empty()) std::abort();
  }
  // A pipe: the whole pairs' verdicts, then (where torn) the refusal.
  if (in.size() <= (size_t{60} << 10)) {
    written = "none";
    try {
      if (answered(queries, pipe_holding(in), written) != want || torn) std::abort();
    } catch (const closure::InputError&) {
      if (!torn || written != want) std::abort();
    }
  }
  closure::reach::IndexQueries by_name(*named.index, reflexive);
  try {
    answered(by_name, memory_file(in), written);
    std::abort();  // numbers taken as a named index's vertices
  } catch (const closure::UsageError&) {
  }
  return 0;
}
