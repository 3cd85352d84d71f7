// Small text helpers shared by the format readers: whitespace tokens, exact unsigned parsing
// with std::from_chars (no locale, no allocation) and quoting of bad tokens for messages.
#pragma once

#include <charconv>
#include <cstdint>
#include <string>
#include <string_view>

namespace closure::text {

inline bool is_space(char c) {
  return c == ' ' || c == '\t' || c == '\r' || c == '\f' || c == '\v' || c == '\n';
}

// A UTF-8 byte order mark, which some editors write before a text's first line: readers
// of lines skip it there (graphs, query's --pairs lines, serve's text/plain bodies).
inline constexpr std::string_view kUtf8Bom = "\xEF\xBB\xBF";
inline std::string_view without_bom(std::string_view text) {
  return text.starts_with(kUtf8Bom) ? text.substr(kUtf8Bom.size()) : text;
}

// The next field of a line from `at` (advanced past it), split at is_space() as `>>` splits:
// query's `--pairs` lines and serve's text/plain lines. Empty at the line's end.
inline std::string_view next_field(std::string_view line, size_t& at) {
  while (at < line.size() && is_space(line[at])) ++at;
  const size_t first = at;
  while (at < line.size() && !is_space(line[at])) ++at;
  return line.substr(first, at - first);
}

// A label as edge lists write it (docs/formats.md, "Escapes"): a leading '\' before '#',
// '%' or '\' is dropped, so "\#a" is the label "#a". Queries read labels the same way.
inline std::string_view unescape_label(std::string_view token) {
  if (token.size() >= 2 && token[0] == '\\' &&
      (token[1] == '#' || token[1] == '%' || token[1] == '\\'))
    token.remove_prefix(1);
  return token;
}

// Whether edge lists, reach's and query's lines write a label with a '\' before it: a
// leading '#' or '%' (read as a comment), or a leading '\' that unescape_label would drop.
inline bool needs_escape(std::string_view label) {
  return !label.empty() && (label[0] == '#' || label[0] == '%' ||
                            (label[0] == '\\' && label.size() > 1 &&
                             (label[1] == '#' || label[1] == '%' || label[1] == '\\')));
}
// unescape_label's inverse: the label so written, appended to `out` (answer lines are built
// in place, no string a label).
inline std::string& append_escaped_label(std::string& out, std::string_view label) {
  if (needs_escape(label)) out.push_back('\\');
  return out.append(label);
}
inline std::string escape_label(std::string_view label) {
  std::string out;
  out.reserve(label.size() + 1);
  append_escaped_label(out, label);
  return out;
}

// networkx's attribute dict (write_edgelist: "a b {'weight': 1.5}"), a Python literal from
// the '{' at s[i] to its matching '}' within `s` (one line): strings in ' or " (with
// backslash escapes) may hold braces, blanks and delimiters. Returns the index after the '}', or
// npos when it does not close in `s` (then *open_string says whether a string was left open).
inline size_t python_dict_end(std::string_view s, size_t i, bool* open_string = nullptr) {
  size_t depth = 0;
  char quote = 0;
  for (; i < s.size(); ++i) {
    const char ch = s[i];
    if (quote != 0) {
      if (ch == '\\' && i + 1 < s.size())
        ++i;
      else if (ch == quote)
        quote = 0;
    } else if (ch == '\'' || ch == '"') {
      quote = ch;
    } else if (ch == '{') {
      ++depth;
    } else if (ch == '}' && --depth == 0) {
      return i + 1;
    }
  }
  if (open_string) *open_string = quote != 0;
  return std::string_view::npos;
}

inline std::string_view trim(std::string_view s) {
  size_t b = 0, e = s.size();
  while (b < e && is_space(s[b])) ++b;
  while (e > b && is_space(s[e - 1])) --e;
  return s.substr(b, e - b);
}

// Splits a line on runs of whitespace.
class Tokens {
 public:
  explicit Tokens(std::string_view s) : s_(s) {}
  bool next(std::string_view& token) {
    while (pos_ < s_.size() && is_space(s_[pos_])) ++pos_;
    if (pos_ == s_.size()) return false;
    const size_t start = pos_;
    while (pos_ < s_.size() && !is_space(s_[pos_])) ++pos_;
    token = s_.substr(start, pos_ - start);
    return true;
  }
  // What follows the tokens taken so far.
  std::string_view rest() const { return s_.substr(pos_); }

 private:
  std::string_view s_;
  size_t pos_ = 0;
};

enum class NumberStatus { kOk, kNotNumber, kTooLarge };

// The whole token must be a decimal unsigned integer (no sign, no spaces, no suffix).
template <class T>
NumberStatus parse_unsigned(std::string_view token, T& out) {
  const char* end = token.data() + token.size();
  auto [ptr, ec] = std::from_chars(token.data(), end, out);
  if (ec == std::errc::result_out_of_range) return NumberStatus::kTooLarge;
  if (ec != std::errc() || ptr != end || token.empty()) return NumberStatus::kNotNumber;
  return NumberStatus::kOk;
}

// 'token' for messages: shortened when long, control bytes escaped.
inline std::string quote(std::string_view token) {
  constexpr size_t kMax = 40;
  std::string out = "'";
  for (size_t i = 0; i < token.size() && i < kMax; ++i) {
    const unsigned char c = static_cast<unsigned char>(token[i]);
    if (c < 0x20 || c == 0x7f) {
      static const char kHex[] = "0123456789abcdef";
      out += "\\x";
      out += kHex[c >> 4];
      out += kHex[c & 15];
    } else {
      out += static_cast<char>(c);
    }
  }
  if (token.size() > kMax) out += "...";
  out += "'";
  return out;
}

inline bool iequals(std::string_view a, std::string_view b) {
  if (a.size() != b.size()) return false;
  for (size_t i = 0; i < a.size(); ++i) {
    char x = a[i], y = b[i];
    if (x >= 'A' && x <= 'Z') x = static_cast<char>(x - 'A' + 'a');
    if (y >= 'A' && y <= 'Z') y = static_cast<char>(y - 'A' + 'a');
    if (x != y) return false;
  }
  return true;
}

}  // namespace closure::text
