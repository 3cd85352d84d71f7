// "key=value" lists for kernel parameter overrides.
#include "closure/kernels/param_text.hpp"

#include <algorithm>
#include <stdexcept>

#include "closure/errors.hpp"
#include "closure/kernels/param_table.hpp"

namespace closure {

void parse_key_texts(const std::string& text, const char* what, const char* keys,
                     const std::function<bool(const std::string&, const std::string&)>& set) {
  if (text.empty()) return;
  size_t begin = 0;
  while (true) {
    const size_t comma = std::min(text.find(',', begin), text.size());
    const std::string item = text.substr(begin, comma - begin);
    if (item.empty()) throw UsageError("an empty item (a stray comma) in '" + text + "'");
    const auto eq = item.find('=');
    if (eq == std::string::npos) throw UsageError("expected key=value, got '" + item + "'");
    const std::string key = item.substr(0, eq);
    if (!set(key, item.substr(eq + 1)))
      throw UsageError(std::string("unknown ") + what + " '" + key + "' (" + keys + ")");
    if (comma == text.size()) return;
    begin = comma + 1;
  }
}

void parse_key_values(const std::string& text, const char* keys,
                      const std::function<bool(const std::string&, int)>& set) {
  parse_key_texts(text, "kernel parameter", keys,
                  [&](const std::string& key, const std::string& value_text) {
                    int value = 0;
                    try {
                      size_t used = 0;
                      value = std::stoi(value_text, &used);
                      if (used != value_text.size()) throw UsageError("trailing characters");
                    } catch (const std::exception&) {  // std::stoi's and the check above
                      throw UsageError("not a number in '" + key + "=" + value_text + "'");
                    }
                    return set(key, value);
                  });
}

std::string Allowed::describe() const {
  // Appends only: GCC 12 warns (-Wrestrict, a false positive) on "/" + std::string inlined.
  std::string out;
  auto add = [&](int v) {
    if (!out.empty()) out += '/';
    out += std::to_string(v);
  };
  if (n_choices > 0) {
    for (int i = 0; i < n_choices; ++i) add(choices[i]);
    return out;
  }
  if (!pow2) return std::to_string(lo) + ".." + std::to_string(hi);
  for (int v = lo; v <= hi; v *= 2) add(v);
  return out;
}

}  // namespace closure
