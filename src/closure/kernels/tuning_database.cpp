// The tuning database: parsing rows, the overlay file, the device search, saving rows.
#include "closure/kernels/tuning_database.hpp"

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <mutex>
#include <sstream>
#include <stdexcept>

#include "closure/config.hpp"
#include "closure/errors.hpp"
#include "closure/io/atomic_file.hpp"
#include "closure/util/small_file.hpp"

namespace closure {

extern const char* const kBuiltinTuningRows;

namespace {

// Splits a line into whitespace-separated words; "..." keeps spaces; '#' ends the line.
std::vector<std::string> words_of(const std::string& line) {
  std::vector<std::string> out;
  std::string cur;
  bool quoted = false, any = false;
  for (char ch : line) {
    if (ch == '"') {
      quoted = !quoted;
      any = true;
    } else if (!quoted && ch == '#') {
      break;
    } else if (!quoted && (ch == ' ' || ch == '\t' || ch == '\r')) {
      if (any) out.push_back(cur);
      cur.clear();
      any = false;
    } else {
      cur += ch;
      any = true;
    }
  }
  if (quoted) throw UsageError("unterminated quote");
  if (any) out.push_back(cur);
  return out;
}

std::string quoted_if_needed(const std::string& s) {
  return s.find_first_of(" \t#") == std::string::npos && !s.empty() ? s : "\"" + s + "\"";
}

// The overlay file: a missing one is an empty overlay; anything else that cannot be read
// (a FIFO, a device such as /dev/zero, a huge file) is the user's configuration to fix.
constexpr size_t kMaxOverlayBytes = size_t{1} << 20;
std::string read_file(const std::string& path) {
  std::string text;
  int error = 0;
  const SmallFileStatus status = read_small_file(path, kMaxOverlayBytes, text, &error);
  if (status != SmallFileStatus::kOk && status != SmallFileStatus::kMissing)
    throw UsageError(std::string("the tuning overlay ") + path + " (" + kTuningEnv + ", or " +
                     "~/.cache/closure/tuning.txt) " + describe(status, kMaxOverlayBytes, error));
  return text;
}

// The product's rows, then those that libraries beside it added (the float GEMM family's).
struct BuiltinRows {
  std::mutex mutex;
  std::vector<TuningRow> rows =
      parse_tuning_rows(kBuiltinTuningRows, "closure/kernels/tuning_rows.cpp");
  std::vector<const char*> added;
};
BuiltinRows& builtin() {
  static BuiltinRows b;
  return b;
}
std::vector<TuningRow> builtin_rows() {
  BuiltinRows& b = builtin();
  std::lock_guard lock(b.mutex);
  return b.rows;
}

const char* device_type(const ocl::DeviceInfo& device) {
  return device.is_gpu ? "gpu" : device.is_cpu ? "cpu" : "accelerator";
}

}  // namespace

std::string tuning_overlay_path() {
  if (const std::string p = config::text(kTuningEnv); !p.empty())
    return p == "off" ? std::string() : p;
  const std::string dir = config::user_cache_dir();
  return dir.empty() ? dir : dir + "/tuning.txt";
}

std::string TuningRow::match_text() const {
  switch (level) {
    case Level::kDevice:
      return "device=" + quoted_if_needed(match);
    case Level::kVendor:
      return "vendor=" + quoted_if_needed(match);
    case Level::kType:
      return "type=" + match;
    case Level::kDefault:
      return "default";
  }
  return "default";
}

bool TuningRow::matches(const ocl::DeviceInfo& device) const {
  switch (level) {
    case Level::kDevice:
      return device.name.find(match) != std::string::npos;
    case Level::kVendor:
      return device.vendor.find(match) != std::string::npos;
    case Level::kType:
      return match == device_type(device);
    case Level::kDefault:
      return true;
  }
  return false;
}

std::vector<TuningRow> parse_tuning_rows(const std::string& text, const std::string& name) {
  std::vector<TuningRow> rows;
  std::istringstream in(text);
  std::string line;
  for (size_t number = 1; std::getline(in, line); ++number) {
    const std::string where = name + ":" + std::to_string(number);
    std::vector<std::string> w;
    try {
      w = words_of(line);
    } catch (const UsageError& e) {
      throw UsageError(where + ": " + e.what());
    }
    if (w.empty()) continue;
    if (w.size() != 3)
      throw UsageError(where + ": expected 'family match parameters', got " +
                       std::to_string(w.size()) + " fields");
    TuningRow row{w[0], TuningRow::Level::kDefault, "", w[2], where};
    const std::string& m = w[1];
    const auto eq = m.find('=');
    const std::string key = m.substr(0, eq),
                      value = eq == std::string::npos ? "" : m.substr(eq + 1);
    if (m == "default") {
      row.level = TuningRow::Level::kDefault;
    } else if (key == "device" && !value.empty()) {
      row.level = TuningRow::Level::kDevice;
    } else if (key == "vendor" && !value.empty()) {
      row.level = TuningRow::Level::kVendor;
    } else if (key == "type" && (value == "gpu" || value == "cpu" || value == "accelerator")) {
      row.level = TuningRow::Level::kType;
    } else {
      throw UsageError(where + ": match '" + m +
                       "' is not device=TEXT, vendor=TEXT, type=gpu|cpu|accelerator "
                       "or default");
    }
    row.match = value;
    rows.push_back(std::move(row));
  }
  return rows;
}

std::vector<TuningRow> overlay_tuning_rows_of(const std::string& family) {
  std::vector<TuningRow> out;
  if (const std::string path = tuning_overlay_path(); !path.empty()) {
    try {
      out = parse_tuning_rows(read_file(path), path);
    } catch (const UsageError& e) {  // a malformed row: the user's file
      throw UsageError(std::string("tuning overlay (") + kTuningEnv + "): " + e.what());
    }
  }
  std::erase_if(out, [&](const TuningRow& row) { return row.family != family; });
  return out;
}

std::vector<TuningRow> tuning_rows_of(const std::string& family) {
  std::vector<TuningRow> out = overlay_tuning_rows_of(family);
  for (const TuningRow& row : builtin_rows())
    if (row.family == family) out.push_back(row);
  return out;
}

std::vector<TuningRow> most_specific_first(const std::vector<TuningRow>& rows,
                                           const ocl::DeviceInfo& device) {
  std::vector<TuningRow> out;
  for (auto level : {TuningRow::Level::kDevice, TuningRow::Level::kVendor, TuningRow::Level::kType,
                     TuningRow::Level::kDefault})
    for (const TuningRow& row : rows)
      if (row.level == level && row.matches(device)) out.push_back(row);
  return out;
}

std::vector<TuningRow> tuning_rows_for(const std::string& family, const ocl::DeviceInfo& device) {
  return most_specific_first(tuning_rows_of(family), device);
}

TuningRow builtin_tuning_row(const std::string& family, const std::string& match_text) {
  for (const TuningRow& row : builtin_rows())
    if (row.family == family && row.match_text() == match_text) return row;
  throw InternalError("no built-in tuning row '" + family + " " + match_text + "'");
}

void add_builtin_tuning_rows(const char* text, const std::string& name) {
  BuiltinRows& b = builtin();
  std::lock_guard lock(b.mutex);
  for (const char* added : b.added)
    if (added == text) return;
  std::vector<TuningRow> rows = parse_tuning_rows(text, name);
  b.rows.insert(b.rows.end(), rows.begin(), rows.end());
  b.added.push_back(text);
}

std::string save_tuning_row(const TuningRow& row, const std::string& comment,
                            const std::string& path) {
  if (path.empty())
    throw UsageError(std::string("no tuning overlay file: ") + kTuningEnv + "=off and no HOME");
  std::string kept;
  std::istringstream in(read_file(path));
  std::string line, pending_comments;
  for (size_t number = 1; std::getline(in, line); ++number) {
    const auto parsed = parse_tuning_rows(line, path + ":" + std::to_string(number));
    if (parsed.empty()) {
      pending_comments += line + "\n";  // a comment belongs to the row below it
      continue;
    }
    const bool replaced =
        parsed[0].family == row.family && parsed[0].match_text() == row.match_text();
    if (!replaced) kept += pending_comments + line + "\n";
    pending_comments.clear();
  }
  kept += pending_comments;
  if (kept.empty())
    kept =
        "# closure tuning overlay (format: docs/kernels.md); rows here come before the "
        "built-in ones\n";
  std::ostringstream entry;
  if (!comment.empty()) entry << "# " << comment << "\n";
  entry << row.family << "  " << row.match_text() << "  " << row.params << "\n";
  const std::filesystem::path dir = std::filesystem::path(path).parent_path();
  if (!dir.empty()) std::filesystem::create_directories(dir);
  AtomicFile out(path);
  out.write(kept + entry.str());
  out.commit();
  return path;
}

}  // namespace closure
