// Stale-record removal: a search of --out for records, each checked against the inputs.
#include "app/tool/batch_stale.hpp"

#include <algorithm>
#include <filesystem>
#include <system_error>
#include <unordered_set>

#include "app/tool/batch_record.hpp"
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

}  // namespace

std::vector<std::string> remove_stale_records(const std::vector<std::string>& paths,
                                              const std::vector<BatchItem>& items,
                                              const std::string& out_dir, const BatchOutDir& out) {
  std::vector<fs::path> folders;
  for (const auto& p : paths) {
    std::error_code ec;
    if (fs::is_directory(p, ec)) folders.emplace_back(p);
  }
  std::vector<std::string> removed;
  if (folders.empty()) return removed;  // only named files: a deleted one is refused, not stale
  std::unordered_set<std::string> current;
  for (const auto& item : items) current.insert(item.input);

  std::error_code ec;
  std::vector<fs::path> records;
  for (fs::recursive_directory_iterator it(out_dir, ec), end; !ec && it != end; it.increment(ec))
    if (it->is_regular_file(ec) && it->path().filename().string().ends_with(".summary.json"))
      records.push_back(it->path());
  for (const fs::path& record : records) {
    std::string text;
    if (read_small_file(record.string(), kMaxRecordBytes, text) != SmallFileStatus::kOk) continue;
    const auto rec = parse_record(text);
    if (!rec || current.count(rec->row.file) || !is_gone(rec->row.file)) continue;
    if (std::none_of(folders.begin(), folders.end(),
                     [&](const fs::path& f) { return lies_below(rec->row.file, f); }))
      continue;
    if (!out.may_write(record.string())) continue;  // not a batch's: never removed
    // The closure file first: for an older folder, may_write recognises it by this record.
    if (rec->output && !rec->output_name.empty() &&
        rec->output_name.find('/') == std::string::npos) {
      const std::string closure = (record.parent_path() / rec->output_name).string();
      std::error_code rm_ec;
      if (out.may_write(closure)) fs::remove(closure, rm_ec);
    }
    std::error_code rm_ec;
    if (fs::remove(record, rm_ec)) removed.push_back(rec->row.file);
  }
  std::sort(removed.begin(), removed.end());
  return removed;
}

}  // namespace closure
