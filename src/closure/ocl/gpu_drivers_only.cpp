// A vendors folder without PoCL for processes that open a GPU only (gpu_drivers_only.hpp).
#include "closure/ocl/gpu_drivers_only.hpp"

#include <stdlib.h>
#include <unistd.h>

#include <algorithm>
#include <cctype>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <system_error>

#include "closure/config.hpp"
#include "closure/io/content_hash.hpp"
#include "closure/ocl/device.hpp"
#include "closure/ocl/runtime.hpp"

namespace closure::ocl {
namespace {
namespace fs = std::filesystem;

std::string read_small(const fs::path& p) {
  std::ifstream in(p, std::ios::binary);
  std::ostringstream s;
  s << in.rdbuf();
  return s.str();
}

bool names_pocl(std::string icd) {
  std::transform(icd.begin(), icd.end(), icd.begin(),
                 [](unsigned char ch) { return char(std::tolower(ch)); });
  return icd.find("pocl") != std::string::npos;
}

// The vendors folder the loader would read: $OCL_ICD_VENDORS when it is a folder, else
// $OPENCL_VENDOR_PATH, else /etc/OpenCL/vendors. "" when the user pointed the loader at
// one file or library, or added libraries with $OCL_ICD_FILENAMES (their choice stands).
std::string loader_vendors_dir() {
  std::error_code ec;
  if (!config::text(config::kIcdFilenames).empty()) return {};
  if (const std::string v = config::text(config::kIcdVendors); !v.empty())
    return fs::is_directory(v, ec) ? v : std::string();
  if (const std::string v = config::text(config::kVendorPath); !v.empty()) return v;
  return "/etc/OpenCL/vendors";
}

// Writes `files` (names in `from`) to a new folder and renames it to `target`; another
// process that got there first is as good.
bool publish(const fs::path& from, const std::vector<std::string>& files, const fs::path& target) {
  std::error_code ec;
  if (fs::is_directory(target, ec)) return true;
  fs::create_directories(target.parent_path(), ec);
  std::string temp = (target.parent_path() / "vendors-XXXXXX").string();
  if (!::mkdtemp(temp.data())) return false;
  bool ok = true;
  for (const auto& f : files) ok = ok && fs::copy_file(from / f, fs::path(temp) / f, ec);
  if (ok && ::rename(temp.c_str(), target.c_str()) == 0) return true;
  fs::remove_all(temp, ec);
  return fs::is_directory(target, ec);
}

}  // namespace

std::vector<std::string> gpu_vendor_files(const std::string& vendors_dir) {
  std::vector<std::string> out;
  std::error_code ec;
  for (const auto& e : fs::directory_iterator(vendors_dir, ec)) {
    const std::string name = e.path().filename().string();
    if (e.path().extension() != ".icd" || !e.is_regular_file(ec)) continue;
    if (!names_pocl(read_small(e.path()))) out.push_back(name);
  }
  std::sort(out.begin(), out.end());
  return out;
}

bool load_gpu_drivers_only() {
  return !drivers_loaded() && point_loader_at_gpu_vendors();
}

bool point_loader_at_gpu_vendors() {
  const std::string dir = loader_vendors_dir();
  const std::string cache = program_cache_dir();
  if (dir.empty() || cache.empty()) return false;
  const std::vector<std::string> keep = gpu_vendor_files(dir);
  size_t all = 0;
  std::error_code ec;
  for (const auto& e : fs::directory_iterator(dir, ec))
    if (e.path().extension() == ".icd") ++all;
  if (keep.empty() || keep.size() == all) return false;
  ContentHash h;
  for (const auto& f : keep) {
    h.update(f);
    h.update(read_small(fs::path(dir) / f));
  }
  const fs::path target = fs::path(cache) / ("opencl-vendors-" + hash_hex(h.digest()));
  if (!publish(dir, keep, target)) return false;
  return ::setenv(config::kIcdVendors, target.c_str(), 1) == 0;
}

}  // namespace closure::ocl
