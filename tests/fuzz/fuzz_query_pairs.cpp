// libFuzzer target for `query --pairs` input, differential: any bytes, read as lines of
// "u v" pairs, must get the same output lines from a reachability index (batched answers of
// any batch size, one by one, and the block reader of pair_lines.hpp from a memory file, one
// input in 64 also repeated past the size it cuts into pieces for threads) as from the
// closure itself, or the target aborts. The graphs are fixed and small: a cycle, a
// self-loop, a DAG part, an isolated vertex; one with names that are prefixes of each other
// and a decimal name (the index's name table), one whose vertices are called 0..7 (no names
// stored: labels parsed as decimals).
#include <sys/mman.h>
#include <unistd.h>

#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <memory>
#include <sstream>
#include <string>
#include <utility>
#include <vector>

#include "app/tool/index_queries.hpp"
#include "app/tool/pair_lines.hpp"
#include "app/tool/reachability_queries.hpp"
#include "closure/algorithms/host_closure.hpp"
#include "closure/reach/living_index.hpp"
#include "closure/reach/reach_index.hpp"
#include "query_fixture.hpp"

namespace {

std::string answered(const closure::BatchAnswerer& answer, size_t batch, const std::string& in) {
  std::istringstream input(in);
  std::ostringstream out;
  closure::answer_pairs(answer, batch, input, "q.txt", out);
  return out.str();
}

// The block reader (pair_lines.hpp) over the same bytes, from a memory file.
std::string by_blocks(closure::reach::IndexQueries& queries, const std::string& in) {
  const int fd = ::memfd_create("pairs", MFD_CLOEXEC);
  if (fd < 0) std::abort();
  for (size_t done = 0; done < in.size();) {
    const ssize_t w = ::write(fd, in.data() + done, in.size() - done);
    if (w <= 0) std::abort();
    done += size_t(w);
  }
  ::lseek(fd, 0, SEEK_SET);
  std::ostringstream out;
  closure::reach::answer_pair_lines(queries, fd, "q.txt", out);
  ::close(fd);
  return out.str();
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  static const closure::fuzz::QueryFixture named(
      {"a", "ab", "abc", "7", "b", "loop", "x\xc3\xa9", "lone"});
  static const closure::fuzz::QueryFixture numbered({});
  if (size == 0) return 0;
  const closure::fuzz::QueryFixture& f = data[0] & 0x80 ? numbered : named;
  const bool reflexive = data[0] & 1;
  const size_t batch = 1 + ((data[0] >> 1) & 0x3f) % 9;
  const std::string in(reinterpret_cast<const char*>(data + 1), size - 1);

  closure::ReachabilityIndex from_closure(f.graph, f.closure, reflexive);
  std::istringstream input(in);
  std::ostringstream expected;
  closure::answer_pairs(from_closure, input, "q.txt", expected);

  closure::reach::IndexQueries queries(*f.index, reflexive);
  const std::string batched =
      answered([&](const auto& questions) { return queries.answer_many(questions); }, batch, in);
  const std::string one_by_one = answered(
      [&](const auto& questions) {
        std::vector<closure::QueryAnswer> answers;
        for (const auto& [u, v] : questions) answers.push_back(queries.answer(u, v));
        return answers;
      },
      1, in);
  if (batched != expected.str() || one_by_one != expected.str()) std::abort();
  if (by_blocks(queries, in) != expected.str()) std::abort();
  // One input in 64: its lines again and again past 256 KiB, so that the block reader cuts
  // each read into pieces answered on threads (pair_lines.cpp), against the closure's answers
  // of the same bytes (malformed lines' numbers included).
  if (data[0] % 64 == 5 && !in.empty()) {
    std::string many;
    while (many.size() < (size_t{300} << 10)) many += in + "\n";
    std::istringstream all(many);
    std::ostringstream want;
    closure::answer_pairs(from_closure, all, "q.txt", want);
    if (by_blocks(queries, many) != want.str()) std::abort();
  }
  return 0;
}
