// One batch result (a row of the summary table) and its resume record NAME.summary.json:
// the row plus the key that says when it is still valid (the input's size, mtime and
// content hash, the options that change the result, the closure file's size and hash).
// Records are parsed strictly: anything but an intact record of this schema is nothing.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "app/tool/graph_facts.hpp"

namespace closure {

struct BatchRow : GraphFacts {
  std::string file;
  std::string verify = "-";  // "-" (not verified), MATCH, MISMATCH or INCONCLUSIVE
  std::string error;         // empty when the file was closed
  double seconds = 0;
  bool skipped = false;  // --resume found a valid record; not stored in records
  // False when the file failed before its run's summary came back: its graph facts are
  // unknown, and the tables leave them empty (null in JSON) rather than show vertices 0,
  // dag false. A file can also fail after them (its closure file unreadable): still known.
  bool facts_known = true;
  bool ok() const { return error.empty() && verify != "MISMATCH"; }
};

struct FileKey {
  uint64_t size = 0;
  int64_t mtime_ns = 0;  // inputs only
  uint64_t hash = 0;
  bool operator==(const FileKey&) const = default;
};

struct BatchRecord {
  BatchRow row;
  FileKey input;
  // The options that change the result, as compact JSON text (batch.cpp builds it);
  // a record made under other options is redone.
  std::string options = "{}";
  std::optional<FileKey> output;  // the closure file, when one was written
  std::string output_name;        // its file name (information only)
  // The input's absolute path, where row.file is as given (relative to the folder the batch
  // ran in): which file a record is of, from any working folder. Written as row.file made
  // absolute where empty; empty in a record from before it was kept.
  std::string path;
  const std::string& input_path() const { return path.empty() ? row.file : path; }
};

// An input's path as a record keeps it: absolute, its folder made canonical (a linked
// folder, `s/..` after a link, resolved as the kernel does), the name as it is; made absolute
// lexically where the folder cannot be resolved.
std::string resolved_input_path(const std::string& file);

inline constexpr std::string_view kRecordSchema = "closure-batch-record";
inline constexpr int kRecordVersion = 1;
inline constexpr size_t kMaxRecordBytes = 1 << 20;  // a longer "record" is not ours

// One line of JSON and a newline.
std::string record_json(const BatchRecord& r);
// The record, or nothing for any damage: bad JSON, another schema or version, a missing
// or mistyped field, an unknown field, a size over kMaxRecordBytes. Never throws.
std::optional<BatchRecord> parse_record(std::string_view text);

// The summary tables (summary.json: an array of rows; summary.csv) in the same naming
// as `closure --json`: vertices, edges, components. Booleans are true/false in both; a
// failed row's facts are null (JSON) or empty (CSV).
std::string batch_json(const std::vector<BatchRow>& rows);
std::string batch_csv(const std::vector<BatchRow>& rows);

}  // namespace closure
