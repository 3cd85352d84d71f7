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

// Whether `file` lies below `folder` (both absolute and resolved): the folder's parts,
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

// Which input an existing path is, however its folder is spelt ($PWD/d, d/., a linked
// folder, s/.. after a link): resolved_input_path(). Not the file's inode: a hard link or a
// link named otherwise is another input, with its own record (batch d --exclude y.txt, y.txt
// a hard link of x.txt, had removed y.txt's). None where the path is gone.
using FileId = std::string;
std::optional<FileId> file_id(const std::string& path) {
  std::error_code ec;
  if (fs::symlink_status(path, ec).type() == fs::file_type::not_found || ec) return std::nullopt;
  return resolved_input_path(path);
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
    if (!fs::is_directory(p, ec)) continue;
    const fs::path folder = fs::canonical(p, ec);
    if (!ec) folders.push_back(folder);
  }
  // Only named files: a deleted one is refused, not stale; but one may be read under another
  // name than before (two inputs of one name, the first no longer given), so --out is
  // searched all the same.
  std::vector<std::string> removed;
  std::unordered_map<std::string, std::string> current;  // input -> its output name now
  for (const auto& item : items) current.emplace(resolved_input_path(item.input), item.stem);

  for (const FoundRecord& found : records) {
    const fs::path& record = found.path;
    const BatchRecord* rec = &found.record;
    // An input read now under another name (`N_` prefixes shift when an input with the
    // same name is deleted from an earlier argument; the same file spelt another way): its
    // record under the old name would stand beside the new one, and go stale. Removed,
    // unreported: it is redone now.
    // A record written before records kept their input's path names it as spelt in a
    // working folder it does not say: never taken for gone nor for another name's (an older
    // batch's d/a.txt, run from A/, had been removed from B/ as gone).
    if (rec->path.empty()) continue;
    const std::string input = resolved_input_path(rec->path);
    if (const auto now = current.find(input); now != current.end()) {
      if (found.stem != now->second && out.may_write(record.string()))
        remove_record(record, *rec, out);
      continue;
    }
    if (!is_gone(input)) continue;
    if (std::none_of(folders.begin(), folders.end(),
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
  // name -> the record's input: resolved, or as spelt for a record without a path (older:
  // its working folder unknown, so held unless read now by that spelling with the size and
  // time the record keeps; a file of that spelling in another folder is another input)
  std::unordered_map<std::string, std::pair<std::string, const BatchRecord*>> kept;
  std::unordered_map<std::string, std::string> named;  // input (resolved) -> its record's name
  for (const FoundRecord& found : records) {
    const bool pathless = found.record.path.empty();
    const std::string input =
        pathless ? found.record.row.file : resolved_input_path(found.record.path);
    kept.emplace(found.stem, std::pair{input, pathless ? &found.record : nullptr});
    if (!pathless) named.emplace(input, found.stem);
  }
  if (kept.empty()) return;
  std::unordered_set<std::string> used, spelt_now;
  std::set<FileId> read_files;  // the inputs read now, resolved
  for (const BatchItem& item : items) {
    used.insert(item.stem);
    spelt_now.insert(item.input);
    if (const auto id = file_id(item.input)) read_files.insert(*id);
  }
  // Whether `stem` holds the record of an input that still exists and is not read now (by
  // this spelling or another: `d/a.txt` read now as `$PWD/d/a.txt` or through a linked
  // folder takes its own name back, not a second set of outputs beside it). An input read
  // now under another name gives its old one up: remove_stale_records removes that record.
  auto held = [&](const std::string& stem) {
    const auto it = kept.find(stem);
    if (it == kept.end()) return false;
    const auto& [input, pathless] = it->second;
    if (pathless) {
      struct stat st {};
      const bool same = spelt_now.count(input) && ::stat(input.c_str(), &st) == 0 &&
                        uint64_t(st.st_size) == pathless->input.size &&
                        int64_t(st.st_mtim.tv_sec) * 1'000'000'000 + st.st_mtim.tv_nsec ==
                            pathless->input.mtime_ns;
      return !same;
    }
    const auto id = file_id(input);
    return id && !read_files.count(*id);
  };
  for (BatchItem& item : items) {
    if (!held(item.stem)) continue;
    std::string stem;  // its own earlier name, else the first free N_ one
    if (const auto own = named.find(resolved_input_path(item.input));
        own != named.end() && !used.count(own->second))
      stem = own->second;
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
