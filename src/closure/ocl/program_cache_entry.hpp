// The on-disk format of one program-cache entry: a 32-byte header (magic, format version,
// payload length, a 64-bit checksum of the payload seeded with the entry's key) and the
// driver's program binary. A damaged entry (truncated, bytes zeroed, another key's file,
// garbage) fails the check and never reaches the OpenCL driver.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace closure::ocl {

inline constexpr char kCacheMagic[8] = {'C', 'L', 'O', 'S', 'P', 'R', 'G', '1'};
inline constexpr uint32_t kCacheFormatVersion = 1;
inline constexpr size_t kCacheHeaderBytes = 32;

std::vector<unsigned char> encode_cache_entry(uint64_t key,
                                              const std::vector<unsigned char>& binary);
// The binary, or nothing when the bytes are not an intact entry for `key`.
std::optional<std::vector<unsigned char>> decode_cache_entry(
    uint64_t key, const std::vector<unsigned char>& bytes);

// decode_cache_entry on a file's contents (nothing when unreadable or larger than 1 GB).
std::optional<std::vector<unsigned char>> read_cache_entry(const std::string& path, uint64_t key);
// Written to a unique temporary in the same folder (mkstemp), flushed and renamed over
// `path`, so readers see the old entry or the new one, whole. False if it could not be.
bool write_cache_entry(const std::string& path, uint64_t key,
                       const std::vector<unsigned char>& binary);

}  // namespace closure::ocl
