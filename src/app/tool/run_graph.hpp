// The tool's main pipeline as a library function: read a graph, compute its closure,
// optionally verify it against Boost.Graph and write it; a summary of every phase.
#pragma once

#include <functional>
#include <optional>
#include <string>

#include "app/tool/closure_writer.hpp"
#include "app/tool/graph_facts.hpp"
#include "app/tool/progress.hpp"
#include "closure/algorithms/closure.hpp"
#include "closure/engine/compute.hpp"
#include "closure/errors.hpp"
#include "closure/graph/read_graph.hpp"
#include "closure/verify/boost_closure.hpp"

namespace closure {

struct RunOptions {
  std::string input;         // path, or "-" for standard input
  ReadOptions read_options;  // the format and, for delimited text, header and delimiter
  ComputeOptions compute;
  std::string output;  // empty: no closure file
  OutputFormat output_format = OutputFormat::kEdges;
  bool output_gzip = false;  // compress the closure with gzip (the CLI sets it for *.gz)
  bool output_dot = false;   // draw it as Graphviz DOT instead (the CLI sets it for *.dot, *.gv)
  // Not empty: `output` is a name this run's caller owns in that folder (batch's --out), written
  // through no link and only inside it (io/atomic_file.hpp).
  std::string output_within;
  bool reflexive = false;
  bool force = false;                  // write outputs larger than output_limit
  uint64_t output_limit = 1000000000;  // bytes before compression; files only, not streams
  bool verify = false;
  size_t verify_sources = 64;  // BFS sources when Boost's full closure does not fit
  uint64_t verify_seed = 1;
  size_t verify_memory = 0;  // Boost's budget; 0 = a quarter of physical memory
  // Told the share written while the output is written; may be empty.
  WriteProgress write_progress;
  // Told the phases (reading, computing, verifying, writing) and their shares; may be null.
  Progress* progress = nullptr;
  // Told the summary once the closure is computed, before verifying and writing: what a
  // caller keeps when those fail (batch's row). May be empty.
  std::function<void(const struct RunSummary&)> on_closed;
};

struct RunSummary : GraphFacts {
  std::string input, format;
  bool reflexive = false;
  std::string reason;
  int rounds = 0;
  // device_s: what the computation waited for its device to open (the opening overlaps
  // reading and condensing; the rest of it is not waited for).
  double parse_s = 0, condense_s = 0, device_s = 0, upload_s = 0, compute_s = 0, download_s = 0,
         write_s = 0, verify_s = 0;
  std::string output;
  uint64_t output_bytes = 0;  // bytes written (after compression)
  std::optional<VerifyReport> verify;
  // MPI ranks that shared the work (1: one process) and what each did.
  int ranks = 1;
  std::string ranks_detail;
  double total_s() const {
    return parse_s + condense_s + device_s + upload_s + compute_s + download_s + write_s + verify_s;
  }
};

// Thrown before writing an output larger than RunOptions::output_limit without force.
class OutputTooLargeError : public ResourceError {
 public:
  using ResourceError::ResourceError;
};

struct ClosedGraph {
  ReadResult graph;
  Closure closure;
  RunSummary summary;
};

// Refuses an output target before any work (a directory, the input itself, ...).
void check_output_target(const RunOptions& options);
// The pipeline's tail on a closed graph: the verification and the output file, into s.
void verify_and_write(const RunOptions& options, const Graph& g, const Closure& closure,
                      RunSummary& s);

// Reads and closes the graph (no verification, no output): what queries need.
ClosedGraph read_and_close(const RunOptions& options);
// The whole pipeline.
RunSummary run_graph(const RunOptions& options);

std::string summary_text(const RunSummary& s);
std::string summary_json(const RunSummary& s);  // one JSON object

}  // namespace closure
