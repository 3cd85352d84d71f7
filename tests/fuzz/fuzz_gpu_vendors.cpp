// libFuzzer target: what a GPU-only process reads of the OpenCL loader's settings
// (app/process/gpu_drivers_only.hpp): any $OCL_ICD_FILENAMES list, and a vendors folder holding one
// vendor file of any bytes. The list kept never names PoCL, holds only entries of the
// original in their order, and is "" when nothing was dropped; a vendor file is kept
// exactly when its first 4 KiB name no PoCL. Never a crash or an overread.
#include <unistd.h>

#include <algorithm>
#include <cctype>
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <string>

#include "app/process/gpu_drivers_only.hpp"

namespace {

bool names_pocl(std::string s) {
  std::transform(s.begin(), s.end(), s.begin(),
                 [](unsigned char c) { return char(std::tolower(c)); });
  return s.find("pocl") != std::string::npos;
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  const std::string input(reinterpret_cast<const char*>(data), size);
  const std::string kept = closure::ocl::filenames_without_pocl(input);
  if (!kept.empty()) {
    if (names_pocl(kept) || kept.front() == ':' || kept.back() == ':') std::abort();
    // Each kept entry appears in the input, in order.
    size_t from = 0, at = 0;
    while (from <= kept.size()) {
      const size_t colon = std::min(kept.find(':', from), kept.size());
      const std::string lib = kept.substr(from, colon - from);
      if (lib.empty()) std::abort();
      at = input.find(lib, at);
      if (at == std::string::npos) std::abort();
      at += lib.size();
      from = colon + 1;
    }
  }
  // One vendor file of these bytes.
  struct Folder {  // removed when the fuzzer exits
    std::filesystem::path path =
        std::filesystem::temp_directory_path() / ("fuzz-vendors-" + std::to_string(::getpid()));
    Folder() { std::filesystem::create_directories(path); }
    ~Folder() {
      std::error_code ec;
      std::filesystem::remove_all(path, ec);
    }
  };
  static const Folder folder;
  const std::filesystem::path& dir = folder.path;
  std::ofstream(dir / "v.icd", std::ios::binary | std::ios::trunc)
      .write(input.data(), std::streamsize(size));
  const bool kept_file = closure::ocl::gpu_vendor_files(dir.string()).size() == 1;
  if (kept_file == names_pocl(input.substr(0, 4096))) std::abort();
  return 0;
}
