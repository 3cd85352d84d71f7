// Stale-record removal: a search of --out for records, each checked against the inputs.
#include "app/tool/batch_stale.hpp"

#include <sys/stat.h>

#include <algorithm>
#include <filesystem>
#include <set>
#include <string_view>
#include <system_error>
#include <unordered_map>
#include <unordered_set>
#include <utility>

#include "app/tool/batch_record.hpp"
#include "closure/errors.hpp"
#include "closure/util/small_file.hpp"

namespace closure {
namespace fs = std::filesystem;

namespace {

// Whether `file` lies below `folder`, both as spelt (no resolution: the record names its
// input as the batch that wrote it was given it).
bool lies_below(const fs::path& file, const fs::path& folder) {
  const fs::path rel = file.lexically_normal().lexically_relative(folder.lexically_normal());
  return !rel.empty() && *rel.begin() != ".." && rel != ".";
}

bool is_gone(const std::string& path) {
  std::error_code ec;
  return fs::symlink_status(path, ec).type() == fs::file_type::not_found;
}

// The output name a record stands for: its path below `out_dir` less ".summary.json".
std::string record_stem(const fs::path& record, const std::string& out_dir) {
  std::string rel = record.lexically_normal()
                        .lexically_relative(fs::path(out_dir).lexically_normal())
                        .generic_string();
  rel.resize(rel.size() - std::string_view(".summary.json").size());
  return rel;
}

// Removes a batch's record and the closure file it names; whether the record went.
bool remove_record(const fs::path& record, const BatchRecord& rec, const BatchOutDir& out) {
  // The closure file first: for an older folder, may_write recognises it by this record.
  if (rec.output && !rec.output_name.empty() && rec.output_name.find('/') == std::string::npos) {
    const std::string closure = (record.parent_path() / rec.output_name).string();
    std::error_code rm_ec;
    if (out.may_write(closure)) fs::remove(closure, rm_ec);
  }
  std::error_code rm_ec;
  return fs::remove(record, rm_ec);
}

}  // namespace

std::vector<FoundRecord> find_batch_records(const std::string& out_dir) {
  std::vector<FoundRecord> found;
  std::error_code ec;
  for (fs::recursive_directory_iterator it(out_dir, ec), end; !ec && it != end; it.increment(ec)) {
    if (!it->is_regular_file(ec) || !it->path().filename().string().ends_with(".summary.json"))
      continue;
    std::string text;
    if (read_small_file(it->path().string(), kMaxRecordBytes, text) != SmallFileStatus::kOk)
      continue;
    if (auto rec = parse_record(text))
      found.push_back({it->path(), record_stem(it->path(), out_dir), std::move(*rec)});
  }
  return found;
}

std::vector<std::string> remove_stale_records(const std::vector<std::string>& paths,
                                              const std::vector<BatchItem>& items,
                                              const std::vector<FoundRecord>& records,
                                              const BatchOutDir& out) {
  std::vector<fs::path> folders;
  for (const auto& p : paths) {
    std::error_code ec;
    if (fs::is_directory(p, ec)) folders.emplace_back(p);
  }
  // Only named files: a deleted one is refused, not stale; but one may be read under another
  // name than before (two inputs of one name, the first no longer given), so --out is
  // searched all the same.
  std::vector<std::string> removed;
  std::unordered_map<std::string, std::string> current;  // input -> its output name now
  for (const auto& item : items) current.emplace(item.input, item.stem);

  for (const FoundRecord& found : records) {
    const fs::path& record = found.path;
    const BatchRecord* rec = &found.record;
    if (const auto now = current.find(rec->row.file); now != current.end()) {
      // An input read now under another name (`N_` prefixes shift when an input with the
      // same name is deleted from an earlier argument): its record under the old name would
      // stand beside the new one, and go stale. Removed, unreported: it is redone now.
      if (found.stem != now->second && out.may_write(record.string()))
        remove_record(record, *rec, out);
      continue;
    }
    if (!is_gone(rec->row.file)) continue;
    if (std::none_of(folders.begin(), folders.end(),
                     [&](const fs::path& f) { return lies_below(rec->row.file, f); }))
      continue;
    if (!out.may_write(record.string())) continue;  // not a batch's: never removed
    if (remove_record(record, *rec, out)) removed.push_back(rec->row.file);
  }
  std::sort(removed.begin(), removed.end());
  return removed;
}

void keep_names_of_kept_records(std::vector<BatchItem>& items,
                                const std::vector<FoundRecord>& records,
                                const std::string& out_dir) {
  std::unordered_map<std::string, std::string> kept;   // name -> the input its record is of
  std::unordered_map<std::string, std::string> named;  // input -> its record's name
  for (const FoundRecord& found : records) {
    kept.emplace(found.stem, found.record.row.file);
    named.emplace(fs::path(found.record.row.file).lexically_normal().string(), found.stem);
  }
  if (kept.empty()) return;
  std::unordered_set<std::string> used;
  std::set<std::pair<dev_t, ino_t>> read_files;  // the files read now, however spelt
  for (const BatchItem& item : items) {
    used.insert(item.stem);
    struct stat st {};
    if (::stat(item.input.c_str(), &st) == 0) read_files.emplace(st.st_dev, st.st_ino);
  }
  // Whether `stem` holds the record of a file that still exists and is not read now (by
  // this spelling or another: `d/a.txt` read now as `$PWD/d/a.txt` or through a linked
  // folder takes its own name back, not a second set of outputs beside it). A file read
  // now under another name gives its old one up: remove_stale_records removes that record.
  auto held = [&](const std::string& stem) {
    const auto it = kept.find(stem);
    struct stat st {};
    return it != kept.end() && ::stat(it->second.c_str(), &st) == 0 &&
           !read_files.count({st.st_dev, st.st_ino});
  };
  for (BatchItem& item : items) {
    if (!held(item.stem)) continue;
    const auto own = named.find(fs::path(item.input).lexically_normal().string());
    std::string stem;
    if (own != named.end() && !used.count(own->second)) stem = own->second;
    const fs::path name(item.stem);
    for (int k = 2; stem.empty(); ++k) {
      if (k > 1000)
        throw UsageError("batch: no free output name for " + item.input + " in " + out_dir);
      const std::string next =
          (name.parent_path() / (std::to_string(k) + "_" + name.filename().string())).string();
      if (!used.count(next) && !held(next)) stem = next;
    }
    used.erase(item.stem);
    used.insert(stem);
    item.stem = stem;
  }
}

}  // namespace closure
