// The batch driver: files handed to --jobs worker processes (this process starts no
// threads), per-file records written atomically by this process, the resume check in the
// worker, and the summary tables.
#include "app/tool/batch.hpp"

#include <sys/stat.h>

#include <algorithm>
#include <cerrno>
#include <chrono>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>
#include <optional>

#include "app/tool/batch_files.hpp"
#include "app/tool/batch_out_dir.hpp"
#include "app/tool/batch_stale.hpp"
#include "app/tool/worker_pool.hpp"
#include "closure/errors.hpp"
#include "closure/executor.hpp"
#include "closure/graph/input_error.hpp"
#include "closure/io/atomic_file.hpp"
#include "closure/io/content_hash.hpp"
#include "closure/util/small_file.hpp"

namespace closure {
namespace fs = std::filesystem;

namespace {

using Clock = std::chrono::steady_clock;

double seconds_since(Clock::time_point t0) {
  return std::chrono::duration<double>(Clock::now() - t0).count();
}

// The options that change a file's result (its closure file or its row). Not the method
// or the device: every method gives the same closure.
std::string options_key(const BatchOptions& o) {
  nlohmann::ordered_json k;
  const ReadOptions& read = o.run.read_options;
  k["input_format"] = format_name(read.format);
  // Said only when said: records written without these options stay valid.
  if (read.header != HeaderRow::kGuess) k["header"] = read.header == HeaderRow::kPresent;
  if (read.delimiter != 0) k["delimiter"] = std::string(1, read.delimiter);
  if (o.write_closures)
    k["output_format"] = output_format_name(o.run.output_format);
  else
    k["output_format"] = nullptr;
  k["reflexive"] = o.run.reflexive;
  if (o.run.verifies())
    k["verify"] = {{"sources", o.run.verify_sources},
                   {"seed", o.run.verify_seed},
                   {"memory", o.run.verify_memory}};
  else
    k["verify"] = nullptr;
  return k.dump();
}

// Size and mtime from stat, then the content hash (which reads the file).
FileKey input_key(const std::string& path) {
  struct stat st {};
  if (::stat(path.c_str(), &st) != 0)
    throw InputError(path, 0, std::string("cannot open: ") + std::strerror(errno));
  FileKey k;
  k.mtime_ns = int64_t(st.st_mtim.tv_sec) * 1'000'000'000 + st.st_mtim.tv_nsec;
  k.size = uint64_t(st.st_size);
  if (S_ISREG(st.st_mode)) {
    const FileDigest d = digest_file(path);
    k.size = d.size;
    k.hash = d.hash;
  }
  return k;
}

std::optional<std::string> read_record_file(const std::string& path) {
  std::string text;
  if (read_small_file(path, kMaxRecordBytes, text) != SmallFileStatus::kOk) return std::nullopt;
  return text;
}

struct ItemPaths {
  std::string record, output;
};

ItemPaths paths_of(const BatchOptions& o, const BatchItem& item) {
  const std::string stem = (fs::path(o.out_dir) / item.stem).string();
  return {stem + ".summary.json", stem + batch_closure_suffix(o.run.output_format)};
}

// Once this input's closure is written in one format (`kept`), the closures a batch wrote
// for it in the others are out of date; once it failed (no `kept`), all of them are, the
// one in this format too (its record says no output): removed, where a batch owns them
// (never a user's file).
void remove_out_of_date_closures(const BatchOptions& o, const BatchItem& item, BatchOutDir& out,
                                 std::optional<OutputFormat> kept) {
  const std::string stem = (fs::path(o.out_dir) / item.stem).string();
  for (OutputFormat f : kBatchOutputFormats) {
    if (f == kept) continue;
    const std::string other = stem + batch_closure_suffix(f);
    std::error_code ec;
    if (fs::is_regular_file(fs::symlink_status(other, ec)) && out.may_write(other))
      fs::remove(other, ec);
  }
}

// Whether `old` still stands for this input under these options: a record that does not
// match in every respect is redone.
bool still_valid(const BatchRecord& old, const BatchOptions& o, const BatchItem& item,
                 const ItemPaths& p, const std::string& options) {
  if (old.row.file != item.input || !old.row.ok() || old.options != options) return false;
  if (old.output.has_value() != o.write_closures) return false;
  struct stat st {};
  // Only a regular file has a content hash to compare (a FIFO given as input does not).
  if (::stat(item.input.c_str(), &st) != 0 || !S_ISREG(st.st_mode)) return false;
  const int64_t mtime = int64_t(st.st_mtim.tv_sec) * 1'000'000'000 + st.st_mtim.tv_nsec;
  if (uint64_t(st.st_size) != old.input.size || mtime != old.input.mtime_ns) return false;
  try {
    if (!(input_key(item.input) == old.input)) return false;
    if (o.write_closures) {
      if (!fs::is_regular_file(fs::symlink_status(p.output))) return false;  // no link
      const FileDigest d = digest_file(p.output);
      if (d.size != old.output->size || d.hash != old.output->hash) return false;
    }
  } catch (const std::exception&) {
    return false;
  }
  return true;
}

// One file's work, in the child: the resume check, the run, the record's keys. Returns
// 'S' (resumed) or 'N' (new) followed by the record.
std::string process_item(const BatchOptions& o, const BatchItem& item, const std::string& options,
                         BatchOutDir& out) {
  const ItemPaths p = paths_of(o, item);
  if (o.resume) {
    if (auto text = read_record_file(p.record)) {
      if (auto old = parse_record(*text); old && still_valid(*old, o, item, p, options))
        return "S" + record_json(*old);
    }
  }
  BatchRecord rec;
  rec.options = options;
  BatchRow& row = rec.row;
  row.file = item.input;
  row.facts_known = false;  // until the run's summary comes back
  const auto start = Clock::now();
  try {
    out.check_may_write(p.record);  // never a file of the user's that has a batch's name
    if (o.write_closures) {
      out.check_may_write(p.output);
      out.claim(p.output);  // before it is written: an interrupted run still owns it
    }
    rec.input = input_key(item.input);  // before reading: a later change is then seen
    fs::create_directories(fs::path(p.output).parent_path());
    Request run = o.run;
    run.input = item.input;
    run.output = o.write_closures ? p.output : "";
    run.output_within = o.out_dir;  // a name batch owns: never through a link, never outside
    // The counts stay in the row when only the writing fails (a label an edge list cannot
    // hold, a full disk).
    run.on_closed = [&row](const RunSummary& s) {
      static_cast<GraphFacts&>(row) = s;
      row.facts_known = true;
    };
    const RunSummary s = o.runner ? o.runner(run) : run_graph(run);
    static_cast<GraphFacts&>(row) = s;
    row.facts_known = true;
    if (s.verify) row.verify = std::string(verdict_name(s.verify->verdict()));
    if (o.write_closures) {
      const FileDigest d = digest_file(p.output);
      rec.output = FileKey{d.size, 0, d.hash};
      rec.output_name = fs::path(p.output).filename().string();
      remove_out_of_date_closures(o, item, out, o.run.output_format);
    }
  } catch (const std::exception& e) {
    row.error = said_to(e, Audience::kCli);
    // A closure of this input's earlier content must not stand beside a failed record.
    remove_out_of_date_closures(o, item, out, std::nullopt);
    if (row.facts_known && o.write_closures)
      row.error = fs::path(p.output).filename().string() + " not written: " + row.error;
  }
  row.seconds = seconds_since(start);
  std::string said = "N";  // appended, not "N" + ...: GCC 12's -Wrestrict misfires on that
  said += record_json(rec);
  return said;
}

void write_record(const ItemPaths& p, const BatchRecord& rec, BatchRow& row, BatchOutDir& out) {
  try {
    out.check_may_write(p.record);
    fs::create_directories(fs::path(p.record).parent_path());
    out.claim(p.record);                  // before it is written, as the closure was (process_item)
    if (rec.output) out.claim(p.output);  // the child's claim, in this process's list too
    AtomicFile f(p.record, out.dir());
    f.write(record_json(rec));
    f.commit();
  } catch (const std::exception& e) {
    if (row.error.empty()) row.error = said_to(e, Audience::kCli);
  }
}

// The record of an item that ended: the one its child sent back ('S' resumed or 'N' new,
// then the record), or a failed row saying why there is none (`failure` when given).
BatchRecord settled_record(const BatchItem& item, const std::optional<IsolatedOutcome>& outcome,
                           Clock::time_point started, const std::string& failure,
                           const std::string& options, bool& resumed) {
  BatchRecord rec;
  rec.options = options;
  resumed = false;
  std::optional<BatchRecord> parsed;
  if (outcome && outcome->completed && !outcome->result.empty())
    parsed = parse_record(std::string_view(outcome->result).substr(1));
  if (parsed) {
    rec = std::move(*parsed);
    resumed = outcome->result[0] == 'S';
  } else {
    rec.row.file = item.input;
    rec.row.facts_known = false;
    rec.row.error = !failure.empty()                 ? failure
                    : outcome && !outcome->completed ? outcome->failure
                                                     : "internal error: unreadable result";
    rec.row.seconds = seconds_since(started);
  }
  return rec;
}

// Hands the items to the pool's workers as they become idle and settles each as it ends
// (at once an item that failed to list, or whose worker could not start).
template <class Settle>
void dispatch(WorkerPool& pool, const std::vector<BatchItem>& items, Settle& settle) {
  std::vector<Clock::time_point> started(items.size());
  size_t next = 0;
  while (next < items.size() || pool.busy() > 0) {
    while (pool.has_idle_worker() && next < items.size()) {
      const size_t i = next++;
      started[i] = Clock::now();
      if (!items[i].error.empty()) {
        settle(i, std::nullopt, started[i], items[i].input + ": " + items[i].error);
        continue;
      }
      try {
        pool.submit(i);
      } catch (const std::exception& e) {
        settle(i, std::nullopt, started[i], said_to(e, Audience::kCli));
      }
    }
    if (pool.busy() == 0) continue;
    for (auto& [i, outcome] : pool.wait()) settle(i, outcome, started[i], "");
  }
}

// summary.csv and summary.json, each written atomically and claimed as the batch's.
void write_summaries(const std::vector<BatchRow>& rows, const std::string& csv_path,
                     const std::string& json_path, const std::string& out_dir, BatchOutDir& out) {
  out.claim(csv_path);  // before each is written: a file the batch wrote is always its own
  AtomicFile csv(csv_path, out_dir);
  csv.write(batch_csv(rows));
  csv.commit();
  out.claim(json_path);
  AtomicFile js(json_path, out_dir);
  js.write(batch_json(rows));
  js.commit();
}

}  // namespace

std::vector<std::string> collect_batch_files(const std::vector<std::string>& paths) {
  std::vector<std::string> out;
  for (const auto& item : collect_batch_items(paths, ""))
    if (item.error.empty()) out.push_back(item.input);
  return out;
}

std::vector<BatchRow> run_batch(const BatchOptions& o,
                                const std::function<void(const BatchProgress&)>& progress,
                                std::vector<std::string>* stale_removed,
                                std::string* summaries_failed) {
  auto items = collect_batch_items(o.paths, o.out_dir, o.names);
  BatchOutDir out(o.out_dir);  // the lock, and what may be written there
  const std::vector<FoundRecord> records = find_batch_records(o.out_dir);
  keep_names_of_kept_records(items, records, o.out_dir);
  const std::string csv_path = (fs::path(o.out_dir) / "summary.csv").string();
  const std::string json_path = (fs::path(o.out_dir) / "summary.json").string();
  out.check_may_write(csv_path);
  out.check_may_write(json_path);
  // Before any work: a deleted input's record must not pass for a result.
  const auto stale = remove_stale_records(o.paths, items, records, out);
  if (stale_removed) *stale_removed = stale;
  const std::string options = options_key(o);
  std::vector<BatchRow> rows(items.size());
  const auto t0 = Clock::now();
  size_t done = 0;

  // Records what came back for item i (or the failure that ended its child).
  auto settle = [&](size_t i, const std::optional<IsolatedOutcome>& outcome,
                    Clock::time_point started, const std::string& failure) {
    const BatchItem& item = items[i];
    bool resumed = false;
    const BatchRecord rec = settled_record(item, outcome, started, failure, options, resumed);
    rows[i] = rec.row;
    rows[i].skipped = resumed;
    if (!resumed) write_record(paths_of(o, item), rec, rows[i], out);
    ++done;
    if (progress) progress({done, items.size(), item.input, seconds_since(t0)});
  };

  // Started lazily by submit(), so a batch whose entries all failed to list starts none.
  // The thread budget (closure/executor.hpp) is shared out: each of the --jobs workers
  // runs its products and propagation on its part, so the batch as a whole stays within it.
  const unsigned budget = o.threads ? o.threads : thread_budget();
  const unsigned worker_threads = std::max(1u, budget / std::max(1u, o.jobs));
  WorkerPool pool(
      o.jobs,
      [&](size_t i) {
        set_thread_budget(worker_threads);
        return process_item(o, items[i], options, out);
      },
      o.file_time_limit_s);
  // The summaries are the last finished batch's: gone while this one runs, so that one
  // stopped partway leaves its records alone, not an older run's figures beside them.
  for (const std::string& summary : {csv_path, json_path}) {
    std::error_code ec;
    if (fs::is_regular_file(fs::symlink_status(summary, ec)) && out.may_write(summary))
      fs::remove(summary, ec);
  }
  dispatch(pool, items, settle);
  try {
    write_summaries(rows, csv_path, json_path, o.out_dir, out);
  } catch (const std::exception& e) {
    if (!summaries_failed) throw;
    *summaries_failed = said_to(e, Audience::kCli);
  }
  return rows;
}

}  // namespace closure
