// The DOT id rule of dot_text.hpp.
#include "closure/io/dot_text.hpp"

#include "closure/io/utf8.hpp"

namespace closure {

void append_dot_id(std::string& out, std::string_view s) {
  static constexpr char kHex[] = "0123456789abcdef";
  out.push_back('"');
  for (size_t i = 0; i < s.size();) {
    const unsigned char c = static_cast<unsigned char>(s[i]);
    if (c == '"' || c == '\\') {
      out.push_back('\\');
      out.push_back(char(c));
      ++i;
    } else if (c == '\n' || c == '\r') {
      out += c == '\n' ? "\\n" : "\\r";
      ++i;
    } else if (c == '\t') {
      out.push_back('\t');
      ++i;
    } else if (const size_t n = c < 0x20 || c == 0x7f ? 0 : utf8_sequence(s, i); n > 0) {
      out.append(s.substr(i, n));
      i += n;
    } else {
      out += "\\x";
      out.push_back(kHex[c >> 4]);
      out.push_back(kHex[c & 15]);
      ++i;
    }
  }
  out.push_back('"');
}

std::string dot_id(std::string_view label) {
  std::string out;
  append_dot_id(out, label);
  return out;
}

}  // namespace closure
