// Batch processing: many graph files (folders searched recursively), each closed
// independently with the same options; failures are recorded and the batch goes on.
#pragma once

#include <functional>
#include <string>
#include <vector>

#include "closure/tool/run_graph.hpp"

namespace closure {

struct BatchOptions {
  std::vector<std::string> paths;  // files and folders
  std::string out_dir;             // closures and summary.csv / summary.json go here
  RunOptions run;                  // everything but input and output
  bool write_closures = true;      // false: only the summary table
  unsigned jobs = 1;
  bool resume = false;  // skip files whose outputs are complete
};

struct BatchRow {
  std::string file;
  size_t vertices = 0, edges = 0;
  bool dag = false;
  uint64_t pairs = 0;
  std::string method, device, verify = "-", error;
  double seconds = 0;
  bool skipped = false;  // --resume found its output complete
  bool ok() const { return error.empty() && verify != "MISMATCH"; }
};

struct BatchProgress {
  size_t done = 0, total = 0;
  std::string current;
  double elapsed_s = 0;
};

// The files a batch over `paths` processes, in a stable order (sorted within folders).
// Throws std::invalid_argument for a path that does not exist.
std::vector<std::string> collect_batch_files(const std::vector<std::string>& paths);

// Runs the batch; `progress` (if set) is called after each file, from one thread at a time.
std::vector<BatchRow> run_batch(const BatchOptions& options,
                                const std::function<void(const BatchProgress&)>& progress = {});

std::string batch_csv(const std::vector<BatchRow>& rows);
std::string batch_json(const std::vector<BatchRow>& rows);

}  // namespace closure
