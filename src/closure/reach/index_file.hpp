// The index file: a versioned binary image of an IndexData, checksummed, written
// atomically and read into memory on load (never mapped: no SIGBUS when another process
// truncates it; into huge pages from 32 MiB on).
// Layout (little-endian, every section 8-aligned):
//
//   header (96 bytes): magic "CLOSRIDX", version, header size, vertices, components,
//                      edges, supportive count, flags, label byte count, file size,
//                      checksum (64-bit, over the header with this field zero + payload),
//                      name seed, layer bytes (version 4), 8 reserved
//   ComponentLabel[components]        48 bytes each (reach_index.hpp)
//   uint32 component_of[vertices]
//   uint32 offsets[components + 1]    condensation successors
//   uint32 targets[edges]
//   unless flags & kIdentityLabels:
//     uint64 label_offsets[vertices + 1], uint64 name slots[name_slot_count(vertices)]
//     (name_table.hpp), label bytes
//   version 4 (flags & kHasLayer): a living index's layer (index_layer.hpp)
// A file without a layer is written as version 3, so older builds read it.
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <string_view>

#include "closure/graph/input_error.hpp"
#include "closure/graph/input_source.hpp"
#include "closure/graph/tool_file_magic.hpp"
#include "closure/reach/living_index.hpp"
#include "closure/reach/reach_index.hpp"

namespace closure::reach {

// graph/tool_file_magic.hpp, by which the readers name an index given to them as a graph.
inline constexpr const char (&kIndexMagic)[8] = kIndexFileMagic;
// 2: Bloom filters replaced the levels; 3: a name hash table replaced the sorted names;
// 4: a layer of appended vertices and edges may follow (closure index --append)
inline constexpr uint32_t kIndexVersion = 4;
// Index files of this size or more are read into huge pages rather than 4 KiB pages (why:
// in index_file.cpp).
inline constexpr uint64_t kReadIntoHugePagesFrom = uint64_t{32} << 20;

// A damaged, truncated, foreign or unsupported index file (exit status 3, as bad input).
class IndexFileError : public InputError {
 public:
  IndexFileError(const std::string& file, const std::string& message)
      : InputError(file, 0, message) {}
};

// True when `first_bytes` starts with the index magic (how `query` recognises an index).
bool looks_like_index(std::string_view first_bytes);
// The same for an opened input, without consuming anything of a pipe (InputSource::peek).
bool is_index(InputSource& input);
// The same for a path, through the input source (false where it cannot be opened).
bool file_is_index(const std::string& path);

// The 64-bit checksum of the file format (4-lane multiply-rotate over 8-byte words). A file's
// checksum is index_checksum of the whole file with the 8 bytes at kIndexChecksumOffset
// zeroed, stored there (the fuzzer forges it to reach the structural checks behind it).
uint64_t index_checksum(const void* data, size_t size, uint64_t seed = 0);
inline constexpr size_t kIndexChecksumOffset = 64;

// The size of the file write_index writes.
uint64_t index_file_bytes(const IndexData& data);
// Writes the index through AtomicFile (temporary + rename); returns the bytes written.
uint64_t write_index(const std::string& path, const IndexData& data);
// The same for a base (built or loaded) and a layer section (encode_layer; may be empty).
uint64_t write_index(const std::string& path, const IndexView& base, const std::string& layer);
// The file image in memory (what write_index writes), for tests and the fuzzer's corpus.
std::string index_image(const IndexData& data);

// Reads (from `huge_pages_from` bytes into huge pages) and checks a file: header, sizes,
// checksum and every offset a query follows. A pipe or FIFO is read up to the size its
// header declares.
std::unique_ptr<ReachIndex> load_index(const std::string& path,
                                       uint64_t huge_pages_from = kReadIntoHugePagesFrom);
std::unique_ptr<ReachIndex> load_index(InputSource&& input,
                                       uint64_t huge_pages_from = kReadIntoHugePagesFrom);
// The same checks over bytes in memory; the result copies them (tests, fuzzer).
std::unique_ptr<ReachIndex> load_index_from_bytes(std::string_view bytes,
                                                  const std::string& name = "<memory>");
// load_index leaves a file's layer undecoded in view().layer; what answers queries is the
// living index, base and layer together (every reader of a user's file goes through it).
LivingIndex living_index_of(std::unique_ptr<ReachIndex> base, const std::string& name);
inline LivingIndex load_living_index(const std::string& path) {
  return living_index_of(load_index(path), path);
}
inline LivingIndex load_living_index(InputSource&& input) {
  const std::string name = input.name();
  return living_index_of(load_index(std::move(input)), name);
}

}  // namespace closure::reach
