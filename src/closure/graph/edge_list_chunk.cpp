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
inline bool canonical_number(const char* p, size_t n, uint64_t& value) {
  if (n == 0 || n > 20 || (n > 1 && p[0] == '0')) return false;
  uint64_t v = 0;
  for (size_t i = 0; i < n; ++i) {
    const unsigned d = static_cast<unsigned char>(p[i]) - '0';
    if (d > 9) return false;
    if (__builtin_mul_overflow(v, 10, &v) || __builtin_add_overflow(v, d, &v)) return false;
  }
  value = v;
  return true;
}

// Weights and timestamps: any number std::from_chars reads (1, -2.5, 1e-3, inf).
bool is_number(std::string_view s) {
  double d;
  const char* b = s.data();
  if (!s.empty() && s[0] == '+') ++b;
  auto [ptr, ec] = std::from_chars(b, s.data() + s.size(), d);
  return ptr == s.data() + s.size() && b != ptr &&
         (ec == std::errc() || ec == std::errc::result_out_of_range);
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
    if (!declared && !is_number(extra)) {
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

}  // namespace

void EdgeListChunk::parse(std::string_view text, const EdgeListDeclarations& declared) {
  {
    // Room for the numbers, from the line length of a sample (growing a vector of hundreds
    // of MB by doubling copies it and faults its pages in again).
    const std::string_view sample = text.substr(0, 64 * 1024);
    const size_t sample_lines =
        std::max<size_t>(1, static_cast<size_t>(std::count(sample.begin(), sample.end(), '\n')));
    reserve_huge(
        values, 2 * (text.size() / std::max<size_t>(1, sample.size() / sample_lines) * 5 / 4 + 16));
  }
  const char* p = text.data();
  const char* const end = p + text.size();
  size_t line = 0;
  auto fail_at = [&](size_t at, std::string message, Advice advice = Advice::kNone) {
    if (error_line != 0 && error_line <= at) return;
    error_line = at;
    error = std::move(message);
    error_advice = advice;
  };
  // Name labels go through a short queue: their hashes are computed and their table slots
  // prefetched a few lines before they are interned, in order (ids stay first-appearance).
  struct Pending {
    std::string_view a, b;
    uint64_t ha, hb;
    size_t line;
  };
  constexpr size_t kDepth = 8;
  Pending queue[kDepth];
  size_t head = 0, queued = 0;
  auto intern_oldest = [&]() -> bool {
    const Pending& q = queue[head];
    head = (head + 1) % kDepth;
    --queued;
    const vertex_t u = labels.intern_name(q.a, q.ha);
    const vertex_t v = labels.intern_name(q.b, q.hb);
    if (u == LabelMap::kFull || v == LabelMap::kFull) {
      fail_at(q.line, too_many_vertices());
      return false;
    }
    edges.emplace_back(u, v);
    loops += u == v;
    return true;
  };
  auto drain = [&]() -> bool {
    while (queued > 0)
      if (!intern_oldest()) return false;
    return true;
  };
  // Lines still queued come first: an error on one of them is the earlier one.
  auto fail = [&](std::string message, Advice advice = Advice::kNone) {
    drain();
    fail_at(line, std::move(message), advice);
  };
  // The label of a token: a leading '\' escapes a label that starts with '#', '%' or '\'.
  auto vertex = [&](const char* b, const char* e, bool& name) -> vertex_t {
    uint64_t value;
    if (canonical_number(b, static_cast<size_t>(e - b), value)) {
      name = false;
      return labels.numeric() ? labels.intern_number(value)
                              : labels.intern(std::string_view(b, static_cast<size_t>(e - b)));
    }
    name = true;
    if (e - b >= 2 && b[0] == '\\' && (b[1] == '#' || b[1] == '%' || b[1] == '\\')) ++b;
    return labels.intern(std::string_view(b, static_cast<size_t>(e - b)));
  };
  auto skip_blanks = [&] {
    while (p < end && cls(*p) == kBlank) ++p;
  };
  auto end_line = [&] {
    while (p < end && cls(*p) != kEol) ++p;
    if (p < end) {
      if (*p == '\r' && p + 1 < end && p[1] == '\n') ++p;
      ++p;
    }
  };
  const char* metered = p;
  while (p < end) {
    if ((++line & 0x3FFF) == 0) {
      meter_add(meter, size_t(p - metered));
      metered = p;
    }
    skip_blanks();
    if (p == end) break;
    if (cls(*p) == kEol || *p == '#' || *p == '%') {
      end_line();
      continue;
    }
    const char* a0 = p;
    while (p < end && cls(*p) == kText) ++p;
    const char* a1 = p;
    skip_blanks();
    if (p == end || cls(*p) == kEol) {
      fail("expected two columns 'source target', found only " +
           text::quote(std::string_view(a0, static_cast<size_t>(a1 - a0))) +
           " (an adjacency list, or a vertex list? docs/formats.md)");
      return;
    }
    const char* b0 = p;
    while (p < end && cls(*p) == kText) ++p;
    const char* b1 = p;
    size_t columns = 2;
    uint8_t attributes = 0;
    skip_blanks();
    if (p != end && cls(*p) != kEol) {
      ExtraColumns x = extra_columns(p, end, declared.columns_declared);
      p = x.p;
      if (!x.error.empty()) {
        fail(std::move(x.error), x.advice);
        return;
      }
      columns = x.columns;
      attributes = x.attributes;
    }
    end_line();
    if (first_data_line == 0) {
      first_data_line = line;
      first_columns = columns;
      first_attributes = attributes;
      first_source.assign(a0, a1);
      first_target.assign(b0, b1);
    } else if (shape_line == 0 && columns != first_columns && !declared.columns_declared) {
      shape_line = line;
      shape_columns = columns;
      shape_attributes = attributes;
    }
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
    if (raw && !to_labels()) {
      fail(too_many_vertices());
      return;
    }
    if (!labels.numeric()) {
      // Name mode: queue the line (see Pending); the labels are the tokens, unescaped.
      uint64_t unused;
      const bool name_a = !canonical_number(a0, static_cast<size_t>(a1 - a0), unused);
      const bool name_b = !canonical_number(b0, static_cast<size_t>(b1 - b0), unused);
      auto unescape = [](const char* b, const char* e) {
        if (e - b >= 2 && b[0] == '\\' && (b[1] == '#' || b[1] == '%' || b[1] == '\\')) ++b;
        return std::string_view(b, static_cast<size_t>(e - b));
      };
      if ((name_a || name_b) && name_lines[1] == 0) name_lines[name_lines[0] == 0 ? 0 : 1] = line;
      if (queued == kDepth && !intern_oldest()) return;
      Pending& q = queue[(head + queued) % kDepth];
      q.a = unescape(a0, a1);
      q.b = unescape(b0, b1);
      q.ha = labels.name_hash(q.a);
      q.hb = labels.name_hash(q.b);
      q.line = line;
      labels.prefetch(q.ha);
      labels.prefetch(q.hb);
      ++queued;
      // The line queued four places ago: its slots have arrived, so request the stored
      // names they point to (a known label's second and last miss).
      if (queued > 4) {
        const Pending& p4 = queue[(head + queued - 5) % kDepth];
        labels.prefetch_name(p4.ha);
        labels.prefetch_name(p4.hb);
      }
      ++records;
      continue;
    }
    bool name_a = false, name_b = false;
    const vertex_t u = vertex(a0, a1, name_a);
    const vertex_t v = vertex(b0, b1, name_b);
    if (u == LabelMap::kFull || v == LabelMap::kFull) {
      fail(too_many_vertices());
      return;
    }
    if ((name_a || name_b) && name_lines[1] == 0) name_lines[name_lines[0] == 0 ? 0 : 1] = line;
    edges.emplace_back(u, v);
    ++records;
    loops += u == v;
  }
  if (!drain()) return;
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
