// The verdict cache: a process-wide map, and marker files in the program cache folder.
#include "closure/ocl/verdict_cache.hpp"

#include <atomic>
#include <filesystem>
#include <fstream>
#include <map>
#include <mutex>

#include "closure/ocl/kernel_source.hpp"

namespace closure::ocl {
namespace {

std::mutex verdicts_mutex;
std::map<std::string, bool> verdicts;
std::atomic<int> computed{0};

}  // namespace

bool cached_verdict(const Runtime& runtime, const std::string& file, const std::string& options,
                    const std::string& what, const std::function<bool()>& check) {
  const std::string key =
      program_cache_key(runtime.device(), options, kernel_source(file)) + "." + what;
  {
    std::lock_guard lock(verdicts_mutex);
    if (auto it = verdicts.find(key); it != verdicts.end()) return it->second;
  }
  const std::string dir = program_cache_dir();
  const std::string marker = dir.empty() ? std::string() : dir + "/" + key + ".ok";
  std::error_code ec;
  bool ok = !marker.empty() && std::filesystem::exists(marker, ec);
  if (!ok) {
    ++computed;
    ok = check();
    if (ok && !marker.empty()) {
      std::filesystem::create_directories(dir, ec);
      std::ofstream(marker) << "ok\n";  // empty or partial files read the same: presence
    }
  }
  std::lock_guard lock(verdicts_mutex);
  verdicts[key] = ok;
  return ok;
}

int verdicts_computed() {
  return computed.load();
}

}  // namespace closure::ocl
