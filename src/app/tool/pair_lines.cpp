// Block-wise answers to `--pairs` lines from an index.
#include "app/tool/pair_lines.hpp"

#include <algorithm>
#include <bit>
#include <cstring>
#include <functional>
#include <memory>
#include <span>
#include <string_view>
#include <utility>
#include <vector>

#include "app/tool/pair_digits.hpp"
#include "closure/cpu_features.hpp"
#include "closure/executor.hpp"
#include "closure/graph/input_error.hpp"
#include "closure/graph/text_scan.hpp"

namespace closure::reach {
namespace {

using closure::InputError;

// A read asks for at least this much room: a file is read about a MiB of lines at a time.
constexpr size_t kReadBytes = size_t{1} << 20;
// A buffer of at least this many bytes of lines is cut into pieces answered on threads of
// their own (a smaller one, as a pipe's, on this thread: starting threads would cost more).
constexpr size_t kParallelBytes = size_t{256} << 10;
constexpr unsigned kMaxPieces = 8;
// Its lines are answered this many questions at a time, so that a batch's arrays stay in
// the second-level cache and are the same pages from batch to batch (a MiB of lines as one
// batch took 12 MB of fresh pages, 30% of a run on 1M pairs).
constexpr size_t kBatchQuestions = 4096;

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

// A question of a numbered index's block: a plain line's "u v" (one blank between them, at
// most kPlainBytes bytes) where `line` is set, whose answer is that text copied whole and a
// verdict's tail; else questions[slow] holds its labels.
struct Asked {
  const char* line;
  uint32_t u_size;
  uint32_t size_or_slow;  // the "u v" bytes where `line` is set, else the index in questions
};
// A plain line's "u v" is copied as this many bytes at once, whatever its length: a copy
// of a fixed size is two vector moves, where one of the line's own length was a call (and a
// fifth of answering). The input and answer buffers keep the room for it.
constexpr size_t kPlainBytes = 32;
// Bytes past the last line read that a plain line's copy may read (the read buffer's tail,
// never read into).
constexpr size_t kReadSlack = kPlainBytes;

// The lines of one block: the questions, and the malformed lines with how many questions
// came before each (so that their messages keep their place).
// On a numbered index (IndexQueries::numbered) the lines' ids are read as they are split,
// while the line is in the first-level cache, and the batch is decided without lookups.
struct Block {
  Views questions;  // every question, or on a numbered index those not `Asked` as plain lines
  std::vector<std::pair<size_t, uint64_t>> malformed;  // (questions before, line number)
  uint64_t numbered_vertices = 0;  // a numbered index's vertex count, else 0: no ids read
  // Where numbered_vertices, the batch's questions: kBatchQuestions of each, `asked` of them
  // made (arrays, not vectors: an append's capacity test and size update a field and line).
  std::unique_ptr<Asked[]> asked;
  std::unique_ptr<vertex_t[]> us, vs;
  size_t asked_count = 0;
  std::vector<PairVerdict> verdicts;
  size_t size() const { return numbered_vertices != 0 ? asked_count : questions.size(); }
  void clear() {
    questions.clear();
    malformed.clear();
    asked_count = 0;
  }
  void number(uint64_t vertices) {
    numbered_vertices = vertices;
    if (vertices != 0 && !asked) {
      asked.reset(new Asked[kBatchQuestions]);
      us.reset(new vertex_t[kBatchQuestions]);
      vs.reset(new vertex_t[kBatchQuestions]);
    }
  }
  // A numbered question: a plain line's "u v" at `line` (u_size and size bytes), or where
  // line is null, its labels kept as views.
  void ask(const char* line, uint32_t u_size, uint32_t size, vertex_t uid, vertex_t vid) {
    asked[asked_count] = Asked{line, u_size, size};
    us[asked_count] = uid;
    vs[asked_count++] = vid;
  }
  void ask_labels(std::string_view u, std::string_view v, vertex_t uid, vertex_t vid) {
    ask(nullptr, 0, uint32_t(questions.size()), uid, vid);
    questions.emplace_back(u, v);
  }
};

inline void add_question(Block& block, std::string_view u, std::string_view v) {
  if (block.numbered_vertices == 0) {
    block.questions.emplace_back(u, v);
    return;
  }
  block.ask_labels(u, v, numbered_vertex(u, block.numbered_vertices),
                   numbered_vertex(v, block.numbered_vertices));
}

// How many of w's bytes, from its lowest, are ASCII digits (8: all). A byte is a digit where
// its high nibble is 3 and stays 3 with 6 added; a carry out of a byte that is no digit can
// only disturb the bytes above it, past the first that is not a digit.
inline size_t leading_digit_bytes(uint64_t w) {
  constexpr uint64_t kHigh = 0xF0F0F0F0F0F0F0F0u, kThrees = 0x3030303030303030u;
  const uint64_t not_digit =
      ((w & kHigh) ^ kThrees) | (((w + 0x0606060606060606u) & kHigh) ^ kThrees);
  return not_digit == 0 ? 8 : size_t(std::countr_zero(not_digit)) / 8;
}

// The value of 8 digit bytes, the first (the most significant) lowest; bytes of zero read
// as leading zeros (three multiplications, as in Lemire's parse of eight digits).
inline uint64_t digits_value(uint64_t w) {
  w = (w & 0x0F0F0F0F0F0F0F0Fu) * 2561 >> 8;
  w = (w & 0x00FF00FF00FF00FFu) * 6553601 >> 16;
  return (w & 0x0000FFFF0000FFFFu) * 42949672960001 >> 32;
}

// The decimal digits from p: where they end, their value into `value` (meaningful up to
// 19 digits; numbered_digits_vertex() reads at most 10). Where 8 bytes can be read, the
// first 8 are taken at once: a byte loop's multiply-add chain was the most of reading a
// pair line (perf, 10M pairs on human: 45% of the pieces' work).
inline const char* scan_digits(const char* p, const char* end, uint64_t& value) {
  uint64_t x = 0;
  if (std::endian::native == std::endian::little && end - p >= 8) {
    uint64_t w;
    std::memcpy(&w, p, 8);  // the first character in the lowest byte
    const size_t k = leading_digit_bytes(w);
    if (k < 8) {
      value = k == 0 ? 0 : digits_value(w << (8 * (8 - k)));
      return p + k;
    }
    x = digits_value(w);
    p += 8;
  }
  for (; p < end; ++p) {
    const unsigned digit = unsigned(static_cast<unsigned char>(*p)) - unsigned('0');
    if (digit > 9) break;
    x = x * 10 + digit;
  }
  value = x;
  return p;
}

inline bool is_blank(char c) {
  return c == ' ' || c == '\t';
}

// A numbered index's plain line, two fields of digits between blanks, read in one pass
// with its ids; returns the next line's start, or nullptr where the line is anything else
// (leading blanks, a comment, a name, a third field, a vertical tab...): split_lines()
// then reads it as before, so both give the same questions.
inline const char* numbered_line(const char* p, const char* end, Block& block) {
  uint64_t x, y;
  const char* u_end = scan_digits(p, end, x);
  if (u_end == p || u_end == end || !is_blank(*u_end)) return nullptr;
  const char* v = u_end + 1;
  while (v < end && is_blank(*v)) ++v;
  const char* v_end = scan_digits(v, end, y);
  if (v_end == v) return nullptr;
  const char* at = v_end;
  while (at < end && (is_blank(*at) || *at == '\r')) ++at;
  if (at < end && *at != '\n') return nullptr;
  const vertex_t uid = numbered_digits_vertex(size_t(u_end - p), *p, x, block.numbered_vertices);
  const vertex_t vid = numbered_digits_vertex(size_t(v_end - v), *v, y, block.numbered_vertices);
  if (v == u_end + 1 && size_t(v_end - p) <= kPlainBytes) {
    block.ask(p, uint32_t(u_end - p), uint32_t(v_end - p), uid, vid);
  } else {
    block.ask_labels(std::string_view(p, size_t(u_end - p)), std::string_view(v, size_t(v_end - v)),
                     uid, vid);
  }
  return at < end ? at + 1 : end;
}

#if defined(__x86_64__)
// Plain lines of a numbered index, "u v\n" with 1 to 8 digits on each side of one space, as
// many as come: a line's 16 bytes classified in one vector (digits, the space, the line end),
// its two ids converted together (the digits shuffled into place, then three multiply-adds:
// AVX2's encoding of SSSE3's and SSE4.1's). The batch's arrays and count are locals: stored
// through the block's fields, they were read again after every store. With the answers'
// runs, 237 -> 158 instructions a pair (callgrind, 1M pairs on GRAIL human; a line's own
// 16-byte scan and two 8-byte parses took 42 more). Stops at a line that is anything else
// (numbered_line() or the general split read it, with the same rule, so all give the same
// questions), at a full batch, or within 16 bytes of `end`; returns where, line_no counting
// the lines read.
__attribute__((target("avx2"))) const char* plain_numbered_lines(const char* p, const char* end,
                                                                 uint64_t& line_no, Block& block) {
  Asked* const asked = block.asked.get();
  vertex_t* const us = block.us.get();
  vertex_t* const vs = block.vs.get();
  const uint64_t vertices = block.numbered_vertices;
  const size_t first_count = block.asked_count;
  size_t count = first_count;
  const __m128i line_end = _mm_set1_epi8('\n'), space = _mm_set1_epi8(' ');
  const __m128i zero = _mm_set1_epi8('0'), nine = _mm_set1_epi8(9);
  while (end - p >= 16 && count < kBatchQuestions) {
    const __m128i x = _mm_loadu_si128(reinterpret_cast<const __m128i*>(p));
    const unsigned ends = unsigned(_mm_movemask_epi8(_mm_cmpeq_epi8(x, line_end)));
    const unsigned size = unsigned(std::countr_zero(ends | 0x10000u));  // 16: none
    const unsigned before = (1u << size) - 1;
    const __m128i d = _mm_sub_epi8(x, zero);
    const unsigned digits =
        unsigned(_mm_movemask_epi8(_mm_cmpeq_epi8(_mm_min_epu8(d, nine), d))) & before;
    const unsigned spaces = unsigned(_mm_movemask_epi8(_mm_cmpeq_epi8(x, space))) & before;
    const unsigned a = unsigned(std::countr_zero(spaces | 0x10000u)), b = size - a - 1;
    if (size == 16 || (spaces | digits) != before || (spaces & (spaces - 1)) != 0 || a - 1 > 7 ||
        b - 1 > 7)  // 1 to 8 digits each (0 wraps)
      break;
    uint32_t u, v;
    pair_digit_values(d, a, b, u, v);
    asked[count] = Asked{p, a, size};
    us[count] = numbered_digits_vertex(a, p[0], u, vertices);
    vs[count] = numbered_digits_vertex(b, p[a + 1], v, vertices);
    ++count;
    p += size + 1;
  }
  block.asked_count = count;
  line_no += count - first_count;
  return p;
}
#endif

// Splits [p, end) (whole lines; the last may lack its line end) into `block`, up to
// kBatchQuestions questions; returns where it stopped.
const char* split_lines(const char* p, const char* end, uint64_t& line_no, Block& block) {
  while (p < end && block.size() < kBatchQuestions) {
#if defined(__x86_64__)
    if (block.numbered_vertices != 0 && kCpuAvx2) {
      if (const char* next = plain_numbered_lines(p, end, line_no, block); next != p) {
        p = next;
        continue;
      }
    }
#endif
    ++line_no;
    if (block.numbered_vertices != 0) {
      if (const char* next = numbered_line(p, end, block)) {
        p = next;
        continue;
      }
    }
    const char* nl = static_cast<const char*>(std::memchr(p, '\n', size_t(end - p)));
    const char* line_end = nl ? nl : end;
    const char* at = p;
    const std::string_view u = next_field(at, line_end);
    if (!u.empty() && u[0] != '#') {
      const std::string_view v = next_field(at, line_end);
      const std::string_view extra = next_field(at, line_end);
      if (v.empty() || (!extra.empty() && extra[0] != '#'))
        block.malformed.emplace_back(block.size(), line_no);
      else
        add_question(block, text::unescape_label(u), text::unescape_label(v));
    }
    p = nl ? nl + 1 : end;
  }
  return p;
}

// Answer lines, written into room made ahead: std::string's resize() would first zero
// every byte it adds.
class AnswerText {
 public:
  char* room(size_t n) {
    if (size_ + n > capacity_) grow(size_ + n);
    return data_.get() + size_;
  }
  void added(const char* end) { size_ = size_t(end - data_.get()); }
  void append(std::string_view s) {
    if (s.empty()) return;  // room(0) of an empty text is null: no memcpy to it
    std::memcpy(room(s.size()), s.data(), s.size());
    size_ += s.size();
  }
  void clear() { size_ = 0; }
  std::string_view text() const { return {data_.get(), size_}; }

