// Batch processing: many graph files (folders searched recursively), each closed
// independently with the same options, each in its own child process so that nothing a
// file does (a crash included) takes the batch down; failures are recorded and the batch
// goes on.
#pragma once

#include <functional>
#include <string>
#include <vector>

#include "app/tool/batch_filter.hpp"
#include "app/tool/batch_record.hpp"
#include "app/tool/run_graph.hpp"

namespace closure {

struct BatchOptions {
  std::vector<std::string> paths;  // files and folders
  std::string out_dir;             // closures and summary.csv / summary.json go here
  NameFilter names;                // which files found in folders are read (--include/--exclude)
  Request run;                     // everything but input and output
  bool write_closures = true;      // false: only the summary table
  unsigned jobs = 1;               // files processed at once (each in its own process)
  unsigned threads = 0;            // host threads shared out among the jobs (0: thread_budget())
  double file_time_limit_s = 0;    // a file taking longer fails ("timed out"); 0: no limit
  // Skip files whose record is intact and still matches: the same input (size, mtime,
  // content hash), the same result-changing options, the closure file unchanged.
  bool resume = false;
  // What runs for each file, in the child process; run_graph unless a test replaces it.
  std::function<RunSummary(const Request&)> runner;
};

struct BatchProgress {
  size_t done = 0, total = 0;
  std::string current;
  double elapsed_s = 0;
};

// The files a batch over `paths` processes, in a stable order (sorted within folders);
// entries that cannot be read are left out. Throws std::invalid_argument for a path that
// does not exist.
std::vector<std::string> collect_batch_files(const std::vector<std::string>& paths);

// Runs the batch; `progress` (if set) is called after each file. Forks one child process
// per file, so the caller must not have opened an OpenCL device (BatchOptions::run's
// compute options should open it lazily, which then happens in each child). First removes
// the records in --out of inputs deleted from the folders it reads (batch_stale.hpp);
// `stale_removed` (if set) receives those inputs' names. Where summary.csv or summary.json
// cannot be written (a full disk), `summaries_failed` (if set) receives why and the rows are
// still returned, so that the caller reports every file's outcome; without it, that throws.
std::vector<BatchRow> run_batch(const BatchOptions& options,
                                const std::function<void(const BatchProgress&)>& progress = {},
                                std::vector<std::string>* stale_removed = nullptr,
                                std::string* summaries_failed = nullptr);

}  // namespace closure
