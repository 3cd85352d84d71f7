// "key=value" lists for kernel parameter overrides.
#include "closure/kernels/param_text.hpp"

#include <sstream>
#include <stdexcept>

#include "closure/errors.hpp"
#include "closure/kernels/param_table.hpp"

namespace closure {

void parse_key_values(const std::string& text, const char* keys,
                      const std::function<bool(const std::string&, int)>& set) {
  std::stringstream in(text);
  std::string item;
  while (std::getline(in, item, ',')) {
    if (item.empty()) continue;
    const auto eq = item.find('=');
    if (eq == std::string::npos) throw UsageError("expected key=value, got '" + item + "'");
    const std::string key = item.substr(0, eq);
    int value = 0;
    try {
      size_t used = 0;
      value = std::stoi(item.substr(eq + 1), &used);
      if (used != item.size() - eq - 1) throw UsageError("trailing characters");
    } catch (const std::exception&) {  // std::stoi's and the check above
      throw UsageError("not a number in '" + item + "'");
    }
    if (!set(key, value)) throw UsageError("unknown kernel parameter '" + key + "' (" + keys + ")");
  }
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
