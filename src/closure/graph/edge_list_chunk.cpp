// The edge-list line parser: a byte-class table instead of per-line string_views, canonical
// decimals parsed inline (most files are integer labels), names interned as they come.
#include "closure/graph/edge_list_chunk.hpp"

#include <algorithm>
#include <charconv>
#include <cstdint>

#include "closure/graph/read_graph.hpp"
#include "closure/graph/text_scan.hpp"
#include "closure/util/huge_pages.hpp"

namespace closure::detail {

// Weights and timestamps: any number std::from_chars reads (1, -2.5, 1e-3, inf).
bool is_column_number(std::string_view s) {
  double d;
  const char* b = s.data();
  if (!s.empty() && s[0] == '+') ++b;
  auto [ptr, ec] = std::from_chars(b, s.data() + s.size(), d);
  return ptr == s.data() + s.size() && b != ptr &&
         (ec == std::errc() || ec == std::errc::result_out_of_range);
}

namespace {

enum : unsigned char { kText = 0, kBlank = 1, kEol = 2 };

struct ByteClass {
  unsigned char c[256] = {};
  constexpr ByteClass() {
    c[static_cast<unsigned char>(' ')] = c[static_cast<unsigned char>('\t')] = kBlank;
    c[static_cast<unsigned char>('\f')] = c[static_cast<unsigned char>('\v')] = kBlank;
    c[static_cast<unsigned char>('\n')] = c[static_cast<unsigned char>('\r')] = kEol;
  }
};
constexpr ByteClass kClass;

inline unsigned char cls(char ch) {
  return kClass.c[static_cast<unsigned char>(ch)];
}

// A canonical unsigned decimal (no sign, no leading zero, below 2^64): the label is a number.
// Only a 20th digit can overflow (19 nines are below 2^64): the digits before it are summed
// unchecked, which keeps the per-digit loop short.
inline bool canonical_number(const char* p, size_t n, uint64_t& value) {
  if (n == 0 || n > 20 || (n > 1 && p[0] == '0')) return false;
  uint64_t v = 0;
  const size_t unchecked = n < 20 ? n : 19;
  for (size_t i = 0; i < unchecked; ++i) {
    const unsigned d = static_cast<unsigned char>(p[i]) - '0';
    if (d > 9) return false;
    v = v * 10 + d;
  }
  if (n == 20) {
    const unsigned d = static_cast<unsigned char>(p[19]) - '0';
    if (d > 9 || __builtin_mul_overflow(v, 10, &v) || __builtin_add_overflow(v, d, &v))
      return false;
  }
  value = v;
  return true;
}

// Past the blanks at `p`.
inline const char* skip_blanks(const char* p, const char* end) {
  while (p < end && cls(*p) == kBlank) ++p;
  return p;
}

// Past the end of the line at `p` ("\r\n" as one).
inline const char* past_line_end(const char* p, const char* end) {
  while (p < end && cls(*p) != kEol) ++p;
  if (p < end) {
    if (*p == '\r' && p + 1 < end && p[1] == '\n') ++p;
    ++p;
  }
  return p;
}

// Skips networkx's attribute dict (text::python_dict_end) at `p`, to the end of its line.
// Leaves `p` after it and its trailing blanks; returns why it is malformed, or nullptr.
const char* skip_attribute_dict(const char*& p, const char* end) {
  const char* eol = p;
  while (eol < end && cls(*eol) != kEol) ++eol;
  bool open_string = false;
  const std::string_view line(p, static_cast<size_t>(eol - p));
  const size_t close = text::python_dict_end(line, 0, &open_string);
  if (close == std::string_view::npos) {
    p = eol;
    return open_string ? "an unterminated string" : "an unclosed '{'";
  }
  p += close;
  while (p < eol && cls(*p) == kBlank) ++p;
  if (p < eol) return "text after the closing '}'";
  return nullptr;
}

// Whether following the adjacency-list advice could give the right graph: a field with
// quotes, brackets, '=' or ':' is an attribute, never a vertex of networkx's write_adjlist.
std::string not_a_number_hint(std::string_view field) {
  if (field.find_first_of("{}[]()'\"=:") != std::string_view::npos)
    return " (attributes? only networkx's dict '{...}' as the third column is understood; "
           "convert the file to 'source target' lines)";
  return " (an adjacency list, one vertex then its successors?)";
}
Advice not_a_number_advice(std::string_view field) {
  return field.find_first_of("{}[]()'\"=:") != std::string_view::npos ? Advice::kNone
                                                                      : Advice::kAdjlistFormat;
}

// The columns after 'source target' (`p` at the first): numbers (weights, timestamps), or
// networkx's dict as the third. Out of line, and given `p` by value: a parse() whose `p`
// had its address taken (by this, or a helper moving it) kept it in memory, which cost
// plain two-column lines instructions on every line.
struct ExtraColumns {
  const char* p;                  // the line's end
  size_t columns;                 // all of them, 'source target' included
  uint8_t attributes = 0;         // kDictColumn, kFractionColumn: what they hold
  std::string error{};            // the problem, or ""
  Advice advice = Advice::kNone;  // the way on from it
};
[[gnu::noinline]] ExtraColumns extra_columns(const char* p, const char* end, bool declared) {
  ExtraColumns x{p, 2};
  for (;;) {
    while (x.p < end && cls(*x.p) == kBlank) ++x.p;
    if (x.p == end || cls(*x.p) == kEol) return x;
    const char* c0 = x.p;
    ++x.columns;
    if (x.columns == 3 && *x.p == '{') {
      // networkx's write_edgelist: "a b {'weight': 1.5}", the rest of the line a Python
      // dict. Only the edge is kept: the edge list ignores weights in any column.
      if (const char* why = skip_attribute_dict(x.p, end)) {
        x.error = std::string(why) + " in the attribute dictionary " +
                  text::quote(std::string_view(c0, static_cast<size_t>(x.p - c0)).substr(0, 40)) +
                  " (networkx's write_edgelist writes one Python dict after 'source target')";
        return x;
      }
      x.attributes |= kDictColumn;
      continue;
    }
    while (x.p < end && cls(*x.p) == kText) ++x.p;
    const std::string_view extra(c0, static_cast<size_t>(x.p - c0));
    if (!declared && !is_column_number(extra)) {
      x.error = "column " + std::to_string(x.columns) + " " + text::quote(extra) +
                " is not a number: columns after 'source target' must be weights or " +
                "timestamps" + not_a_number_hint(extra);
      x.advice = not_a_number_advice(extra);
      return x;
    }
    if (extra.find_first_not_of("0123456789") != std::string_view::npos)
      x.attributes |= kFractionColumn;
  }
}

// Room for the numbers, from the line length of a sample (growing a vector of hundreds of
// MB by doubling copies it and faults its pages in again).
void reserve_values(std::vector<uint32_t>& values, std::string_view text) {
  const std::string_view sample = text.substr(0, 64 * 1024);
  const size_t sample_lines =
      std::max<size_t>(1, static_cast<size_t>(std::count(sample.begin(), sample.end(), '\n')));
  reserve_huge(values,
               2 * (text.size() / std::max<size_t>(1, sample.size() / sample_lines) * 5 / 4 + 16));
}

// Records the problem at line `at` unless an earlier one is recorded: the chunk reports its
// first.
[[gnu::noinline]] void record_error(EdgeListChunk& c, size_t at, std::string message,
                                    Advice advice = Advice::kNone) {
  if (c.error_line != 0 && c.error_line <= at) return;
  c.error_line = at;
  c.error = std::move(message);
  c.error_advice = advice;
}

// The problem of a line with one column (out of line: built at most once a chunk).
[[gnu::noinline]] std::string one_column_message(const char* a0, const char* a1) {
  return "expected two columns 'source target', found only " +
         text::quote(std::string_view(a0, static_cast<size_t>(a1 - a0))) +
         " (an adjacency list, or a vertex list? docs/formats.md)";
}

// The first data line's shape and labels, for the whole-file checks (once a chunk).
[[gnu::noinline]] void note_first_line(EdgeListChunk& c, size_t line, size_t columns,
                                       uint8_t attributes, const char* a0, const char* a1,
                                       const char* b0, const char* b1) {
  c.first_data_line = line;
  c.first_columns = columns;
  c.first_attributes = attributes;
  c.first_source.assign(a0, a1);
  c.first_target.assign(b0, b1);
}

// Keeps the first line whose columns differ from the first data line's, unless the file
// declared its columns (KONECT).
inline void note_shape(EdgeListChunk& c, size_t line, size_t columns, uint8_t attributes,
                       bool declared) {
  if (c.shape_line != 0 || columns == c.first_columns || declared) return;
  c.shape_line = line;
  c.shape_columns = columns;
  c.shape_attributes = attributes;
}

// Keeps the first two lines holding a label that is not a canonical number.
inline void note_name_line(EdgeListChunk& c, size_t line) {
  if (c.name_lines[1] == 0) c.name_lines[c.name_lines[0] == 0 ? 0 : 1] = line;
}

// note_name_line for a line in name mode, whose tokens were not read as numbers on the way.
inline void note_name_tokens(EdgeListChunk& c, size_t line, const char* a0, const char* a1,
                             const char* b0, const char* b1) {
  uint64_t unused;
  if (!canonical_number(a0, static_cast<size_t>(a1 - a0), unused) ||
      !canonical_number(b0, static_cast<size_t>(b1 - b0), unused))
    note_name_line(c, line);
}

// A label token without the leading '\' that escapes a label starting with '#', '%' or '\'.
inline std::string_view unescape(const char* b, const char* e) {
  if (e - b >= 2 && b[0] == '\\' && (b[1] == '#' || b[1] == '%' || b[1] == '\\')) ++b;
  return std::string_view(b, static_cast<size_t>(e - b));
}

// The id of a token in a chunk past raw mode whose labels are numbers so far (numbers of 2^32
// and more): a name turns the label map to names.
inline vertex_t intern_token(LabelMap& labels, const char* b, const char* e, bool& name) {
  uint64_t value;
  if (canonical_number(b, static_cast<size_t>(e - b), value)) {
    name = false;
    return labels.numeric() ? labels.intern_number(value)
                            : labels.intern(std::string_view(b, static_cast<size_t>(e - b)));
  }
  name = true;
  return labels.intern(unescape(b, e));
}

// An edge of a chunk past raw mode whose labels are numbers so far: numbers of 2^32 and more,
// rare enough to be out of the per-line loop. False when there are too many labels.
[[gnu::noinline]] bool add_numbered_edge(EdgeListChunk& c, size_t line, const char* a0,
                                         const char* a1, const char* b0, const char* b1) {
  bool name_a = false, name_b = false;
  const vertex_t u = intern_token(c.labels, a0, a1, name_a);
  const vertex_t v = intern_token(c.labels, b0, b1, name_b);
  if (u == LabelMap::kFull || v == LabelMap::kFull) return false;
  if (name_a || name_b) note_name_line(c, line);
  c.edges.emplace_back(u, v);
  ++c.records;
  c.loops += u == v;
  return true;
}

// Name labels go through a short queue: their hashes are computed and their table slots
// prefetched a few lines before they are interned, in order (ids stay first-appearance).
class NameQueue {
 public:
  explicit NameQueue(EdgeListChunk& c) : c_(c) {}

