// The first bytes of the binary files closure writes that are not graphs: an index from
// `closure index` and a closure written as a bit matrix (-o NAME.bin). Defined here, below
// the readers, so that a reader given one says what it is rather than "binary data".
#pragma once

#include <cstring>
#include <string_view>

namespace closure {

inline constexpr char kIndexFileMagic[8] = {'C', 'L', 'O', 'S', 'R', 'I', 'D', 'X'};
inline constexpr char kBinaryClosureMagic[8] = {'C', 'L', 'O', 'S', 'B', 'I', 'T', '1'};

// What a file whose first bytes are `first` is, as a message's subject, where it is one of
// these; else nullptr. `gzip`: they are the file's bytes inflated (an index is read only as
// written, so even `closure query` takes a compressed one for a graph).
inline const char* tool_file_kind(std::string_view first, bool gzip = false) {
  if (first.size() < 8) return nullptr;
  if (std::memcmp(first.data(), kIndexFileMagic, 8) == 0 && gzip)
    return "a gzip-compressed reachability index, not a graph: `closure query` reads an index "
           "only uncompressed, as `closure index` wrote it (gunzip it first)";
  if (std::memcmp(first.data(), kIndexFileMagic, 8) == 0)
    return "a reachability index written by `closure index`, not a graph: only `closure query` "
           "reads it (give this command the graph it was built from)";
  if (std::memcmp(first.data(), kBinaryClosureMagic, 8) == 0)
    return "a closure written as a binary bit matrix (-o NAME.bin), not a graph "
           "(docs/formats.md, \"Binary\", says how to read it)";
  return nullptr;
}

}  // namespace closure
