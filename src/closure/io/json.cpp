// JSON escaping and rendering.
#include "closure/io/json.hpp"

#include <cmath>
#include <cstdio>

namespace closure::json {

std::string quote(std::string_view text) {
  std::string out = "\"";
  for (unsigned char c : text) {
    switch (c) {
      case '"':
        out += "\\\"";
        break;
      case '\\':
        out += "\\\\";
        break;
      case '\n':
        out += "\\n";
        break;
      case '\r':
        out += "\\r";
        break;
      case '\t':
        out += "\\t";
        break;
      default:
        if (c < 0x20) {
          char buf[8];
          std::snprintf(buf, sizeof buf, "\\u%04x", c);
          out += buf;
        } else {
          out += char(c);
        }
    }
  }
  return out + "\"";
}

Value::Value(double v) {
  if (!std::isfinite(v)) {
    text_ = "null";
    return;
  }
  char buf[32];
  std::snprintf(buf, sizeof buf, "%.6g", v);
  text_ = buf;
}

std::string Object::str(int indent) const {
  std::string pad;
  if (indent) pad.append(1, '\n').append(size_t(indent), ' ');
  std::string out = "{";
  for (size_t i = 0; i < fields_.size(); ++i) {
    out += (i ? "," : "") + pad + quote(fields_[i].first) + (indent ? ": " : ":") +
           fields_[i].second.str();
  }
  return out + (indent && !fields_.empty() ? "\n}" : "}");
}

Value array(const std::vector<Value>& items) {
  std::string out = "[";
  for (size_t i = 0; i < items.size(); ++i) out += (i ? "," : "") + items[i].str();
  return Value::raw(out + "]");
}

}  // namespace closure::json
