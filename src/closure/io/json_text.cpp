// The JSON string rule and a dumper that applies it, in nlohmann's own layout.
#include "closure/io/json_text.hpp"

#include <cstdio>

namespace closure {
namespace {

// Length of the valid UTF-8 sequence at s[i] (1-4), or 0 when the byte starts none.
size_t utf8_sequence(std::string_view s, size_t i) {
  const auto b = [&](size_t k) { return static_cast<unsigned char>(s[k]); };
  const unsigned char c = b(i);
  if (c < 0x80) return 1;
  size_t n = 0;
  uint32_t min = 0, cp = 0;
  if ((c & 0xE0) == 0xC0)
    n = 2, min = 0x80, cp = c & 0x1F;
  else if ((c & 0xF0) == 0xE0)
    n = 3, min = 0x800, cp = c & 0x0F;
  else if ((c & 0xF8) == 0xF0)
    n = 4, min = 0x10000, cp = c & 0x07;
  else
    return 0;
  if (i + n > s.size()) return 0;
  for (size_t k = 1; k < n; ++k) {
    if ((b(i + k) & 0xC0) != 0x80) return 0;
    cp = (cp << 6) | (b(i + k) & 0x3F);
  }
  // Overlong forms, surrogates and code points past U+10FFFF are not valid UTF-8.
  if (cp < min || (cp >= 0xD800 && cp <= 0xDFFF) || cp > 0x10FFFF) return 0;
  return n;
}

void dump_into(std::string& out, const nlohmann::ordered_json& j, int indent, int depth) {
  const bool pretty = indent >= 0;
  auto newline = [&](int d) {
    if (!pretty) return;
    out.push_back('\n');
    out.append(size_t(indent * d), ' ');
  };
  if (j.is_string()) {
    append_json_string(out, j.get_ref<const std::string&>());
  } else if (j.is_object()) {
    if (j.empty()) {
      out += "{}";
      return;
    }
    out.push_back('{');
    bool first = true;
    for (const auto& [key, value] : j.items()) {
      if (!first) out.push_back(',');
      first = false;
      newline(depth + 1);
      append_json_string(out, key);
      out += pretty ? ": " : ":";
      dump_into(out, value, indent, depth + 1);
    }
    newline(depth);
    out.push_back('}');
  } else if (j.is_array()) {
    if (j.empty()) {
      out += "[]";
      return;
    }
    out.push_back('[');
    bool first = true;
    for (const auto& value : j) {
      if (!first) out.push_back(',');
      first = false;
      newline(depth + 1);
      dump_into(out, value, indent, depth + 1);
    }
    newline(depth);
    out.push_back(']');
  } else {
    out += j.dump();  // numbers, booleans, null: nlohmann's own text
  }
}

}  // namespace

void append_json_string(std::string& out, std::string_view s) {
  out.push_back('"');
  for (size_t i = 0; i < s.size();) {
    const unsigned char c = static_cast<unsigned char>(s[i]);
    char buf[8];
    if (c == '"' || c == '\\') {
      out.push_back('\\');
      out.push_back(char(c));
      ++i;
    } else if (c < 0x20) {
      const char* named = c == '\n'   ? "\\n"
                          : c == '\r' ? "\\r"
                          : c == '\t' ? "\\t"
                          : c == '\b' ? "\\b"
                          : c == '\f' ? "\\f"
                                      : nullptr;
      if (named) {
        out += named;
      } else {
        std::snprintf(buf, sizeof buf, "\\u%04x", c);
        out += buf;
      }
      ++i;
    } else if (const size_t n = utf8_sequence(s, i); n > 0) {
      out.append(s.substr(i, n));
      i += n;
    } else {
      std::snprintf(buf, sizeof buf, "\\udc%02x", c);
      out += buf;
      ++i;
    }
  }
  out.push_back('"');
}

std::string json_string(std::string_view bytes) {
  std::string out;
  append_json_string(out, bytes);
  return out;
}

std::string dump_json(const nlohmann::ordered_json& j, int indent) {
  std::string out;
  dump_into(out, j, indent, 0);
  return out;
}

}  // namespace closure