 private:
  void grow(size_t need) {
    const size_t capacity = std::max(need, 2 * capacity_ + 4096);
    std::unique_ptr<char[]> data(new char[capacity]);
    if (size_ > 0) std::memcpy(data.get(), data_.get(), size_);
    data_ = std::move(data);
    capacity_ = capacity;
  }
  std::unique_ptr<char[]> data_;
  size_t size_ = 0, capacity_ = 0;
};

// "a b<tail>". `input`: the lines a and b may lie in (labels unescaped elsewhere do not).
inline void append(AnswerText& out, std::string_view a, std::string_view b, std::string_view tail,
                   std::string_view input) {
  char* w = out.room(a.size() + b.size() + 1 + tail.size());
  // (Pointers of unrelated arrays are compared as std::less_equal orders them.)
  const std::less_equal<const char*> at_or_before;
  if (b.data() == a.data() + a.size() + 1 && at_or_before(input.data(), a.data()) &&
      at_or_before(b.data() + b.size(), input.data() + input.size())) {
    // One blank between them in the input (a plain line): one copy, the blank made a space.
    std::memcpy(w, a.data(), a.size() + 1 + b.size());
    w[a.size()] = ' ';
    w += a.size() + 1 + b.size();
  } else {
    std::memcpy(w, a.data(), a.size());
    w += a.size();
    *w++ = ' ';
    std::memcpy(w, b.data(), b.size());
    w += b.size();
  }
  std::memcpy(w, tail.data(), tail.size());
  out.added(w + tail.size());
}

void append_malformed(AnswerText& out, const std::string& name, uint64_t line_no) {
  out.append(name);
  out.append(":");
  out.append(std::to_string(line_no));
  out.append(": expected two labels 'u v'\n");
}

// One answer line from its labels and verdict.
void append_answer(AnswerText& out, std::string_view u, std::string_view v, PairVerdict verdict,
                   std::string_view input, QueryBatchStats& stats) {
  // Labels echoed as edge lists write them, so that an answer line reads back as the same
  // question; only one starting '#', '%' or '\' is spelt otherwise than it is.
  std::string escaped_u, escaped_v;
  if (text::needs_escape(u)) u = escaped_u = text::escape_label(u);
  if (text::needs_escape(v)) v = escaped_v = text::escape_label(v);
  switch (verdict) {
    case PairVerdict::kYes:
      append(out, u, v, " yes\n", input);
      ++stats.reachable;
      break;
    case PairVerdict::kNo:
      append(out, u, v, " no\n", input);
      break;
    default:
      append(out, u, v, " unknown vertex '", input);
      out.append(verdict == PairVerdict::kUnknownFirst ? u : v);
      out.append("'\n");
      ++stats.unknown;
  }
}

// The answers of the plain lines [i, n) with known vertices, up to the first that is not
// (or n): each its "u v" copied as kPlainBytes (the blank made a space), then the verdict's
// tail as 8 bytes, the room past an answer written over by the next. Room is made once and
// the count kept in a local: a room test, a malformed-line test and a stats field a line were
// 37 of the 237 instructions a pair (callgrind, 1M pairs on GRAIL human). Returns the first
// line not answered.
size_t append_plain_run(AnswerText& out, const Block& block, const PairVerdict* verdicts, size_t i,
                        size_t n, QueryBatchStats& stats) {
  static constexpr char kTails[2][8] = {" no\n", " yes\n"};  // by PairVerdict: kNo, kYes
  static constexpr uint8_t kTailSizes[2] = {4, 5};
  const Asked* const asked = block.asked.get();
  char* w = out.room((n - i) * (kPlainBytes + 8));
  uint64_t reachable = 0;
  for (; i < n; ++i) {
    const Asked& a = asked[i];
    const size_t v = size_t(verdicts[i]);
    if (!a.line || v > size_t(PairVerdict::kYes)) break;
    std::memcpy(w, a.line, kPlainBytes);
    w[a.u_size] = ' ';
    std::memcpy(w + a.size_or_slow, kTails[v], 8);
    w += a.size_or_slow + kTailSizes[v];
    reachable += v;
  }
  out.added(w);
  stats.reachable += reachable;
  return i;
}

// The block's answer lines, in input order, into `out`; its lines lie in `input`.
void answer_block(IndexQueries& queries, Block& block, std::string_view input,
                  const std::string& name, AnswerText& out, QueryBatchStats& stats) {
  std::vector<PairVerdict>& verdicts = block.verdicts;
  const size_t n = block.size();
  if (block.numbered_vertices != 0) {
    verdicts.resize(n);
    queries.decide_ids(block.us.get(), block.vs.get(), n, verdicts.data());
  } else {
    verdicts = queries.decide_many(block.questions);
  }
  size_t next_bad = 0;
  for (size_t i = 0; i <= n;) {
    for (; next_bad < block.malformed.size() && block.malformed[next_bad].first == i; ++next_bad)
      append_malformed(out, name, block.malformed[next_bad].second);
    if (i == n) break;
    if (block.numbered_vertices == 0) {
      append_answer(out, block.questions[i].first, block.questions[i].second, verdicts[i], input,
                    stats);
      ++i;
      continue;
    }
    // Plain lines up to the next malformed one (or the block's end) in one run.
    const size_t until = next_bad < block.malformed.size() ? block.malformed[next_bad].first : n;
    if (const size_t next = append_plain_run(out, block, verdicts.data(), i, until, stats);
        next > i) {
      i = next;
      continue;
    }
    const Asked& a = block.asked[i];
    if (a.line) {
      append_answer(out, std::string_view(a.line, a.u_size),
                    std::string_view(a.line + a.u_size + 1, a.size_or_slow - a.u_size - 1),
                    verdicts[i], input, stats);
    } else {
      const auto& [u, v] = block.questions[a.size_or_slow];
      append_answer(out, u, v, verdicts[i], input, stats);
    }
    ++i;
  }
  stats.answered += n;
  stats.malformed += block.malformed.size();
}

// One piece of a buffer's lines [first, end), answered by one thread into its own answers
// with its own querier (part 0 the caller's, the others twins over the same index).
struct Piece {
  IndexQueries* queries = nullptr;
  std::unique_ptr<IndexQueries> twin;
  Block block;
  AnswerText answers;
  QueryBatchStats stats;
  const char* first = nullptr;
  const char* end = nullptr;
  uint64_t line_no = 0;  // the line before the piece's first
};

void answer_piece(Piece& piece, const std::string& name) {
  piece.answers.clear();
  piece.block.number(piece.queries->numbered() ? piece.queries->vertex_count() : 0);
  for (const char* at = piece.first; at < piece.end;) {
    piece.block.clear();
    at = split_lines(at, piece.end, piece.line_no, piece.block);
    answer_block(*piece.queries, piece.block,
                 std::string_view(piece.first, size_t(piece.end - piece.first)), name,
                 piece.answers, piece.stats);
  }
}

// Cuts [first, end) (complete lines but maybe the input's last) into pieces.size() pieces at
// line ends, each starting its line count where the lines before it end (so that messages
// about malformed lines name the right line), and answers them in parallel; line_no moves
// past them.
void answer_pieces(std::span<Piece> pieces, const char* first, const char* end, uint64_t& line_no,
                   const std::string& name) {
  const size_t n = pieces.size(), bytes = size_t(end - first);
  const char* at = first;
  for (size_t i = 0; i < n; ++i) {
    pieces[i].first = at;
    const char* cut = i + 1 == n ? end : std::max(at, first + bytes * (i + 1) / n);
    if (cut < end && cut > at) {
      const void* nl = std::memchr(cut - 1, '\n', size_t(end - (cut - 1)));
      cut = nl ? static_cast<const char*>(nl) + 1 : end;
    }
    pieces[i].end = at = cut;
  }
  std::vector<uint64_t> lines(n, 0);
  parallel_chunks(n - 1, 1, [&](size_t b, size_t e) {
    for (size_t i = b; i < e; ++i)
      lines[i] = uint64_t(std::count(pieces[i].first, pieces[i].end, '\n'));
  });
  for (size_t i = 0; i < n; ++i) {
    pieces[i].line_no = line_no;
    line_no += lines[i];
  }
  parallel_chunks(n, 1, [&](size_t b, size_t e) {
    for (size_t i = b; i < e; ++i) answer_piece(pieces[i], name);
  });
  line_no = pieces[n - 1].line_no;
}

}  // namespace

QueryBatchStats answer_pair_lines(IndexQueries& queries, int fd, const std::string& name,
                                  std::ostream& out) {
  std::string buf(2 * kReadBytes, '\0');
  size_t start = 0, size = 0;  // buf[start, size): read, not yet answered (a partial line)
  uint64_t line_no = 0;
  bool bom_checked = false;
  std::vector<Piece> pieces(1);
  pieces[0].queries = &queries;
  for (bool more = true; more;) {
    if (buf.size() - size < kReadBytes) {  // room: move the partial line down, or grow
      if (start > 0) {
        std::memmove(buf.data(), buf.data() + start, size - start);
        size -= start, start = 0;
      }
      if (buf.size() - size < kReadBytes) buf.resize(2 * buf.size());
    }
    const size_t got =
        read_pairs_input(fd, buf.data() + size, buf.size() - kReadSlack - size, name);
    more = got > 0;
    size += got;
    // A byte order mark before the first line, once its 3 bytes are in (or the input ends).
    if (line_no == 0 && start == 0 && !bom_checked && (size >= 3 || !more)) {
      bom_checked = true;
      if (text::without_bom({buf.data(), size}).size() < size) start = text::kUtf8Bom.size();
    }
    // Complete lines only, but everything at the end of the input.
    const char* first = buf.data() + start;
    const char* end = buf.data() + size;
    if (more) {
      const void* last = ::memrchr(first, '\n', size_t(end - first));
      if (!last) continue;
      end = static_cast<const char*>(last) + 1;
    }
    const size_t used =
        size_t(end - first) >= kParallelBytes ? std::min(thread_budget(), kMaxPieces) : 1;
    while (pieces.size() < used) {
      pieces.emplace_back();
      pieces.back().twin = queries.twin();
      pieces.back().queries = pieces.back().twin.get();
    }
    answer_pieces(std::span<Piece>(pieces.data(), used), first, end, line_no, name);
    start = size_t(end - buf.data());
    for (size_t i = 0; i < used; ++i)
      out.write(pieces[i].answers.text().data(), std::streamsize(pieces[i].answers.text().size()));
    out.flush();
    check_answers_written(out);
  }
  QueryBatchStats stats;
  for (Piece& p : pieces) {
    stats += p.stats;
    if (p.twin) queries.absorb_stats(*p.twin);
  }
  return stats;
}

}  // namespace closure::reach
