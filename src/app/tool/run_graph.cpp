// The read -> close -> verify -> write pipeline and its summary.
#include "app/tool/run_graph.hpp"

#include <chrono>
#include <cstdio>
#include <nlohmann/json.hpp>

#include "app/distributed/distributed_run.hpp"
#include "closure/algorithms/memory_budget.hpp"
#include "closure/algorithms/scc.hpp"
#include "closure/errors.hpp"
#include "closure/graph/line_source.hpp"
#include "closure/io/atomic_file.hpp"
#include "closure/io/free_space.hpp"
#include "closure/io/json_text.hpp"
#include "closure/util/trace.hpp"

namespace closure {
namespace {

double seconds_since(std::chrono::steady_clock::time_point t0) {
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
}

// Before writing a file: its exact size against --max-output and against the free space of
// its file system (a gzip'ed file's size is not known before: the limit only), each refusal
// with the sizes and the ways on (--force where it would help; an index or reach instead).
void check_output_size(const Request& o, const Graph& g, const Closure& closure,
                       const OutputSpec& spec) {
  const std::string as =
      std::string(output_spec_name(spec)) + (spec.gzip ? " (before gzip compression)" : "");
  const std::optional<uint64_t> free =
      free_bytes_for(classify_output(o.output, o.output_within).path);
  auto refuse = [&](const std::string& size, uint64_t bytes) {
    const bool fits = spec.gzip || !free || bytes <= *free;
    const std::string space =
        free ? " (its file system has " + format_bytes(double(*free)) + " free)" : "";
    OutputTooLargeError error(
        "the closure would take " + size + " as " + as +
        (bytes > o.output_limit
             ? ", more than the limit of " + std::to_string(o.output_limit) + " bytes" + space
             : ", more than the " + format_bytes(double(*free)) + " free on the file system of " +
                   o.output));
    if (bytes > o.output_limit)
      error.add_advice(fits ? Advice::kForceOutput : Advice::kNoRoomForOutput);
    error.add_advice(Advice::kWithoutClosure, o.input);
    throw error;
  };
  const uint64_t at_least = output_bytes_lower_bound(g, closure, spec, o.reflexive);
  if (at_least > o.output_limit || (!spec.gzip && free && at_least > *free))
    refuse("at least " + std::to_string(at_least) + " bytes", at_least);
  const uint64_t exact = output_bytes(g, closure, spec, o.reflexive);
  if (exact > o.output_limit || (!spec.gzip && free && exact > *free))
    refuse(std::to_string(exact) + " bytes", exact);
}

// The reading every pipeline shares: the phase on the progress line, the time and the
// graph's facts in the summary; `read` reads the input.
template <class Read>
ReadResult read_stage(const Request& o, RunSummary& s, const Read& read) {
  if (o.progress) o.progress->phase("reading " + o.input);
  auto t0 = std::chrono::steady_clock::now();
  trace("reading");
  ReadResult out = read();
  trace("read");
  s.parse_s = seconds_since(t0);
  s.input = o.input;
  s.format = std::string(format_name(out.format));
  s.vertices = out.graph.vertex_count();
  s.edges = out.graph.edge_count();
  s.reflexive = o.reflexive;
  return out;
}

// The closing every pipeline shares: the planner's method through compute_closure, under
// the memory guard, whose warnings and refusals name the user's file; the summary's facts.
Closure close_stage(const Request& o, const Graph& g, RunSummary& s) {
  ComputeReport report;
  if (o.progress)
    o.progress->phase("computing the closure of " + std::to_string(s.vertices) + " vertices (" +
                      std::string(method_name(o.compute.method)) + ")");
  ComputeOptions compute = o.compute;
  compute.propagate.rows_needed = o.rows_needed();
  Closure closure;
  try {
    // A warning's way on names the user's file, as a refusal's does.
    if (compute.warn)
      compute.warn = [warn = o.compute.warn, input = o.input](Warning w) {
        if (w.advice == Advice::kWithoutClosure && w.subject.empty()) w.subject = input;
        warn(w);
      };
    closure = compute_closure(g, compute, &report);
    trace("computed");
  } catch (OutOfMemoryError& e) {
    e.name_subject(Advice::kWithoutClosure, o.input);  // the way on names the user's file
    throw;
  }
  s.dag = report.dag;
  s.components = report.components;
  s.method = std::string(method_name(report.method));
  s.reason = report.reason;
  s.device = report.device;
  s.rounds = report.rounds;
  s.condense_s = report.condense_s;
  s.device_s = report.device_wait_s;
  s.upload_s = report.upload_s;
  s.compute_s = report.compute_s;
  s.download_s = report.download_s;
  s.pairs = closure.pair_count(o.reflexive);
  return closure;
}

// The engine for questions, asked of the planner with the facts it wants.
EnginePlan plan_engine_for(const Request& o, const Graph& g) {
  EngineFacts facts;
  facts.requested = o.engine;
  EnginePlan p = plan_engine(facts);
  if (p.needs_components) {
    facts.components = strongly_connected_components(g).component_count();
    p = plan_engine(facts);
  }
  return p;
}

}  // namespace

ReadResult read_input(const Request& o, RunSummary& s) {
  check_output_target(o);
  WorkMeterScope metered(o.progress ? o.progress->meter() : nullptr);
  return read_stage(o, s, [&o] { return read_graph(o.input, o.read_options); });
}

ReadResult read_input(const Request& o, InputSource input, RunSummary& s) {
  check_output_target(o);
  WorkMeterScope metered(o.progress ? o.progress->meter() : nullptr);
  return read_stage(o, s, [&] {
    LineSource source(std::move(input));
    return read_graph(source, o.read_options);
  });
}

ClosedGraph read_and_close(const Request& o) {
  ClosedGraph out;
  // Reading and computing count their work on the progress line's meter.
  WorkMeterScope metered(o.progress ? o.progress->meter() : nullptr);
  out.graph = read_input(o, out.summary);
  out.closure = close_stage(o, out.graph.graph, out.summary);
  return out;
}

QueryableGraph read_for_queries(const Request& o, InputSource input) {
  if (Communicator* ranks = distributed_communicator())
    throw UsageError("questions are answered by one process, not " + std::to_string(ranks->size()) +
                     " MPI ranks");
  QueryableGraph out;
  WorkMeterScope metered(o.progress ? o.progress->meter() : nullptr);
  out.graph = read_input(o, std::move(input), out.summary);
  const Graph& g = out.graph.graph;
  out.engine = plan_engine_for(o, g);
  if (out.engine.engine == Engine::kClosure) {
    out.closure = close_stage(o, g, out.summary);
    return out;
  }
  if (o.progress) o.progress->phase("indexing " + std::to_string(g.vertex_count()) + " vertices");
  const auto t0 = std::chrono::steady_clock::now();
  out.index = std::make_shared<const reach::ReachIndex>(reach::build_index(g));
  out.summary.compute_s = seconds_since(t0);
  out.summary.method = "index";
  out.summary.reason = out.engine.reason;
  out.summary.device = "host";
  return out;
}

RunSummary run_graph(const Request& o) {
  if (o.what == Work::kAnswers)
    throw InternalError("run_graph: questions go through read_for_queries");
  // Under mpirun the ranks share the work; every caller of the pipeline goes that way.
  if (Communicator* ranks = distributed_communicator()) return run_graph_distributed(o, *ranks);
  ClosedGraph closed = read_and_close(o);
  if (o.on_closed) o.on_closed(closed.summary);
  verify_and_write(o, closed.graph.graph, closed.closure, closed.summary);
  return closed.summary;
}

void check_output_target(const Request& o) {
  if (o.output.empty()) return;
  classify_output(o.output, o.output_within);
  if (o.output_within.empty()) refuse_output_onto_input(o.input, o.output);
}

void verify_and_write(const Request& o, const Graph& g, const Closure& closure, RunSummary& s) {
  if (o.verifies()) {
    if (o.progress) o.progress->phase("verifying against Boost.Graph");
    auto t0 = std::chrono::steady_clock::now();
    const size_t budget = o.verify_memory ? o.verify_memory : host_physical_memory() / 4;
    s.verify = verify_against_boost(g, closure, budget, o.verify_sources, o.verify_seed);
    s.verify_s = seconds_since(t0);
  }
  if (!o.output.empty()) {
    const OutputSpec spec{o.output_format, o.output_gzip, o.output_dot};
    // The guard is for files: a pipe's reader decides itself how much it wants.
    if (!o.force && !classify_output(o.output, o.output_within).stream)
      check_output_size(o, g, closure, spec);
    if (o.progress) o.progress->phase("writing " + o.output);
    WriteProgress on_share = [&o](double share) {
      if (o.progress) o.progress->share(share);
      if (o.write_progress) o.write_progress(share);
    };
    auto t0 = std::chrono::steady_clock::now();
    s.output_bytes =
        write_closure(o.output, g, closure, spec, o.reflexive, on_share, o.output_within);
    s.write_s = seconds_since(t0);
    s.output = o.output;
  }
}

std::string summary_text(const RunSummary& s) {
  char buf[512];
  std::string out;
  std::snprintf(
      buf, sizeof buf,
      "graph     %s (%s): %zu vertices, %zu edges, %s, %zu strongly connected components\n",
      s.input.c_str(), s.format.c_str(), s.vertices, s.edges, s.dag ? "DAG" : "cyclic",
      s.components);
  out += buf;
  std::snprintf(buf, sizeof buf, "closure   %llu pairs (%s)\n", (unsigned long long)s.pairs,
                s.reflexive ? "reflexive" : "strict");
  out += buf;
  out += "method    " + s.method + " on " + s.device + " (" + s.reason + ")";
  if (s.rounds) out += ", " + std::to_string(s.rounds) + " matrix products";
  out += "\n";
  std::snprintf(
      buf, sizeof buf,
      "time      parse %.3f s, condense %.3f s, device %.3f s, upload %.3f s, compute %.3f s, "
      "download %.3f s, write %.3f s, verify %.3f s; total %.3f s\n",
      s.parse_s, s.condense_s, s.device_s, s.upload_s, s.compute_s, s.download_s, s.write_s,
      s.verify_s, s.total_s());
  out += buf;
  if (s.ranks > 1) out += "ranks     " + std::to_string(s.ranks) + ": " + s.ranks_detail + "\n";
  if (!s.output.empty())
    out += "output    " + s.output + " (" + std::to_string(s.output_bytes) + " bytes)\n";
  if (s.verify) {
    const VerifyReport& v = *s.verify;
    out += "verify    " + std::string(verdict_name(v.verdict())) + " against Boost.Graph (" +
           v.mode + ", " + std::to_string(v.expected_pairs) + " pairs expected, " +
           std::to_string(v.actual_pairs) + " found)\n";
    if (v.inconclusive)
      out += "          fewer than " + std::to_string(kMinSampledPairs) +
             " pairs compared: too few to vouch for the closure (try more --verify-sources)\n";
    if (!v.note.empty()) out += "          " + v.note + "\n";
    for (const auto& m : v.first_mismatches) out += "          " + m + "\n";
  }
  return out;
}

std::string summary_json(const RunSummary& s) {
  // Keys in this order are the documented schema (docs/formats.md); labels and paths that
  // are not UTF-8 get U+FFFD rather than making the summary unwritable.
  nlohmann::ordered_json o;
  o["input"] = s.input;
  o["format"] = s.format;
  o["vertices"] = s.vertices;
  o["edges"] = s.edges;
  o["dag"] = s.dag;
  o["components"] = s.components;
  o["pairs"] = s.pairs;
  o["reflexive"] = s.reflexive;
  o["method"] = s.method;
  o["reason"] = s.reason;
  o["device"] = s.device;
  o["rounds"] = s.rounds;
  o["seconds"] = {{"parse", s.parse_s},   {"condense", s.condense_s}, {"device", s.device_s},
                  {"upload", s.upload_s}, {"compute", s.compute_s},   {"download", s.download_s},
                  {"write", s.write_s},   {"verify", s.verify_s},     {"total", s.total_s()}};
  if (s.ranks > 1) {
    o["ranks"] = s.ranks;
    o["ranks_detail"] = s.ranks_detail;
  }
  if (!s.output.empty()) {
    o["output"] = s.output;
    o["output_bytes"] = s.output_bytes;
  }
  if (s.verify) {
    o["verify"] = {{"match", s.verify->match},
                   {"verdict", verdict_name(s.verify->verdict())},
                   {"mode", s.verify->mode},
                   {"expected_pairs", s.verify->expected_pairs},
                   {"actual_pairs", s.verify->actual_pairs},
                   {"first_mismatches", s.verify->first_mismatches}};
  }
  return dump_json(o, 2) + "\n";
}

}  // namespace closure
