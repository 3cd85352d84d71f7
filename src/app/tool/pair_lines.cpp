// Block-wise answers to `--pairs` lines from an index.
#include "app/tool/pair_lines.hpp"

#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <string_view>
#include <utility>
#include <vector>

#include "closure/graph/input_error.hpp"
#include "closure/graph/text_scan.hpp"

namespace closure::reach {
namespace {

using closure::InputError;

// A read asks for at least this much room: a file is answered about a MiB of lines at a time.
constexpr size_t kReadBytes = size_t{1} << 20;

// The fields of a line as `>>` splits them (the C locale's spaces), as answer_pairs() does.
inline bool is_space(char c) {
  return c == ' ' || c == '\t' || c == '\n' || c == '\v' || c == '\f' || c == '\r';
}
inline std::string_view next_field(const char*& at, const char* end) {
  while (at < end && is_space(*at)) ++at;
  const char* first = at;
  while (at < end && !is_space(*at)) ++at;
  return {first, size_t(at - first)};
}

using Views = std::vector<std::pair<std::string_view, std::string_view>>;

// The lines of one block: the questions, and the malformed lines with how many questions
// came before each (so that their messages keep their place).
struct Block {
  Views questions;
  std::vector<std::pair<size_t, uint64_t>> malformed;  // (questions before, line number)
  void clear() {
    questions.clear();
    malformed.clear();
  }
};

// Splits [p, end) (whole lines; the last may lack its line end) into `block`.
void split_lines(const char* p, const char* end, uint64_t& line_no, Block& block) {
  while (p < end) {
    const char* nl = static_cast<const char*>(std::memchr(p, '\n', size_t(end - p)));
    const char* line_end = nl ? nl : end;
    ++line_no;
    const char* at = p;
    const std::string_view u = next_field(at, line_end);
    if (!u.empty() && u[0] != '#') {
      const std::string_view v = next_field(at, line_end);
      const std::string_view extra = next_field(at, line_end);
      if (v.empty() || (!extra.empty() && extra[0] != '#'))
        block.malformed.emplace_back(block.questions.size(), line_no);
      else
        block.questions.emplace_back(text::unescape_label(u), text::unescape_label(v));
    }
    p = nl ? nl + 1 : end;
  }
}

inline void append(std::string& out, std::string_view a, std::string_view b,
                   std::string_view tail) {
  const size_t at = out.size();
  out.resize(at + a.size() + b.size() + 1 + tail.size());
  char* w = out.data() + at;
  std::memcpy(w, a.data(), a.size());
  w += a.size();
  *w++ = ' ';
  std::memcpy(w, b.data(), b.size());
  w += b.size();
  std::memcpy(w, tail.data(), tail.size());
}

void append_malformed(std::string& out, const std::string& name, uint64_t line_no) {
  out.append(name).append(":").append(std::to_string(line_no));
  out.append(": expected two labels 'u v'\n");
}

// The block's answer lines, in input order, into `out`.
void answer_block(IndexQueries& queries, const Block& block, const std::string& name,
                  std::string& out, QueryBatchStats& stats) {
  const std::vector<PairVerdict> verdicts = queries.decide_many(block.questions);
  size_t next_bad = 0;
  for (size_t i = 0; i <= block.questions.size(); ++i) {
    for (; next_bad < block.malformed.size() && block.malformed[next_bad].first == i; ++next_bad)
      append_malformed(out, name, block.malformed[next_bad].second);
    if (i == block.questions.size()) break;
    const auto& [u, v] = block.questions[i];
    switch (verdicts[i]) {
      case PairVerdict::kYes:
        append(out, u, v, " yes\n");
        ++stats.reachable;
        break;
      case PairVerdict::kNo:
        append(out, u, v, " no\n");
        break;
      default:
        append(out, u, v, " unknown vertex '");
        out.append(verdicts[i] == PairVerdict::kUnknownFirst ? u : v).append("'\n");
        ++stats.unknown;
    }
  }
  stats.answered += block.questions.size();
  stats.malformed += block.malformed.size();
}

// One read into buf[size, buf.size()); 0 at the end of the input.
size_t read_some(int fd, std::string& buf, size_t size, const std::string& name) {
  for (;;) {
    const ssize_t r = ::read(fd, buf.data() + size, buf.size() - size);
    if (r >= 0) return size_t(r);
    if (errno != EINTR)
      throw InputError(name, 0, std::string("read error: ") + std::strerror(errno));
  }
}

}  // namespace

QueryBatchStats answer_pair_lines(IndexQueries& queries, int fd, const std::string& name,
                                  std::ostream& out) {
  QueryBatchStats stats;
  std::string buf(2 * kReadBytes, '\0'), answers;
  size_t start = 0, size = 0;  // buf[start, size): read, not yet answered (a partial line)
  uint64_t line_no = 0;
  Block block;
  for (bool more = true; more;) {
    if (buf.size() - size < kReadBytes) {  // room: move the partial line down, or grow
      if (start > 0) {
        std::memmove(buf.data(), buf.data() + start, size - start);
        size -= start, start = 0;
      }
      if (buf.size() - size < kReadBytes) buf.resize(2 * buf.size());
    }
    const size_t got = read_some(fd, buf, size, name);
    more = got > 0;
    size += got;
    // Complete lines only, but everything at the end of the input.
    const char* first = buf.data() + start;
    const char* end = buf.data() + size;
    if (more) {
      const void* last = ::memrchr(first, '\n', size_t(end - first));
      if (!last) continue;
      end = static_cast<const char*>(last) + 1;
    }
    block.clear();
    split_lines(first, end, line_no, block);
    start = size_t(end - buf.data());
    answers.clear();
    answer_block(queries, block, name, answers, stats);
    out.write(answers.data(), std::streamsize(answers.size()));
    out.flush();
  }
  return stats;
}

}  // namespace closure::reach
