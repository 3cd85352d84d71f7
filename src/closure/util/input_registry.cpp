// The registry of inputs: a small set under a mutex (a command opens a handful of files).
#include "closure/util/input_registry.hpp"

#include <mutex>
#include <set>
#include <utility>

namespace closure {
namespace {

std::mutex& registry_mutex() {
  static std::mutex m;
  return m;
}

std::set<std::pair<dev_t, ino_t>>& registry() {
  static std::set<std::pair<dev_t, ino_t>> inputs;
  return inputs;
}

int g_scopes = 0;  // under registry_mutex()

}  // namespace

InputScope::InputScope() {
  std::lock_guard lock(registry_mutex());
  ++g_scopes;
}

InputScope::~InputScope() {
  std::lock_guard lock(registry_mutex());
  if (--g_scopes == 0) registry().clear();
}

void note_input(const struct stat& st) {
  if (!S_ISREG(st.st_mode)) return;  // streams and devices cannot be overwritten by a rename
  std::lock_guard lock(registry_mutex());
  if (g_scopes > 0) registry().emplace(st.st_dev, st.st_ino);
}

void forget_input(const char* path) {
  struct stat st {};
  if (::stat(path, &st) != 0) return;
  std::lock_guard lock(registry_mutex());
  registry().erase({st.st_dev, st.st_ino});
}

bool is_noted_input(const struct stat& st) {
  if (!S_ISREG(st.st_mode)) return false;
  std::lock_guard lock(registry_mutex());
  return registry().count({st.st_dev, st.st_ino}) > 0;
}

}  // namespace closure