  // Queues the line's labels `a` and `b` (tokens, escaped); false when interning the oldest
  // line found too many labels (then recorded as the chunk's error).
  bool push(const char* a0, const char* a1, const char* b0, const char* b1, size_t line) {
    if (queued_ == kDepth && !intern_oldest()) return false;
    Pending& q = queue_[(head_ + queued_) % kDepth];
    q.a = unescape(a0, a1);
    q.b = unescape(b0, b1);
    q.ha = c_.labels.name_hash(q.a);
    q.hb = c_.labels.name_hash(q.b);
    q.line = line;
    c_.labels.prefetch(q.ha);
    c_.labels.prefetch(q.hb);
    ++queued_;
    // The line queued four places ago: its slots have arrived, so request the stored
    // names they point to (a known label's second and last miss).
    if (queued_ > 4) {
      const Pending& p4 = queue_[(head_ + queued_ - 5) % kDepth];
      c_.labels.prefetch_name(p4.ha);
      c_.labels.prefetch_name(p4.hb);
    }
    return true;
  }

  // Interns every queued line; false as push().
  bool drain() {
    while (queued_ > 0)
      if (!intern_oldest()) return false;
    return true;
  }

  // Records the problem of line `line` once the lines still queued are interned: an error on
  // one of them is the earlier one. Out of line, and given `line` by value: a lambda in
  // parse() that captured the line count kept it in memory, a store on every line.
  [[gnu::noinline]] void fail(size_t line, std::string message, Advice advice = Advice::kNone) {
    drain();
    record_error(c_, line, std::move(message), advice);
  }

