// The OpenCL runtime layer: device choice, the two-level program cache (including a
// corrupt entry), the kernel folder override, and errors that carry the build log.
#include <gtest/gtest.h>

#include <chrono>
#include <cstdlib>
#include <filesystem>
#include <fstream>

#include "closure/errors.hpp"
#include "closure/ocl/device.hpp"
#include "closure/ocl/error.hpp"
#include "closure/ocl/kernel_source.hpp"
#include "closure/ocl/opencl_library.hpp"
#include "closure/ocl/program_cache_entry.hpp"
#include "closure/ocl/runtime.hpp"
#include "test_support.hpp"

namespace closure {
namespace {
namespace fs = std::filesystem;

// Sets an environment variable for one scope.
class ScopedEnv {
 public:
  ScopedEnv(const char* name, const std::string& value) : name_(name) {
    if (const char* old = std::getenv(name)) old_ = old;
    ::setenv(name, value.c_str(), 1);
  }
  ~ScopedEnv() {
    if (old_)
      ::setenv(name_, old_->c_str(), 1);
    else
      ::unsetenv(name_);
  }

 private:
  const char* name_;
  std::optional<std::string> old_;
};

// A fresh folder, removed with the object, a failed assertion's return included.
class FreshDir {
 public:
  explicit FreshDir(const std::string& name)
      : path_(fs::temp_directory_path() /
              ("closure-test-" + name + "-" + std::to_string(::getpid()))) {
    fs::remove_all(path_);
    fs::create_directories(path_);
  }
  ~FreshDir() {
    std::error_code ec;
    fs::remove_all(path_, ec);
  }
  FreshDir(const FreshDir&) = delete;
  FreshDir& operator=(const FreshDir&) = delete;
  const fs::path& path() const { return path_; }

