// Stale-record removal: a search of --out for records, each checked against the inputs.
#include "app/tool/batch_stale.hpp"

#include <sys/stat.h>

#include <algorithm>
#include <filesystem>
#include <map>
#include <optional>
#include <set>
#include <string_view>
#include <system_error>
#include <unordered_map>
#include <unordered_set>
#include <utility>
#include <vector>

#include "app/tool/batch_record.hpp"
#include "closure/errors.hpp"
#include "closure/util/small_file.hpp"

namespace closure {
namespace fs = std::filesystem;

namespace {

// Whether `file` lies below `folder` (both absolute, or both as spelt): the folder's parts,
// normalised, begin the file's. Not lexically_relative, which cancels a "..": d1/keep.txt came out
// below ../dx.
bool lies_below(const fs::path& file, const fs::path& folder) {
  std::vector<fs::path> parts, within;
  for (const fs::path& p : file.lexically_normal()) parts.push_back(p);
  for (const fs::path& p : folder.lexically_normal())
    if (!p.empty()) within.push_back(p);  // a trailing separator's empty part
  if (within.size() == 1 && within[0] == ".") within.clear();
  return parts.size() > within.size() && std::equal(within.begin(), within.end(), parts.begin());
}

// A path made absolute against this working folder and normalised: a record's input where
// the record kept its absolute path (BatchRecord::path) is compared as the file it is.
std::string absolute_normal(const std::string& path) {
  std::error_code ec;
  const fs::path a = fs::absolute(path, ec);
  return ec ? path : a.lexically_normal().string();
}

// Which input an existing path is, however its folder is spelt ($PWD/d, d/., a linked
// folder): the folder made canonical, the name as it is. Not the file's inode: a hard link
// or a link named otherwise is another input, with its own record (batch d --exclude
// y.txt, y.txt a hard link of x.txt, had removed y.txt's). None where the path is gone.
using FileId = std::string;
std::optional<FileId> file_id(const std::string& path) {
  std::error_code ec;
  const fs::path p = fs::absolute(path, ec);
  if (ec || fs::symlink_status(p, ec).type() == fs::file_type::not_found || ec) return std::nullopt;
  const fs::path folder = fs::canonical(p.parent_path(), ec);
  if (ec) return std::nullopt;
  return (folder / p.filename()).string();
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
  std::vector<fs::path> folders, spelt_folders;  // the latter for records without a path
  for (const auto& p : paths) {
    std::error_code ec;
    if (!fs::is_directory(p, ec)) continue;
    folders.emplace_back(absolute_normal(p));
    spelt_folders.emplace_back(p);
  }
  // Only named files: a deleted one is refused, not stale; but one may be read under another
  // name than before (two inputs of one name, the first no longer given), so --out is
  // searched all the same.
  std::vector<std::string> removed;
  std::unordered_map<std::string, std::string> current;  // input -> its output name now
  std::unordered_map<std::string, std::string> spelt;    // the same, as given
  std::map<FileId, std::string> current_files;           // the same, by file_id()
  for (const auto& item : items) {
    current.emplace(absolute_normal(item.input), item.stem);
    spelt.emplace(item.input, item.stem);
    if (const auto id = file_id(item.input)) current_files.emplace(*id, item.stem);
  }

  for (const FoundRecord& found : records) {
    const fs::path& record = found.path;
    const BatchRecord* rec = &found.record;
    // An input read now under another name (`N_` prefixes shift when an input with the
    // same name is deleted from an earlier argument; the same file spelt another way): its
    // record under the old name would stand beside the new one, and go stale. Removed,
    // unreported: it is redone now.
    // A record written before records kept the absolute path names its input as spelt in a
    // working folder it does not say: matched as spelt, as it was, never made absolute here
    // (an older batch's d/a.txt, run from A/, was removed from B/ as gone).
    const bool pathless = rec->path.empty();
    const std::string input = pathless ? rec->row.file : absolute_normal(rec->path);
    std::optional<std::string> now_named;
    if (const auto now = pathless ? spelt.find(input) : current.find(input);
        now != (pathless ? spelt.end() : current.end()))
      now_named = now->second;
    else if (const auto id = pathless ? std::nullopt : file_id(input))
      if (const auto same = current_files.find(*id); same != current_files.end())
        now_named = same->second;
    if (now_named) {
      if (found.stem != *now_named && out.may_write(record.string()))
        remove_record(record, *rec, out);
      continue;
    }
    if (!is_gone(input)) continue;
    const std::vector<fs::path>& below = pathless ? spelt_folders : folders;
    if (std::none_of(below.begin(), below.end(),
                     [&](const fs::path& f) { return lies_below(input, f); }))
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
  std::map<FileId, std::string> named_files;           // the same, by the file it names
  for (const FoundRecord& found : records) {
    const std::string input = absolute_normal(found.record.input_path());
    kept.emplace(found.stem, input);
    named.emplace(input, found.stem);
    if (const auto id = file_id(input)) named_files.emplace(*id, found.stem);
  }
  if (kept.empty()) return;
  std::unordered_set<std::string> used;
  std::set<FileId> read_files;  // the files read now, however spelt
  for (const BatchItem& item : items) {
    used.insert(item.stem);
    if (const auto id = file_id(item.input)) read_files.insert(*id);
  }
  // Whether `stem` holds the record of a file that still exists and is not read now (by
  // this spelling or another: `d/a.txt` read now as `$PWD/d/a.txt` or through a linked
  // folder takes its own name back, not a second set of outputs beside it). A file read
  // now under another name gives its old one up: remove_stale_records removes that record.
  auto held = [&](const std::string& stem) {
    const auto it = kept.find(stem);
    if (it == kept.end()) return false;
    const auto id = file_id(it->second);
    return id && !read_files.count(*id);
  };
  for (BatchItem& item : items) {
    if (!held(item.stem)) continue;
    // Its own earlier name: by spelling, else by the file (d2/a.txt read now as $PWD/d2/a.txt).
    std::string stem;
    if (const auto own = named.find(absolute_normal(item.input));
        own != named.end() && !used.count(own->second))
      stem = own->second;
    else if (const auto id = file_id(item.input))
      if (const auto same = named_files.find(*id);
          same != named_files.end() && !used.count(same->second))
        stem = same->second;
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
