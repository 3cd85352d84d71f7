// The environment, read in one place (config.hpp).
#include "closure/config.hpp"

#include <cstdlib>

namespace closure::config {

std::string text(const char* name) {
  const char* v = std::getenv(name);
  return v ? std::string(v) : std::string();
}

bool is_set(const char* name) {
  return std::getenv(name) != nullptr;
}

size_t count(const char* name) {
  const std::string v = text(name);
  if (v.empty()) return 0;
  char* end = nullptr;
  const unsigned long long x = std::strtoull(v.c_str(), &end, 10);
  return end && *end == '\0' ? size_t(x) : 0;
}

std::string user_cache_dir() {
  if (const std::string x = text("XDG_CACHE_HOME"); !x.empty()) return x + "/closure";
  if (const std::string h = text("HOME"); !h.empty()) return h + "/.cache/closure";
  return {};
}

}  // namespace closure::config
