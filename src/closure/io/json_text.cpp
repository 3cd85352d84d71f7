// The JSON string rule and a dumper that applies it, in nlohmann's own layout.
#include "closure/io/json_text.hpp"

#include <cstdio>

#include "closure/io/utf8.hpp"

namespace closure {
namespace {

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
