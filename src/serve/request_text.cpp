// Parsing the service's requests: targets, parameters, pair lists, labels.
#include "serve/request_text.hpp"

#include <charconv>
#include <nlohmann/json.hpp>

#include "closure/errors.hpp"
#include "closure/graph/text_scan.hpp"
#include "closure/io/utf8.hpp"

namespace closure::serve {
namespace {

int hex_digit(char c) {
  if (c >= '0' && c <= '9') return c - '0';
  if (c >= 'a' && c <= 'f') return c - 'a' + 10;
  if (c >= 'A' && c <= 'F') return c - 'A' + 10;
  return -1;
}

// Percent-decoding; '+' is a space in a query (HTML forms, curl --data-urlencode).
std::string decode(std::string_view s, bool plus_is_space) {
  std::string out;
  out.reserve(s.size());
  for (size_t i = 0; i < s.size(); ++i) {
    if (s[i] == '%') {
      const int hi = i + 1 < s.size() ? hex_digit(s[i + 1]) : -1;
      const int lo = i + 2 < s.size() ? hex_digit(s[i + 2]) : -1;
      if (hi < 0 || lo < 0) throw UsageError("malformed percent escape in the request target");
      out += char(hi * 16 + lo);
      i += 2;
    } else if (s[i] == '+' && plus_is_space) {
      out += ' ';
    } else {
      out += s[i];
    }
  }
  return out;
}

std::string pair_label(const nlohmann::json& v, size_t at, const char* which) {
  if (v.is_string()) return v.get<std::string>();
  if (v.is_number_integer() || v.is_number_unsigned()) return v.dump();
  throw UsageError("pair " + std::to_string(at) + ": the " + which +
                   " label must be a string or an integer");
}

// Whether a Content-Type names text/plain, parameters aside ("Text/Plain; charset=utf-8"):
// media types ignore case (RFC 9110, 8.3.1).
bool is_text_plain(std::string_view content_type) {
  return text::iequals(text::trim(content_type.substr(0, content_type.find(';'))), "text/plain");
}

}  // namespace

std::optional<std::string> Target::get(std::string_view key) const {
  std::optional<std::string> out;
  for (const auto& [k, v] : params)
    if (k == key) {
      if (out) throw UsageError("parameter '" + std::string(key) + "' given twice");
      out = v;
    }
  return out;
}

Target parse_target(std::string_view target) {
  Target t;
  const size_t q = target.find('?');
  t.path = decode(target.substr(0, q), false);
  if (q == std::string_view::npos) return t;
  std::string_view rest = target.substr(q + 1);
  while (!rest.empty()) {
    const size_t amp = rest.find('&');
    const std::string_view item = rest.substr(0, amp);
    rest = amp == std::string_view::npos ? std::string_view{} : rest.substr(amp + 1);
    if (item.empty()) continue;
    const size_t eq = item.find('=');
    t.params.emplace_back(decode(item.substr(0, eq), true),
                          eq == std::string_view::npos ? "" : decode(item.substr(eq + 1), true));
  }
  return t;
}

void check_label(std::string_view label, std::string_view what) {
  const std::string name(what);
  if (label.empty()) throw UsageError(name + " is empty");
  if (label.size() > kMaxLabelBytes)
    throw UsageError(name + " is longer than " + std::to_string(kMaxLabelBytes) + " bytes");
  if (!is_utf8(label)) throw UsageError(name + " is not UTF-8");
  for (unsigned char c : label)
    if (c < 0x20 || c == 0x7f) throw UsageError(name + " holds a control character");
}

LabelPairs parse_pairs(std::string_view body, std::string_view content_type, size_t max_pairs) {
  LabelPairs out;
  // `at` names the pair in messages: its line in a text body, its place in a JSON one.
  auto add = [&](std::string u, std::string v, const std::string& at) {
    if (out.size() == max_pairs)
      throw UsageError("more than " + std::to_string(max_pairs) + " pairs in one request");
    check_label(u, at + ": the first label");
    check_label(v, at + ": the second label");
    out.emplace_back(std::move(u), std::move(v));
  };
  if (is_text_plain(content_type)) {
    // Read as `closure query --pairs` reads its lines (formats.md): fields split at blanks,
    // '#' starts a comment, labels unescaped; so that query's answer lines ask again here.
    size_t line_no = 0;
    body = text::without_bom(body);
    while (!body.empty()) {
      const size_t nl = body.find('\n');
      const std::string_view line = body.substr(0, nl);
      body = nl == std::string_view::npos ? std::string_view{} : body.substr(nl + 1);
      ++line_no;
      size_t at = 0;
      const std::string_view u = text::next_field(line, at);
      if (u.empty() || u[0] == '#') continue;
      const std::string_view v = text::next_field(line, at);
      const std::string_view extra = text::next_field(line, at);
      if (v.empty() || (!extra.empty() && extra[0] != '#'))
        throw UsageError("line " + std::to_string(line_no) + ": expected two labels 'u v'");
      add(std::string(text::unescape_label(u)), std::string(text::unescape_label(v)),
          "line " + std::to_string(line_no));
    }
    return out;
  }
  const auto json = nlohmann::json::parse(body, nullptr, false);
  if (json.is_discarded())
    throw UsageError(
        "the body is not JSON (send a JSON array of [u, v] pairs, or text/plain "
        "lines 'u v')");
  const nlohmann::json& list = json.is_object() && json.contains("pairs") ? json["pairs"] : json;
  if (!list.is_array()) throw UsageError("expected a JSON array of [u, v] pairs");
  out.reserve(std::min(list.size(), max_pairs));
  for (size_t i = 0; i < list.size(); ++i) {
    const auto& p = list[i];
    if (!p.is_array() || p.size() != 2)
      throw UsageError("pair " + std::to_string(i) + " is not a [u, v] array of two labels");
    add(pair_label(p[0], i, "first"), pair_label(p[1], i, "second"), "pair " + std::to_string(i));
  }
  return out;
}

size_t parse_count(std::string_view text, std::string_view what, size_t most) {
  size_t x = 0;
  const auto r = std::from_chars(text.data(), text.data() + text.size(), x);
  if (text.empty() || r.ec != std::errc() || r.ptr != text.data() + text.size() || x > most)
    throw UsageError(std::string(what) + " must be an integer 0.." + std::to_string(most) +
                     ", not '" + std::string(text.substr(0, 64)) + "'");
  return x;
}

}  // namespace closure::serve
