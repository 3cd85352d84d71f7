// A GPU-only CLI process leaves PoCL out of the ICD loader's vendors
// (app/process/gpu_drivers_only): which vendor files are kept, the folder written under the program
// cache, and the cases where the user's setting or the machine's drivers leave everything as it is.
// Each case that sets the environment runs in a child process, before any OpenCL call there.
#include <gtest/gtest.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <functional>
#include <string>

#include "app/process/gpu_drivers_only.hpp"

namespace closure::ocl {
namespace {
namespace fs = std::filesystem;

struct Folders {
  fs::path root, vendors, cache;
  Folders() {
    root = fs::temp_directory_path() /
           ("closure-vendors-" + std::to_string(::getpid()) + "-" + std::to_string(counter++));
    vendors = root / "vendors";
    cache = root / "cache";
    fs::create_directories(vendors);
  }
  ~Folders() { fs::remove_all(root); }
  void icd(const std::string& name, const std::string& library) {
    std::ofstream(vendors / name) << library << "\n";
  }
  static inline int counter = 0;
};

// Runs `body` in a child process with OCL_ICD_VENDORS=vendors, no OCL_ICD_FILENAMES and the
// program cache in `cache`; returns what `body` returned.
std::string in_child_text(const Folders& f, const std::function<std::string()>& body) {
  int fds[2];
  if (::pipe(fds) != 0) return "pipe failed";
  const pid_t child = ::fork();
  if (child == 0) {
    ::close(fds[0]);
    ::setenv("OCL_ICD_VENDORS", f.vendors.c_str(), 1);
    ::unsetenv("OCL_ICD_FILENAMES");
    ::unsetenv("OPENCL_VENDOR_PATH");
    ::setenv("CLOSURE_CACHE_DIR", f.cache.c_str(), 1);
    const std::string out = body();
    (void)!::write(fds[1], out.data(), out.size());
    ::_exit(0);
  }
  ::close(fds[1]);
  std::string out;
  char buf[512];
  for (ssize_t r; (r = ::read(fds[0], buf, sizeof buf)) > 0;) out.append(buf, size_t(r));
  ::close(fds[0]);
  int status = 0;
  ::waitpid(child, &status, 0);
  return out;
}

// As in_child_text: the new OCL_ICD_VENDORS when `body` changed something, else "-".
std::string in_child(const Folders& f, const std::function<bool()>& body) {
  return in_child_text(
      f, [&] { return body() ? std::string(std::getenv("OCL_ICD_VENDORS")) : std::string("-"); });
}

TEST(GpuDriversOnly, KeepsEveryVendorFileButPocls) {
  Folders f;
  f.icd("nvidia.icd", "libnvidia-opencl.so.1");
  f.icd("pocl.icd", "libpocl.so.2.12.0");
  f.icd("intel.icd", "/usr/lib/x86_64-linux-gnu/intel-opencl/libigdrcl.so");
  f.icd("POCL-dev.icd", "/opt/PoCL/lib/libPOCL.so");
  std::ofstream(f.vendors / "README") << "not a vendor file\n";
  // Hostile entries: a FIFO (never opened: it would block) and a 4 MB file (read no
  // further than its first 4 KiB) whose library is PoCL's.
  ASSERT_EQ(::mkfifo((f.vendors / "fifo.icd").c_str(), 0600), 0);
  std::ofstream(f.vendors / "huge.icd") << "libpocl.so.2\n" << std::string(4 << 20, 'x');
  EXPECT_EQ(gpu_vendor_files(f.vendors.string()),
            (std::vector<std::string>{"intel.icd", "nvidia.icd"}));
}

TEST(GpuDriversOnly, PointsTheLoaderAtACopyWithoutPocl) {
  Folders f;
  f.icd("nvidia.icd", "libnvidia-opencl.so.1");
  f.icd("pocl.icd", "libpocl.so.2.12.0");
  const std::string first = in_child(f, [] { return point_loader_at_gpu_vendors(); });
  ASSERT_NE(first, "-");
  EXPECT_EQ(fs::path(first).parent_path(), f.cache);
  EXPECT_EQ(gpu_vendor_files(first), std::vector<std::string>{"nvidia.icd"});
  EXPECT_FALSE(fs::exists(fs::path(first) / "pocl.icd"));
  std::ifstream in(fs::path(first) / "nvidia.icd");
  std::string line;
  std::getline(in, line);
  EXPECT_EQ(line, "libnvidia-opencl.so.1");
  // The same vendors: the same folder, reused; changed vendors: another.
  EXPECT_EQ(in_child(f, [] { return point_loader_at_gpu_vendors(); }), first);
  f.icd("amd.icd", "libamdocl64.so");
  const std::string changed = in_child(f, [] { return point_loader_at_gpu_vendors(); });
  EXPECT_NE(changed, first);
  EXPECT_EQ(gpu_vendor_files(changed), (std::vector<std::string>{"amd.icd", "nvidia.icd"}));
}

TEST(GpuDriversOnly, LeavesTheLoaderAloneWhenNothingIsGained) {
  Folders f;
  f.icd("pocl.icd", "libpocl.so.2.12.0");  // only PoCL: it is the device there is
  EXPECT_EQ(in_child(f, [] { return point_loader_at_gpu_vendors(); }), "-");
  Folders g;
  g.icd("nvidia.icd", "libnvidia-opencl.so.1");  // no PoCL: nothing to leave out
  EXPECT_EQ(in_child(g, [] { return point_loader_at_gpu_vendors(); }), "-");
  EXPECT_FALSE(fs::exists(g.cache));
}

// A cache "folder" that is a file (or any folder that cannot be written): nothing is
// changed, no temporary is left, and the loader reads the vendors as they are.
TEST(GpuDriversOnly, AnUnwritableCacheChangesNothing) {
  Folders f;
  f.icd("nvidia.icd", "libnvidia-opencl.so.1");
  f.icd("pocl.icd", "libpocl.so.2.12.0");
  std::ofstream(f.root / "cache-file") << "not a folder\n";
  const std::string cache_file = (f.root / "cache-file").string();
  EXPECT_EQ(in_child(f,
                     [&] {
                       ::setenv("CLOSURE_CACHE_DIR", cache_file.c_str(), 1);
                       return point_loader_at_gpu_vendors();
                     }),
            "-");
  size_t entries = 0;
  for ([[maybe_unused]] const auto& e : fs::directory_iterator(f.root)) ++entries;
  EXPECT_EQ(entries, 2u);  // vendors/ and cache-file: no temporary folder left
}

TEST(GpuDriversOnly, AVendorFileTheUserNamedStands) {
  Folders f;
  f.icd("nvidia.icd", "libnvidia-opencl.so.1");
  f.icd("pocl.icd", "libpocl.so.2.12.0");
  const std::string one = (f.vendors / "pocl.icd").string();
  EXPECT_EQ(in_child(f,
                     [&] {
                       ::setenv("OCL_ICD_VENDORS", one.c_str(), 1);
                       return point_loader_at_gpu_vendors();
                     }),
            "-");
}

// Drivers named by library (as the H200 machine's image does) lose PoCL's too, unless
// PoCL's is all there is.
TEST(GpuDriversOnly, LibrariesByNameLosePoclsWhenAnotherRemains) {
  Folders f;
  f.icd("nvidia.icd", "libnvidia-opencl.so.1");  // no PoCL in the folder
  const auto filenames_after = [&f](const char* filenames) {
    return in_child_text(f, [filenames] {
      ::setenv("OCL_ICD_FILENAMES", filenames, 1);
      const bool did = point_loader_at_gpu_vendors();
      return (did ? "changed " : "kept ") + std::string(std::getenv("OCL_ICD_FILENAMES"));
    });
  };
  EXPECT_EQ(filenames_after("libpocl.so.2:libnvidia-opencl.so.1"), "changed libnvidia-opencl.so.1");
  EXPECT_EQ(filenames_after("/opt/a/libamdocl64.so::/usr/lib/PoCL/libpocl.so:libmine.so"),
            "changed /opt/a/libamdocl64.so:libmine.so");
  EXPECT_EQ(filenames_after("libpocl.so.2"), "kept libpocl.so.2");
  EXPECT_EQ(filenames_after("libnvidia-opencl.so.1"), "kept libnvidia-opencl.so.1");
}

}  // namespace
}  // namespace closure::ocl
