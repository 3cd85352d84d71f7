// Program-cache entries: header, checksum, atomic writes.
#include "closure/ocl/program_cache_entry.hpp"

#include <fcntl.h>
#include <unistd.h>

#include <cerrno>
#include <cstdio>
#include <cstring>
#include <filesystem>

#include "closure/io/content_hash.hpp"
#include "closure/util/small_file.hpp"

namespace closure::ocl {
namespace {

// Header layout, in this machine's byte order (an entry of another byte order fails the
// magic or the checksum and is rebuilt):
//   0 magic[8]   8 version u32   12 reserved u32 (0)   16 length u64   24 checksum u64
// The checksum covers the payload and is seeded with the entry's cache key, so another
// key's entry copied or renamed onto this name fails it too.
struct Header {
  char magic[8];
  uint32_t version;
  uint32_t reserved;
  uint64_t length;
  uint64_t checksum;
};
static_assert(sizeof(Header) == kCacheHeaderBytes);

uint64_t checksum(uint64_t key, const unsigned char* data, size_t size) {
  return content_hash(data, size, key);
}

constexpr uint64_t kMaxEntryBytes = uint64_t{1} << 30;

}  // namespace

std::vector<unsigned char> encode_cache_entry(uint64_t key,
                                              const std::vector<unsigned char>& binary) {
  Header h{};
  std::memcpy(h.magic, kCacheMagic, sizeof h.magic);
  h.version = kCacheFormatVersion;
  h.length = binary.size();
  h.checksum = checksum(key, binary.data(), binary.size());
  std::vector<unsigned char> out(sizeof h + binary.size());
  std::memcpy(out.data(), &h, sizeof h);
  if (!binary.empty()) std::memcpy(out.data() + sizeof h, binary.data(), binary.size());
  return out;
}

std::optional<std::vector<unsigned char>> decode_cache_entry(
    uint64_t key, const std::vector<unsigned char>& bytes) {
  Header h;
  if (bytes.size() < sizeof h) return std::nullopt;
  std::memcpy(&h, bytes.data(), sizeof h);
  if (std::memcmp(h.magic, kCacheMagic, sizeof h.magic) != 0) return std::nullopt;
  if (h.version != kCacheFormatVersion || h.reserved != 0) return std::nullopt;
  if (h.length == 0 || h.length != bytes.size() - sizeof h) return std::nullopt;
  const unsigned char* payload = bytes.data() + sizeof h;
  if (h.checksum != checksum(key, payload, h.length)) return std::nullopt;
  return std::vector<unsigned char>(payload, payload + h.length);
}

std::optional<std::vector<unsigned char>> read_cache_entry(const std::string& path, uint64_t key) {
  // Non-blocking and bounded: a FIFO or device under an entry's name is a bad entry, rebuilt.
  std::string text;
  if (read_small_file(path, kMaxEntryBytes, text) != SmallFileStatus::kOk) return std::nullopt;
  const auto* p = reinterpret_cast<const unsigned char*>(text.data());
  return decode_cache_entry(key, std::vector<unsigned char>(p, p + text.size()));
}

bool write_cache_entry(const std::string& path, uint64_t key,
                       const std::vector<unsigned char>& binary) {
  namespace fs = std::filesystem;
  std::error_code ec;
  const fs::path target(path);
  fs::create_directories(target.parent_path(), ec);
  if (ec) return false;
  // The hidden temporary's name by appends: "." + std::string trips GCC 12's -Wrestrict
  // false positive (operator+ inlined).
  std::string name = ".";
  name += target.filename().string();
  name += ".XXXXXX";
  std::string tmp = (target.parent_path() / name).string();
  const int fd = ::mkstemp(tmp.data());
  if (fd < 0) return false;
  const std::vector<unsigned char> bytes = encode_cache_entry(key, binary);
  bool ok = true;
  for (size_t done = 0; ok && done < bytes.size();) {
    const ssize_t n = ::write(fd, bytes.data() + done, bytes.size() - done);
    if (n > 0)
      done += size_t(n);
    else if (n < 0 && errno == EINTR)
      continue;
    else
      ok = false;
  }
  // fsync: a crash soon after must not leave a renamed entry whose blocks never landed
  // (it would be rejected by the checksum, but then rebuilt for nothing).
  ok = ok && ::fsync(fd) == 0;
  ok = (::close(fd) == 0) && ok;
  if (ok) ok = std::rename(tmp.c_str(), path.c_str()) == 0;
  if (!ok) ::unlink(tmp.c_str());
  return ok;
}

}  // namespace closure::ocl
