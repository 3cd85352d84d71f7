// Which files a batch reads: the paths given, folders searched recursively, in a stable
// order; entries that cannot be read become items with an error (a failed record), not an
// abort of the whole batch. Internal to the batch driver.
#pragma once

#include <string>
#include <vector>

#include "app/tool/batch_filter.hpp"
#include "app/tool/closure_writer.hpp"

namespace closure {

struct BatchItem {
  std::string input;
  std::string stem;   // output name without extension, relative to the output folder
  std::string error;  // non-empty: this entry cannot be processed (symlink loop, ...)
};

// Every format a batch writes closures in, and the suffix of the closure file it writes for
// NAME in each (NAME.closure.txt, ...): one list, read by the search below as by the writer.
inline constexpr OutputFormat kBatchOutputFormats[] = {
    OutputFormat::kEdges,   OutputFormat::kMatrixMarket, OutputFormat::kJson,
    OutputFormat::kBinary,  OutputFormat::kCsv,          OutputFormat::kTsv,
    OutputFormat::kNodeLink};
std::string batch_closure_suffix(OutputFormat format);

// Names the batch itself writes: NAME.summary.json, NAME + batch_closure_suffix() of each
// format, summary.csv, summary.json, and AtomicFile temporaries (NAME.tmp-...).
bool is_batch_output_name(const std::string& filename);

// `out_dir` (may be empty) is never read back: an output folder below an input folder is
// skipped whole, and where the output folder is an input folder or holds one (`batch D
// --out D`), the folders below are searched (they are the user's) and the files in and
// below it named as batch outputs are skipped. Folders are not followed through
// symbolic links (a link to an ancestor would loop). Hidden files (".name") and entries
// that are neither files nor folders (FIFOs, sockets, devices) are skipped. Two inputs that
// would share an output name are told apart by their argument's position. Throws
// std::invalid_argument for a path argument that does not exist. `filter` chooses among the
// files found in folders; a file named as an argument is read whatever its name, and an
// entry that cannot be examined (it might be a folder) is a failed item whatever its name.
std::vector<BatchItem> collect_batch_items(const std::vector<std::string>& paths,
                                           const std::string& out_dir,
                                           const NameFilter& filter = {});

}  // namespace closure
