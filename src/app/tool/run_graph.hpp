// The tool's one pipeline as library functions: a Request (what to compute, the input, the
// outputs, the options) is read through the input source, closed as the planner says
// (locally, or across MPI ranks under mpirun), optionally verified against Boost.Graph and
// written through the output guard; a summary of every phase. `closure run`, `verify`,
// `query` on a graph and batch's workers only build a Request; reach, reduce, index and
// serve build one to read through read_input.
#pragma once

#include <functional>
#include <memory>
#include <optional>
#include <string>

#include "app/tool/closure_writer.hpp"
#include "app/tool/graph_facts.hpp"
#include "app/tool/progress.hpp"
#include "closure/algorithms/closure.hpp"
#include "closure/algorithms/planner.hpp"
#include "closure/engine/compute.hpp"
#include "closure/errors.hpp"
#include "closure/graph/input_source.hpp"
#include "closure/graph/read_graph.hpp"
#include "closure/reach/reach_index.hpp"
#include "closure/verify/boost_closure.hpp"

namespace closure {

// What a request computes.
enum class Work {
  kClosure,  // the closure: written to `output`, or only counted without one; --verify too
  kVerify,   // the closure checked against Boost.Graph (`verify` is implied)
  kAnswers,  // the graph made ready for reachability questions (read_for_queries)
};

struct Request {
  Work what = Work::kClosure;
  Engine engine = Engine::kAuto;  // kAnswers: what answers (plan_engine() decides auto)
  std::string input;              // path, or "-" for standard input
  ReadOptions read_options;       // the format and, for delimited text, header and delimiter
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

  bool verifies() const { return verify || what == Work::kVerify; }
  // Whether anything reads the closure's rows (an output, a verification, questions): a
  // closure too large for the device may otherwise be only counted there.
  bool rows_needed() const { return what != Work::kClosure || verify || !output.empty(); }
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

// Thrown before writing an output larger than Request::output_limit without force.
class OutputTooLargeError : public ResourceError {
 public:
  using ResourceError::ResourceError;
};

struct ClosedGraph {
  ReadResult graph;
  Closure closure;
  RunSummary summary;
};

// A graph ready for questions: its closure or a reachability index, as plan_engine() chose.
struct QueryableGraph {
  ReadResult graph;
  std::optional<Closure> closure;                  // Engine::kClosure
  std::shared_ptr<const reach::ReachIndex> index;  // Engine::kIndex
  EnginePlan engine;
  RunSummary summary;
};

// Refuses an output target before any work (a directory, the input itself, ...).
void check_output_target(const Request& request);
// The read stage every entry point shares (run, verify, query, reach, reduce, index, serve,
// the MPI ranks): the output target checked first (check_output_target), then `input` read
// under the progress line's "reading INPUT" phase and meter, traced, its time and the
// graph's facts (format, vertices, edges) in the summary. No other reading of a user's graph.
ReadResult read_input(const Request& request, RunSummary& summary);
// The same on an input already opened (so that a caller may have peeked at it).
ReadResult read_input(const Request& request, InputSource input, RunSummary& summary);
// The pipeline's tail on a closed graph: the verification and the output file, into s.
void verify_and_write(const Request& request, const Graph& g, const Closure& closure,
                      RunSummary& s);

// Reads and closes the graph in this process (no verification, no output).
ClosedGraph read_and_close(const Request& request);
// The pipeline for Work::kClosure and kVerify: under mpirun -np 2 or more across the ranks
// (distributed_run.hpp), else in this process.
RunSummary run_graph(const Request& request);
// The pipeline for Work::kAnswers: reads `input` (already opened, so that a caller may have
// peeked at it) and closes or indexes it. Not across MPI ranks: a UsageError there.
QueryableGraph read_for_queries(const Request& request, InputSource input);

std::string summary_text(const RunSummary& s);
std::string summary_json(const RunSummary& s);  // one JSON object

}  // namespace closure