 private:
  fs::path path_;
};

TEST(OclDevice, HostIsChosenWhenAskedFor) {
  EXPECT_FALSE(ocl::choose_device("host").has_value());
  ScopedEnv env(ocl::kDeviceEnv, "host");
  EXPECT_FALSE(ocl::choose_device("").has_value());
}

TEST(OclDevice, UnknownSpecsAreRefusedWithAReason) {
  try {
    ocl::choose_device("4711");
    FAIL();
  } catch (const UsageError& e) {
    EXPECT_NE(std::string(e.what()).find("out of range"), std::string::npos);
  }
  EXPECT_THROW(ocl::choose_device("no-such-device-name"), UsageError);
}

TEST(OclDevice, DefaultPrefersGpuThenCpuAndIndicesAreStable) {
  const auto devices = ocl::list_devices();
  if (devices.empty()) GTEST_SKIP() << "no OpenCL device";
  const auto chosen = ocl::choose_device("");
  ASSERT_TRUE(chosen.has_value());
  const bool any_gpu =
      std::any_of(devices.begin(), devices.end(), [](auto& d) { return d.is_gpu; });
  EXPECT_EQ(chosen->is_gpu, any_gpu);
  for (const auto& d : devices)
    EXPECT_EQ(ocl::choose_device(std::to_string(d.index))->name, d.name);
}

// The program opens the ICD loader at its first OpenCL call; a loader that cannot be opened
// (or "off") answers as one with no platform, so every caller takes the host path.
TEST(OpenclLibrary, AMissingLoaderAnswersNoPlatform) {
  for (const char* soname : {"/nonexistent/libOpenCL.so.1", "libclosure-no-such.so", "off"}) {
    unsigned platforms = 7;
    EXPECT_EQ(ocl::detail::platform_count_through(soname, &platforms), -1001) << soname;
    EXPECT_EQ(platforms, 0u) << soname;
  }
  // The real loader: the same platforms the runtime lists (none where no driver is there).
  unsigned platforms = 0;
  const int status = ocl::detail::platform_count_through("libOpenCL.so.1", &platforms);
  const auto devices = ocl::list_devices();
  EXPECT_TRUE(ocl::opencl_library_opened());
  if (devices.empty()) {
    EXPECT_TRUE(status == -1001 || platforms == 0) << status;
  } else {
    EXPECT_EQ(status, 0);
    EXPECT_GE(platforms, 1u);
  }
}

TEST(OclKernelSource, EmbeddedAndFolderOverride) {
  EXPECT_NE(ocl::kernel_source("boolean_mul.cl").find("clcubic_mul"), std::string::npos);
  const FreshDir fresh("kernels");
  const fs::path& dir = fresh.path();
  std::ofstream(dir / "boolean_util.cl") << "// from disk\n";
  ScopedEnv env(ocl::kKernelPathEnv, dir.string());
  EXPECT_EQ(ocl::kernel_source("boolean_util.cl"), "// from disk\n");
  EXPECT_THROW(ocl::kernel_source("boolean_mul.cl"), ResourceError);
}

TEST(OclKernelSource, SharedHeadersAreInlinedOnce) {
  for (const char* file : {"boolean_mul.cl", "boolean_mma.cl", "boolean_util.cl", "propagate.cl"}) {
    const std::string text = ocl::kernel_source(file);
    EXPECT_EQ(text.find("\n#include \""), std::string::npos) << file;  // no directive left
    EXPECT_NE(text.find("typedef uint gpuword;"), std::string::npos) << file;
  }
  const FreshDir fresh("includes");
  const fs::path& dir = fresh.path();
  std::ofstream(dir / "main.cl") << "#include \"h.cl\"\n#include \"h.cl\"\nmain\n";
  std::ofstream(dir / "h.cl") << "header\n";
  ScopedEnv env(ocl::kKernelPathEnv, dir.string());
  EXPECT_EQ(ocl::kernel_source("main.cl"), "header\nmain\n");
}

TEST(OclRuntime, BuildFailureCarriesLogAndOptions) {
  auto device = ocl::choose_device("");
  if (!device) GTEST_SKIP() << "no OpenCL device";
  const FreshDir fresh("broken");
  const fs::path& dir = fresh.path();
  std::ofstream(dir / "broken.cl")
      << "__kernel void k(__global int* x) { x[0] = undefined_name; }\n";
  ScopedEnv kernels(ocl::kKernelPathEnv, dir.string());
  ScopedEnv cache("CLOSURE_CACHE_DIR", "off");
  ocl::Runtime rt(*device);
  try {
    rt.program("broken.cl", "-DMARKER=1");
    FAIL() << "the build should fail";
  } catch (const ocl::Error& e) {
    const std::string what = e.what();
    EXPECT_NE(what.find("CL_BUILD_PROGRAM_FAILURE"), std::string::npos) << what;
    EXPECT_NE(what.find("-DMARKER=1"), std::string::npos) << what;
    EXPECT_NE(what.find("undefined_name"), std::string::npos) << what;
  }
}

TEST(OclRuntime, ProgramCacheMemoryDiskAndCorruptEntry) {
  auto device = ocl::choose_device("");
  if (!device) GTEST_SKIP() << "no OpenCL device";
  const FreshDir fresh("cache");
  const fs::path& dir = fresh.path();
  ScopedEnv cache("CLOSURE_CACHE_DIR", dir.string());
  const std::string options = "-cl-std=CL1.2 -DCACHE_TEST=" + std::to_string(::getpid());
  auto seconds = [](auto t0) {
    return std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  };
  double compile_s = 0, load_s = 0;
  {
    ocl::Runtime rt(*device);
    auto t0 = std::chrono::steady_clock::now();
    rt.program("boolean_mul.cl", options);
    compile_s = seconds(t0);
    rt.program("boolean_mul.cl", options);
    EXPECT_EQ(rt.cache_stats().compiles, 1);
    EXPECT_EQ(rt.cache_stats().memory_hits, 1);
  }
  ASSERT_EQ(std::distance(fs::directory_iterator(dir), fs::directory_iterator{}), 1);
  const fs::path entry = fs::directory_iterator(dir)->path();
  {
    ocl::Runtime rt(*device);
    auto t0 = std::chrono::steady_clock::now();
    rt.kernel("boolean_mul.cl", options, "clcubic_mul");
    load_s = seconds(t0);
    EXPECT_EQ(rt.cache_stats().disk_hits, 1);
    EXPECT_EQ(rt.cache_stats().compiles, 0);
  }
  std::ofstream(entry, std::ios::binary | std::ios::trunc) << "not a program binary";
  {
    ocl::Runtime rt(*device);
    EXPECT_NO_THROW(rt.kernel("boolean_mul.cl", options, "clcubic_mul"));
    EXPECT_EQ(rt.cache_stats().disk_rejected, 1);
    EXPECT_EQ(rt.cache_stats().compiles, 1);
  }
  EXPECT_GT(fs::file_size(entry), 100u);  // rewritten with a real binary
  std::printf("program cache on %s: compile %.3f s, load from disk %.3f s\n", device->name.c_str(),
              compile_s, load_s);
}

// Damage of the kinds PoCL crashed on (truncation, zeroed bytes) or that a stray file
// brings (garbage, another key's entry): the entry is deleted and rebuilt, every time.
TEST(OclRuntime, DamagedCacheEntriesAreRebuiltSilently) {
  auto device = ocl::choose_device("");
  if (!device) GTEST_SKIP() << "no OpenCL device";
  const FreshDir fresh("damage");
  const fs::path& dir = fresh.path();
  ScopedEnv cache("CLOSURE_CACHE_DIR", dir.string());
  const std::string options = "-cl-std=CL1.2 -DDAMAGE_TEST=" + std::to_string(::getpid());
  const std::string other_options = options + " -DOTHER=1";
  auto read_bytes = [](const fs::path& p) {
    std::ifstream in(p, std::ios::binary);
    return std::string((std::istreambuf_iterator<char>(in)), {});
  };
  auto write_bytes = [](const fs::path& p, const std::string& bytes) {
    std::ofstream(p, std::ios::binary | std::ios::trunc) << bytes;
  };
  auto only_entry = [&] {
    std::vector<fs::path> entries;
    for (const auto& e : fs::directory_iterator(dir)) entries.push_back(e.path());
    EXPECT_EQ(entries.size(), 1u);
    return entries.empty() ? fs::path() : entries.front();
  };
  // The entry of `other_options` first (kept as a foreign entry), then that of `options`.
  ocl::Runtime(*device).program("boolean_util.cl", other_options);
  const std::string b = read_bytes(only_entry());
  fs::remove_all(dir);
  fs::create_directories(dir);
  ocl::Runtime(*device).program("boolean_util.cl", options);
  const fs::path entry = only_entry();
  const std::string a = read_bytes(entry);
  ASSERT_GT(a.size(), 64u);
  const std::vector<std::pair<std::string, std::string>> damage = {
      {"truncated to half", a.substr(0, a.size() / 2)},
      {"truncated header", a.substr(0, 20)},
      {"empty", ""},
      {"4 bytes zeroed in the middle",
       a.substr(0, a.size() / 2) + std::string(4, '\0') + a.substr(a.size() / 2 + 4)},
      {"4 bytes zeroed in the header length",
       a.substr(0, 16) + std::string(4, '\0') + a.substr(20)},
      {"garbage", std::string(a.size(), '\x5a')},
      {"the other key's entry", b},
  };
  for (const auto& [what, bytes] : damage) {
    SCOPED_TRACE(what);
    write_bytes(entry, bytes);
    {
      ocl::Runtime rt(*device);
      EXPECT_NO_THROW(rt.kernel("boolean_util.cl", options, "words_differ"));
      EXPECT_EQ(rt.cache_stats().disk_rejected, 1);
      EXPECT_EQ(rt.cache_stats().compiles, 1);
      EXPECT_EQ(rt.cache_stats().disk_hits, 0);
    }
    {
      ocl::Runtime rt(*device);  // the rebuilt entry is good again
      EXPECT_NO_THROW(rt.kernel("boolean_util.cl", options, "words_differ"));
      EXPECT_EQ(rt.cache_stats().disk_hits, 1);
      EXPECT_EQ(rt.cache_stats().compiles, 0);
    }
    EXPECT_EQ(only_entry(), entry);  // rewritten in place, no temporaries left behind
  }
}

TEST(ProgramCacheEntry, ChecksumCatchesEveryKindOfDamage) {
  std::vector<unsigned char> binary(1000);
  for (size_t i = 0; i < binary.size(); ++i) binary[i] = static_cast<unsigned char>(i * 7);
  const auto entry = ocl::encode_cache_entry(42, binary);
  ASSERT_EQ(entry.size(), ocl::kCacheHeaderBytes + binary.size());
  EXPECT_EQ(ocl::decode_cache_entry(42, entry), binary);
  EXPECT_FALSE(ocl::decode_cache_entry(43, entry).has_value());  // another key's entry
  for (size_t at = 0; at < entry.size(); at += 37) {
    auto damaged = entry;
    damaged[at] ^= 0x01;
    EXPECT_FALSE(ocl::decode_cache_entry(42, damaged).has_value()) << at;
  }
  for (size_t size : {size_t{0}, size_t{31}, size_t{32}, entry.size() - 1}) {
    const std::vector<unsigned char> cut(entry.begin(), entry.begin() + std::ptrdiff_t(size));
    EXPECT_FALSE(ocl::decode_cache_entry(42, cut).has_value()) << size;
  }
  auto longer = entry;
  longer.push_back(0);
  EXPECT_FALSE(ocl::decode_cache_entry(42, longer).has_value());
}

}  // namespace
}  // namespace closure