 private:
  struct Pending {
    std::string_view a, b;
    uint64_t ha, hb;
    size_t line;
  };
  static constexpr size_t kDepth = 8;

  bool intern_oldest() {
    const Pending& q = queue_[head_];
    head_ = (head_ + 1) % kDepth;
    --queued_;
    const vertex_t u = c_.labels.intern_name(q.a, q.ha);
    const vertex_t v = c_.labels.intern_name(q.b, q.hb);
    if (u == LabelMap::kFull || v == LabelMap::kFull) {
      record_error(c_, q.line, too_many_vertices());
      return false;
    }
    c_.edges.emplace_back(u, v);
    c_.loops += u == v;
    return true;
  }

  EdgeListChunk& c_;
  Pending queue_[kDepth];
  size_t head_ = 0, queued_ = 0;
};

}  // namespace

void EdgeListChunk::parse(std::string_view text, const EdgeListDeclarations& declared) {
  reserve_values(values, text);
  const char* p = text.data();
  const char* const end = p + text.size();
  size_t line = 0;
  NameQueue names(*this);
  const char* metered = p;
  while (p < end) {
    if ((++line & 0x3FFF) == 0) {
      meter_add(meter, size_t(p - metered));
      metered = p;
    }
    p = skip_blanks(p, end);
    if (p == end) break;
    if (cls(*p) == kEol || *p == '#' || *p == '%') {
      p = past_line_end(p, end);
      continue;
    }
    const char* a0 = p;
    while (p < end && cls(*p) == kText) ++p;
    const char* a1 = p;
    p = skip_blanks(p, end);
    if (p == end || cls(*p) == kEol) return names.fail(line, one_column_message(a0, a1));
    const char* b0 = p;
    while (p < end && cls(*p) == kText) ++p;
    const char* b1 = p;
    size_t columns = 2;
    uint8_t attributes = 0;
    p = skip_blanks(p, end);
    if (p != end && cls(*p) != kEol) {
      ExtraColumns x = extra_columns(p, end, declared.columns_declared);
      p = x.p;
      if (!x.error.empty()) return names.fail(line, std::move(x.error), x.advice);
      columns = x.columns;
      attributes = x.attributes;
    }
    p = past_line_end(p, end);
    if (first_data_line == 0)
      note_first_line(*this, line, columns, attributes, a0, a1, b0, b1);
    else
      note_shape(*this, line, columns, attributes, declared.columns_declared);
    uint64_t va, vb;
    if (raw && canonical_number(a0, static_cast<size_t>(a1 - a0), va) &&
        canonical_number(b0, static_cast<size_t>(b1 - b0), vb) && va <= UINT32_MAX &&
        vb <= UINT32_MAX) {
      values.push_back(static_cast<uint32_t>(va));
      values.push_back(static_cast<uint32_t>(vb));
      max_value = std::max(max_value, std::max(va, vb));
      ++records;
      loops += va == vb;
      continue;
    }
    if (raw && !to_labels()) return names.fail(line, too_many_vertices());
    if (!labels.numeric()) {
      // Name mode: the line waits in the queue (see NameQueue).
      if (name_lines[1] == 0) note_name_tokens(*this, line, a0, a1, b0, b1);
      if (!names.push(a0, a1, b0, b1, line)) return;
      ++records;
      continue;
    }
    if (!add_numbered_edge(*this, line, a0, a1, b0, b1))
      return names.fail(line, too_many_vertices());
  }
  if (!names.drain()) return;
  lines = line;
  meter_add(meter, size_t(end - metered));
}

bool EdgeListChunk::to_labels() {
  if (!raw) return true;
  raw = false;
  reserve_huge(edges, values.size() / 2);
  for (size_t i = 0; i < values.size(); i += 2) {
    const vertex_t u = labels.intern_number(values[i]);
    const vertex_t v = labels.intern_number(values[i + 1]);
    if (u == LabelMap::kFull || v == LabelMap::kFull) return false;
    edges.emplace_back(u, v);
  }
  values = {};
  return true;
}

}  // namespace closure::detail
