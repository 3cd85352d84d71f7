// Records in a batch's --out whose input was deleted: a NAME.summary.json (and the closure
// file it names) for a file that lay inside a folder this batch reads but is no longer
// there. Left in place they would outlive their input and be read as results; they are
// removed. Internal to the batch driver.
#pragma once

#include <filesystem>
#include <string>
#include <vector>

#include "app/tool/batch_files.hpp"
#include "app/tool/batch_out_dir.hpp"
#include "app/tool/batch_record.hpp"

namespace closure {

// A record found under --out: where it lies, the output name it stands for, and what it says.
struct FoundRecord {
  std::filesystem::path path;
  std::string stem;
  BatchRecord record;
};

// Every intact record under `out_dir` (unreadable or unparsable ones are passed over): read
// once, for keep_names_of_kept_records() then remove_stale_records().
std::vector<FoundRecord> find_batch_records(const std::string& out_dir);

// Removes each of `records` (find_batch_records; written by a batch: `out` says) whose input
// input lies below one of the folder arguments in `paths` (both absolute: the record keeps
// its input's absolute path, so a folder given from another working folder, or as ../X,
// reaches only the records of files below it; a record without one, as spelt here), is
// none of `items` (by path or by the file),
// and does not exist. Its closure file goes with it. Returns the inputs whose records were
// removed, sorted. Also removes, unreported, a record of one of `items` under another name
// than the item's now (it is redone under the new one). Never throws: what cannot be
// examined or removed is left.
std::vector<std::string> remove_stale_records(const std::vector<std::string>& paths,
                                              const std::vector<BatchItem>& items,
                                              const std::vector<FoundRecord>& records,
                                              const BatchOutDir& out);

// Gives each of `items` whose output name is taken under `out_dir` by the record of another
// input that still exists (one not read this time, as `--exclude` or another command line
// leaves out) another name: its own record's, where it has one that is free, else the first
// free `N_` prefix from 2. Without it that record, which the batch promises to keep, was
// overwritten by the other input's closure. Throws UsageError past 1,000 prefixes.
void keep_names_of_kept_records(std::vector<BatchItem>& items,
                                const std::vector<FoundRecord>& records,
                                const std::string& out_dir);

}  // namespace closure
