// A small JSON writer for summaries and tables: correct escaping, keys in insertion
// order, nothing to parse. (The GPU machine has no JSON library, so none is required.)
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace closure::json {

std::string quote(std::string_view text);  // "..." with JSON escapes

// One JSON value rendered to text; objects keep their keys in insertion order.
class Value {
 public:
  Value() : text_("null") {}
  Value(std::string_view s) : text_(quote(s)) {}
  Value(const std::string& s) : text_(quote(s)) {}
  Value(const char* s) : text_(quote(s)) {}
  Value(bool b) : text_(b ? "true" : "false") {}
  Value(int v) : text_(std::to_string(v)) {}
  Value(long v) : text_(std::to_string(v)) {}
  Value(unsigned v) : text_(std::to_string(v)) {}
  Value(unsigned long v) : text_(std::to_string(v)) {}
  Value(unsigned long long v) : text_(std::to_string(v)) {}
  Value(double v);
  static Value raw(std::string text) {
    Value v;
    v.text_ = std::move(text);
    return v;
  }
  const std::string& str() const { return text_; }

 private:
  std::string text_;
};

class Object {
 public:
  Object& add(std::string_view key, Value value) {
    fields_.emplace_back(std::string(key), std::move(value));
    return *this;
  }
  std::string str(int indent = 0) const;
  operator Value() const { return Value::raw(str()); }

 private:
  std::vector<std::pair<std::string, Value>> fields_;
};

Value array(const std::vector<Value>& items);

}  // namespace closure::json
