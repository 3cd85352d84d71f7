// Folder search for batch: iterative (no recursion bounded by the tree's depth), every
// filesystem error caught per entry.
#include "app/tool/batch_files.hpp"

#include <algorithm>
#include <filesystem>
#include <stdexcept>
#include <system_error>
#include <unordered_set>

#include "closure/errors.hpp"
#include "closure/graph/input_error.hpp"

namespace closure {
namespace fs = std::filesystem;

namespace {

// Whether `p` is `dir` or lies below it (both made absolute and normal first).
bool is_within(const fs::path& p, const fs::path& dir) {
  if (dir.empty()) return false;
  std::error_code ec;
  const fs::path c = fs::weakly_canonical(p, ec);
  if (ec) return false;
  auto [a, b] = std::mismatch(dir.begin(), dir.end(), c.begin(), c.end());
  return a == dir.end();
}

struct Found {
  fs::path path;
  std::string error;
};

// Every regular file below `root` (not following folder links) that `filter` accepts, and
// every entry that could not be examined, with its error. A folder inside `out` is passed
// over (`dags --out dags/results`: what a batch wrote, not inputs) unless `root` lies inside
// `out` too (`dags --out dags`: then every folder below is the user's, and only the files
// with a batch output's name are passed over, in `out` and below it).
std::vector<Found> search_folder(const fs::path& root, const fs::path& out,
                                 const NameFilter& filter) {
  std::vector<Found> found;
  const bool root_in_out = is_within(root, out);
  std::vector<fs::path> pending{root};
  while (!pending.empty()) {
    const fs::path dir = std::move(pending.back());
    pending.pop_back();
    std::error_code ec;
    fs::directory_iterator it(dir, ec);
    if (ec) {
      found.push_back({dir, "cannot read folder: " + ec.message()});
      continue;
    }
    const bool dir_is_out = is_within(dir, out);
    for (; it != fs::directory_iterator(); it.increment(ec)) {
      const fs::path p = it->path();
      const std::string name = p.filename().string();
      if (name.empty() || name[0] == '.') continue;
      std::error_code link_ec, target_ec;
      const fs::file_status link = it->symlink_status(link_ec);
      const fs::file_status target = it->status(target_ec);  // follows links
      if (link_ec || target_ec) {
        // A link to itself (ELOOP), a dangling link, an entry we may not examine.
        found.push_back({p, "cannot read: " + (link_ec ? link_ec : target_ec).message()});
        continue;
      }
      if (fs::is_directory(target)) {
        if (fs::is_symlink(link) || (!root_in_out && is_within(p, out))) continue;
        pending.push_back(p);
      } else if (fs::is_regular_file(target)) {
        if (dir_is_out && is_batch_output_name(name)) continue;
        if (!filter.accepts(name, p.lexically_relative(root).generic_string())) continue;
        found.push_back({p, ""});
      }
    }
    if (ec) found.push_back({dir, "cannot list folder: " + ec.message()});
  }
  std::sort(found.begin(), found.end(),
            [](const Found& a, const Found& b) { return a.path < b.path; });
  return found;
}

}  // namespace

std::string batch_closure_suffix(OutputFormat format) {
  switch (format) {
    case OutputFormat::kEdges:
      return ".closure.txt";
    case OutputFormat::kMatrixMarket:
      return ".closure.mtx";
    case OutputFormat::kJson:
      return ".closure.json";
    case OutputFormat::kBinary:
      return ".closure.bin";
    case OutputFormat::kCsv:
      return ".closure.csv";
    case OutputFormat::kTsv:
      return ".closure.tsv";
    case OutputFormat::kNodeLink:
      return ".closure.node-link.json";
  }
  return ".closure";
}

bool is_batch_output_name(const std::string& name) {
  if (name.ends_with(".summary.json")) return true;
  for (OutputFormat f : kBatchOutputFormats)
    if (name.ends_with(batch_closure_suffix(f))) return true;
  return name == "summary.csv" || name == "summary.json" || name.find(".tmp-") != std::string::npos;
}

std::vector<BatchItem> collect_batch_items(const std::vector<std::string>& paths,
                                           const std::string& out_dir, const NameFilter& filter) {
  std::vector<BatchItem> items;
  std::unordered_set<std::string> stems;
  std::error_code ec;
  const fs::path out = out_dir.empty() ? fs::path() : fs::weakly_canonical(out_dir, ec);
  for (size_t arg = 0; arg < paths.size(); ++arg) {
    const fs::path root(paths[arg]);
    std::vector<BatchItem> found;
    std::error_code status_ec;
    const fs::file_status st = fs::status(root, status_ec);
    if (paths[arg] == "-")
      throw UsageError(
          "batch reads files and folders, not standard input ('-'); save it to a "
          "file first");
    if (status_ec && fs::symlink_status(root, ec).type() == fs::file_type::not_found)
      throw InputError(paths[arg], 0, "does not exist");
    if (status_ec) {
      found.push_back(
          {root.string(), root.filename().string(), "cannot read: " + status_ec.message()});
    } else if (fs::is_directory(st)) {
      // Output names follow the paths as found (lexically): a symbolic link to a file is
      // named as the link, not as its target (fs::relative resolves it: two links to one
      // file had shared one name, refusing the batch, and `latest.txt -> sub/real.txt` had
      // been written under sub/).
      fs::path base = root.lexically_normal();
      if (!base.has_filename()) base = base.parent_path();
      for (const Found& f : search_folder(root, out, filter)) {
        std::string stem = f.path.lexically_normal().lexically_relative(base).string();
        if (stem.empty() || stem == "." || stem.starts_with(".."))
          stem = f.path.filename().string();
        found.push_back({f.path.string(), stem, f.error});
      }
    } else {
      found.push_back({root.string(), root.filename().string(), ""});
    }
    for (auto& item : found) {
      auto taken = [&](const std::string& stem) { return stems.count(stem) > 0; };
      if (taken(item.stem)) item.stem = std::to_string(arg + 1) + "_" + item.stem;
      if (taken(item.stem))
        throw UsageError("batch: " + item.input + " would share its output name " + item.stem +
                         " with another input");
      stems.insert(item.stem);
      items.push_back(std::move(item));
    }
  }
  return items;
}

}  // namespace closure
