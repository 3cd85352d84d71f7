// The append journal of `closure serve`: every acknowledged append, on disk before its
// answer, beside the index it applies to (INDEX.journal). A restart replays it onto the
// index file; a fold writes the index (base + layer, atomically) and then empties it.
// Replaying a record twice changes nothing (edges are a set and vertices go by label), so a
// crash between the two steps of a fold loses nothing and duplicates nothing.
//
// Layout (little-endian): header "CLOSRJNL", u32 version 1, u32 header bytes 16; then
// records: u32 payload bytes, u32 edge count, u64 checksum of the payload, payload: per
// edge u32 source length, u32 target length, the two labels' bytes.
#pragma once

#include <cstdint>
#include <string>
#include <utility>
#include <vector>

#include "closure/errors.hpp"

namespace closure::serve {

using LabelPairs = std::vector<std::pair<std::string, std::string>>;

// The most one record may hold (a request's body is bounded far below).
inline constexpr uint32_t kMaxJournalRecordBytes = 1u << 30;

struct JournalReplay {
  std::vector<LabelPairs> records;
  uint64_t torn_tail_bytes = 0;  // an unfinished last record, cut off (never acknowledged)
};

class Journal {
 public:
  // Opens or creates the journal at `path` (a symbolic link or a non-regular file there is
  // refused) and reads its records. A record cut short at the end is cut off; a damaged
  // record with more after it is refused (InputError): it may hold acknowledged edges.
  Journal(const std::string& path, JournalReplay& replay);
  ~Journal();
  Journal(const Journal&) = delete;
  Journal& operator=(const Journal&) = delete;

  // Appends one record and syncs it to disk. On failure (a full disk) the file is cut back
  // to its size before and ResourceError is thrown: nothing of the record remains.
  void append(const LabelPairs& edges);
  // The records as they are on disk now (a reload replays them onto a new index file).
  JournalReplay read_back() const;
  // Empties the journal: a fresh one renamed over it, synced with its folder.
  void reset();
  const std::string& path() const { return path_; }
  uint64_t records() const { return records_; }
  uint64_t bytes() const { return bytes_; }

 private:
  std::string path_;
  int fd_ = -1;
  uint64_t records_ = 0, bytes_ = 0;
};

// Refuses (UsageError) where a `closure serve` of the index at `index_path` holds its journal:
// the index written under it would be folded over by the service, losing what either added.
void refuse_if_served(const std::string& index_path);
// The refusal of a journal another process holds.
UsageError journal_in_use(const std::string& journal);

// The record's bytes (tests and the fuzzer build journals with it).
std::string journal_record(const LabelPairs& edges);
// Parses journal bytes as Journal's constructor does (no file): the fuzz target's entry.
JournalReplay parse_journal(const std::string& bytes, const std::string& name);

}  // namespace closure::serve
