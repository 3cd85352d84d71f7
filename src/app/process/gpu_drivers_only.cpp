// A vendors folder without PoCL for processes that open a GPU only (gpu_drivers_only.hpp).
#include "app/process/gpu_drivers_only.hpp"

#include <stdlib.h>
#include <unistd.h>

#include <algorithm>
#include <cctype>
#include <filesystem>
#include <fstream>
#include <string_view>
#include <system_error>

#include "closure/config.hpp"
#include "closure/io/content_hash.hpp"
#include "closure/ocl/device.hpp"
#include "closure/ocl/runtime.hpp"
#include "closure/util/trace.hpp"

namespace closure::ocl {
namespace {
namespace fs = std::filesystem;

// A vendor file's first 4 KiB (the loader reads its first line): a huge or endless file
// in the folder costs nothing more.
std::string read_small(const fs::path& p) {
  std::ifstream in(p, std::ios::binary);
  std::string text(4096, '\0');
  in.read(text.data(), std::streamsize(text.size()));
  text.resize(size_t(in.gcount()));
  return text;
}

bool names_pocl(std::string icd) {
  std::transform(icd.begin(), icd.end(), icd.begin(),
                 [](unsigned char ch) { return char(std::tolower(ch)); });
  return icd.find("pocl") != std::string::npos;
}

// The vendors folder the loader would read: $OCL_ICD_VENDORS when it is a folder, else
// $OPENCL_VENDOR_PATH, else /etc/OpenCL/vendors. "" when the user pointed the loader at
// one file or library (their choice stands).
std::string loader_vendors_dir() {
  std::error_code ec;
  if (const std::string v = config::text(config::kIcdVendors); !v.empty())
    return fs::is_directory(v, ec) ? v : std::string();
  if (const std::string v = config::text(config::kVendorPath); !v.empty()) return v;
  return "/etc/OpenCL/vendors";
}

// $OCL_ICD_FILENAMES without PoCL's, when another remains.
bool drop_pocl_from_filenames() {
  const std::string kept = filenames_without_pocl(config::text(config::kIcdFilenames));
  return !kept.empty() && ::setenv(config::kIcdFilenames, kept.c_str(), 1) == 0;
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

// The vendors folder without PoCL's files: a copy under the program cache, named by a hash
// of what it holds, written once.
bool drop_pocl_from_vendors_dir() {
  const std::string dir = loader_vendors_dir();
  const std::string cache = program_cache_dir();
  if (dir.empty() || cache.empty()) {
    trace("gpu drivers only: vendors folder kept (the user named a driver, or no cache folder)");
    return false;
  }
  const std::vector<std::string> keep = gpu_vendor_files(dir);
  size_t all = 0;
  std::error_code ec;
  for (const auto& e : fs::directory_iterator(dir, ec))
    if (e.path().extension() == ".icd") ++all;
  if (keep.empty() || keep.size() == all) return false;  // only PoCL, or no PoCL
  ContentHash h;
  for (const auto& f : keep) {
    h.update(f);
    h.update(read_small(fs::path(dir) / f));
  }
  const fs::path target = fs::path(cache) / ("opencl-vendors-" + hash_hex(h.digest()));
  if (!publish(dir, keep, target) || ::setenv(config::kIcdVendors, target.c_str(), 1) != 0) {
    trace("gpu drivers only: the vendors folder could not be written");
    return false;
  }
  return true;
}

}  // namespace

std::string filenames_without_pocl(std::string_view list) {
  std::string kept;
  bool dropped = false;
  while (!list.empty()) {
    const size_t colon = list.find(':');
    const std::string_view lib = list.substr(0, colon);
    list = colon == std::string_view::npos ? std::string_view() : list.substr(colon + 1);
    if (lib.empty()) continue;
    if (names_pocl(std::string(lib))) {
      dropped = true;
      continue;
    }
    if (!kept.empty()) kept += ':';
    kept += lib;
  }
  return dropped ? kept : std::string();
}

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
  if (drivers_loaded()) {
    trace("gpu drivers only: no, already loaded");
    return false;
  }
  return point_loader_at_gpu_vendors();
}

bool point_loader_at_gpu_vendors() {
  const bool filenames = drop_pocl_from_filenames();
  const bool vendors = drop_pocl_from_vendors_dir();
  trace(filenames || vendors ? "gpu drivers only: PoCL left out"
                             : "gpu drivers only: nothing to leave out");
  return filenames || vendors;
}

}  // namespace closure::ocl
