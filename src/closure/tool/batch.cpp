// The batch driver: file collection, files as tasks of the executor (--jobs at a time),
// per-file records (written atomically, so --resume can trust what it finds) and the summary
// tables.
#include "closure/tool/batch.hpp"

#include <algorithm>
#include <atomic>
#include <chrono>
#include <filesystem>
#include <fstream>
#include <mutex>
#include <sstream>
#include <stdexcept>

#include "closure/executor.hpp"
#include "closure/io/atomic_file.hpp"
#include "closure/io/json.hpp"

namespace closure {
namespace fs = std::filesystem;

namespace {

struct BatchItem {
  std::string input;
  std::string stem;  // output name without extension, relative to out_dir
};

// `out_dir` (may be empty) is left out of the search, so a batch whose output folder lies
// inside its input folder does not read its own results on the next run. Two inputs that
// would share an output name are told apart by their argument's position.
std::vector<BatchItem> collect_items(const std::vector<std::string>& paths,
                                     const std::string& out_dir) {
  std::vector<BatchItem> items;
  std::error_code ec;
  const fs::path out = out_dir.empty() ? fs::path() : fs::weakly_canonical(out_dir, ec);
  auto inside_out = [&](const fs::path& p) {
    if (out.empty()) return false;
    const fs::path c = fs::weakly_canonical(p, ec);
    auto [a, b] = std::mismatch(out.begin(), out.end(), c.begin(), c.end());
    return a == out.end();
  };
  for (size_t arg = 0; arg < paths.size(); ++arg) {
    const fs::path root(paths[arg]);
    std::vector<BatchItem> found;
    if (fs::is_directory(root)) {
      std::vector<fs::path> files;
      for (auto it = fs::recursive_directory_iterator(
               root, fs::directory_options::skip_permission_denied);
           it != fs::recursive_directory_iterator(); ++it) {
        if (it->is_directory() && inside_out(it->path())) {
          it.disable_recursion_pending();
          continue;
        }
        if (it->is_regular_file() && it->path().filename().string()[0] != '.')
          files.push_back(it->path());
      }
      std::sort(files.begin(), files.end());
      for (const auto& f : files) found.push_back({f.string(), fs::relative(f, root).string()});
    } else if (fs::exists(root)) {
      found.push_back({root.string(), root.filename().string()});
    } else {
      throw std::invalid_argument("batch: " + paths[arg] + " does not exist");
    }
    for (auto& item : found) {
      auto taken = [&](const std::string& stem) {
        return std::any_of(items.begin(), items.end(),
                           [&](const BatchItem& i) { return i.stem == stem; });
      };
      if (taken(item.stem)) item.stem = std::to_string(arg + 1) + "_" + item.stem;
      if (taken(item.stem))
        throw std::invalid_argument("batch: " + item.input + " would share its output name " +
                                    item.stem + " with another input");
      items.push_back(std::move(item));
    }
  }
  return items;
}

std::string extension_for(OutputFormat f) {
  switch (f) {
    case OutputFormat::kEdges:
      return ".closure.txt";
    case OutputFormat::kMatrixMarket:
      return ".closure.mtx";
    case OutputFormat::kJson:
      return ".closure.json";
    case OutputFormat::kBinary:
      return ".closure.bin";
  }
  return ".closure";
}

std::string row_json(const BatchRow& r) {
  json::Object o;
  o.add("file", r.file)
      .add("n", r.vertices)
      .add("m", r.edges)
      .add("dag", r.dag)
      .add("pairs", r.pairs);
  o.add("method", r.method)
      .add("device", r.device)
      .add("seconds", r.seconds)
      .add("verify", r.verify);
  o.add("error", r.error);
  return o.str();
}

// Reads back a row written by row_json (our own, flat, well-formed objects only).
bool parse_row(const std::string& text, BatchRow& r) {
  auto field = [&](const std::string& key) -> std::string {
    const std::string k = "\"" + key + "\":";
    auto p = text.find(k);
    if (p == std::string::npos) return {};
    p += k.size();
    if (text[p] == '"') {
      std::string out;
      for (++p; p < text.size() && text[p] != '"'; ++p)
        out += text[p] == '\\' ? text[++p] : text[p];
      return out;
    }
    return text.substr(p, text.find_first_of(",}", p) - p);
  };
  if (field("file").empty()) return false;
  r.file = field("file");
  r.vertices = std::stoull("0" + field("n"));
  r.edges = std::stoull("0" + field("m"));
  r.dag = field("dag") == "true";
  r.pairs = std::stoull("0" + field("pairs"));
  r.method = field("method");
  r.device = field("device");
  r.seconds = std::stod("0" + field("seconds"));
  r.verify = field("verify");
  r.error = field("error");
  return true;
}

}  // namespace

std::vector<std::string> collect_batch_files(const std::vector<std::string>& paths) {
  std::vector<std::string> out;
  for (const auto& item : collect_items(paths, "")) out.push_back(item.input);
  return out;
}

std::vector<BatchRow> run_batch(const BatchOptions& o,
                                const std::function<void(const BatchProgress&)>& progress) {
  const auto items = collect_items(o.paths, o.out_dir);
  fs::create_directories(o.out_dir);
  std::vector<BatchRow> rows(items.size());
  std::mutex progress_mutex;
  size_t done = 0;
  const auto t0 = std::chrono::steady_clock::now();

  auto process = [&](size_t i) {
    const BatchItem& item = items[i];
    BatchRow& row = rows[i];
    row.file = item.input;
    const fs::path stem = fs::path(o.out_dir) / item.stem;
    const std::string record = stem.string() + ".summary.json";
    const std::string output = stem.string() + extension_for(o.run.output_format);
    if (o.resume && fs::exists(record) && (!o.write_closures || fs::exists(output))) {
      std::ifstream in(record);
      std::stringstream text;
      text << in.rdbuf();
      if (parse_row(text.str(), row) && row.ok() && row.file == item.input) {
        row.skipped = true;
        return;
      }
      row = BatchRow{};
      row.file = item.input;
    }
    const auto start = std::chrono::steady_clock::now();
    try {
      fs::create_directories(stem.parent_path());
      RunOptions run = o.run;
      run.input = item.input;
      run.output = o.write_closures ? output : "";
      const RunSummary s = run_graph(run);
      row.vertices = s.vertices;
      row.edges = s.edges;
      row.dag = s.dag;
      row.pairs = s.pairs;
      row.method = s.method;
      row.device = s.device;
      if (s.verify) row.verify = s.verify->match ? "MATCH" : "MISMATCH";
    } catch (const std::exception& e) {
      row.error = e.what();
    }
    row.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    try {
      AtomicFile f(record);
      f.write(row_json(row) + "\n");
      f.commit();
    } catch (const std::exception& e) {
      if (row.error.empty()) row.error = e.what();
    }
  };

  // Files are tasks of the one executor: at most --jobs at a time within the thread
  // budget, and the host products and propagation inside them share the same threads.
  parallel_limited(items.size(), o.jobs, [&](size_t i) {
    process(i);
    if (progress) {
      std::lock_guard lock(progress_mutex);
      ++done;
      progress({done, items.size(), items[i].input,
                std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count()});
    }
  });

  AtomicFile csv((fs::path(o.out_dir) / "summary.csv").string());
  csv.write(batch_csv(rows));
  csv.commit();
  AtomicFile js((fs::path(o.out_dir) / "summary.json").string());
  js.write(batch_json(rows));
  js.commit();
  return rows;
}

static std::string csv_field(const std::string& s) {
  if (s.find_first_of(",\"\n") == std::string::npos) return s;
  std::string out = "\"";
  for (char c : s) out += c == '"' ? std::string("\"\"") : std::string(1, c);
  return out + "\"";
}

std::string batch_csv(const std::vector<BatchRow>& rows) {
  std::string out = "file,n,m,dag,pairs,method,device,seconds,verify,error\n";
  for (const auto& r : rows) {
    char secs[32];
    std::snprintf(secs, sizeof secs, "%.4f", r.seconds);
    out += csv_field(r.file) + "," + std::to_string(r.vertices) + "," + std::to_string(r.edges) +
           "," + (r.dag ? "yes" : "no") + "," + std::to_string(r.pairs) + "," +
           csv_field(r.method) + "," + csv_field(r.device) + "," + secs + "," + r.verify + "," +
           csv_field(r.error) + "\n";
  }
  return out;
}

std::string batch_json(const std::vector<BatchRow>& rows) {
  std::string out = "[\n";
  for (size_t i = 0; i < rows.size(); ++i)
    out += "  " + row_json(rows[i]) + (i + 1 < rows.size() ? ",\n" : "\n");
  return out + "]\n";
}

}  // namespace closure
