// `closure query FILE u v` or `--pairs FILE`: reachability answers in the input's labels;
// unknown labels are reported per line. FILE may be an index from `closure index`
// (recognised by its header). A graph goes through the pipeline (read_for_queries): the
// planner's plan_engine() picks its closure or, when that could be large, a reachability
// index built on the fly (and stderr says so).
#include <fcntl.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <chrono>
#include <cstdio>
#include <cstring>
#include <ext/stdio_filebuf.h>
#include <filesystem>
#include <iostream>
#include <memory>
#include <nlohmann/json.hpp>
#include <optional>
#include <sstream>

#include "app/tool/index_queries.hpp"
#include "app/tool/pair_ids.hpp"
#include "app/tool/pair_lines.hpp"
#include "app/tool/reachability_queries.hpp"
#include "app/tool/run_graph.hpp"
#include "cli/commands.hpp"
#include "closure/graph/input_error.hpp"
#include "closure/graph/input_source.hpp"
#include "closure/graph/line_source.hpp"
#include "closure/graph/text_scan.hpp"
#include "closure/io/json_text.hpp"
#include "closure/reach/index_file.hpp"

namespace closure::cli {

namespace {

// What the command line gives: the runner keeps it beyond the parse.
struct QueryFlags {
  std::string input, pairs, engine = "auto", pairs_format = "text";
  std::optional<std::string> u, v;  // given or not: "" is a label (a DOT graph's "")
  bool reflexive = false, json = false;
};

// The subcommand's arguments and options.
void add_query_options(CLI::App& sub, QueryFlags& flags) {
  sub.add_option("graph", flags.input, "Graph file, or an index file from `closure index`")
      ->required();
  sub.add_option("u", flags.u, "Source vertex label");
  sub.add_option("v", flags.v, "Target vertex label");
  sub.add_option("--pairs", flags.pairs, "File of 'u v' lines to answer (- for stdin)");
  sub.add_option("--pairs-format", flags.pairs_format,
                 "text: 'u v' lines, answered by lines; u32: pairs of little-endian unsigned "
                 "32-bit vertex numbers (8 bytes each), answered by one byte each on stdout (0 "
                 "no, 1 yes, 2 u unknown, 3 v unknown), from an index whose vertices are "
                 "numbered (on a graph, --engine auto builds one; docs/formats.md, \"Binary "
                 "pairs\")")
      ->check(CLI::IsMember({"text", "u32"}))
      ->capture_default_str();
  sub.add_flag("--reflexive", flags.reflexive, "Every vertex reaches itself");
  sub.add_flag("--json", flags.json,
               "One JSON object per answer line: {\"u\", \"v\", \"reachable\"} or {\"u\", "
               "\"v\", \"error\"}");
  sub.add_option("--engine", flags.engine,
                 "On a graph: closure, index (built on the fly), or auto (index when the "
                 "closure could exceed 64 MiB)")
      ->check(CLI::IsMember({"auto", "closure", "index"}))
      ->capture_default_str();
}

// The combinations of questions and inputs query cannot answer, said before anything is read.
bool questions_given_right(const QueryFlags& flags) {
  if (flags.pairs.empty() == !flags.v || !flags.u != !flags.v) {
    std::fprintf(stderr, "closure query: give either U V or --pairs FILE\n");
    return false;
  }
  // "U V yes" is one line of three fields, as --pairs reads them back: a label holding a
  // line break would read as two lines (reach refuses such a label alike), an empty one or
  // one holding a blank as another count of fields (the edge-list writer refuses them
  // alike); JSON strings hold them.
  for (const auto* label : {&flags.u, &flags.v})
    if (!flags.json && *label &&
        ((*label)->empty() || std::any_of((*label)->begin(), (*label)->end(), text::is_space))) {
      std::fprintf(stderr,
                   "closure query: a label that is empty or holds a blank or a line break "
                   "cannot be shown in an answer line: use --json (labels as JSON strings)\n");
      return false;
    }
  if (flags.pairs_format == "u32" && flags.engine == "closure") {
    std::fprintf(stderr,
                 "closure query: --pairs-format u32 is answered from an index, not a closure: "
                 "drop --engine closure\n");
    return false;
  }
  if (flags.pairs_format == "u32" && (flags.pairs.empty() || flags.json)) {
    std::fprintf(stderr, flags.json
                             ? "closure query: --pairs-format u32 answers in bytes, not JSON\n"
                             : "closure query: --pairs-format u32 needs --pairs FILE\n");
    return false;
  }
  if (flags.pairs_format == "u32" && ::isatty(STDOUT_FILENO)) {
    std::fprintf(stderr,
                 "closure query: --pairs-format u32 writes its answers as bytes; redirect "
                 "standard output to a file or a pipe\n");
    return false;
  }
  if (flags.input == "-" && flags.pairs == "-") {
    std::fprintf(stderr,
                 "closure query: the graph and the pairs cannot both come from standard "
                 "input; give one of them as a file\n");
    return false;
  }
  return true;
}

// The pairs file is checked before the graph is closed: a folder given by mistake (which
// opens, then reads as empty) must fail, not answer nothing with exit 0. Opened once, as a
// descriptor: an index reads it in blocks, the other engines through a stream over it.
struct PairsFile {
  int fd = -1;
  PairsFile() = default;
  PairsFile(const PairsFile&) = delete;
  PairsFile& operator=(const PairsFile&) = delete;
  ~PairsFile() {
    if (fd > 0) ::close(fd);
  }
};

void open_pairs_file(const std::string& pairs, PairsFile& file) {
  if (pairs == "-") {
    file.fd = 0;
    return;
  }
  std::error_code ec;
  if (std::filesystem::is_directory(pairs, ec))
    throw InputError(pairs, 0, "is a folder, not a file of pairs");
  file.fd = ::open(pairs.c_str(), O_RDONLY | O_CLOEXEC);
  if (file.fd < 0) throw_cannot_open(pairs, errno);
}

// Options that tune computing a closure mean nothing to an index: said, not ignored.
void refuse_closure_options(const CommonOptions& common, const std::string& what) {
  std::string given;
  if (common.method != "auto") given += " --method";
  if (!common.device.empty()) given += " --device";
  if (!common.params.empty()) given += " --kernel-params";
  if (!given.empty())
    throw UsageError(what + " answers without computing the closure, so" + given +
                     " would change nothing; drop them (or query a graph with "
                     "--engine closure)");
}

// An index file is no graph to close nor text to parse: --engine closure, and the options
// that say how to read a graph, are refused rather than ignored (as the closure's options).
void refuse_what_an_index_file_ignores(const QueryFlags& flags, const CommonOptions& common) {
  if (flags.engine == "closure")
    throw UsageError(flags.input + " is an index file, which answers from the index; " +
                     "--engine closure needs the graph it was built from");
  std::string given;
  if (read_options(common).format != InputFormat::kAuto) given += " --input-format";
  if (common.header) given += " --header";
  if (common.no_header) given += " --no-header";
  if (!common.delimiter.empty()) given += " --delimiter";
  if (!given.empty())
    throw UsageError(flags.input + " is an index file, not a graph to read, so" + given +
                     " would change nothing; drop them");
  refuse_closure_options(common, "the index " + flags.input);
}

// When auto chose an index, stderr says why and how to keep or avoid one.
void say_index_chosen(const QueryableGraph& q, Engine requested, bool quiet) {
  if (quiet || requested != Engine::kAuto || q.engine.engine != Engine::kIndex) return;
  std::fprintf(stderr,
               "closure query: the closure of %.0f components could take up to "
               "%s; answering from a reachability index built on the fly instead "
               "(`closure index` keeps one; --engine closure forces the closure)\n",
               double(q.engine.components), format_bytes(q.engine.closure_bytes).c_str());
}

// The engine asked for, where binary pairs make auto an index: they are answered from one
// (pair_ids.hpp), and building it costs about as much as reading the graph.
std::string engine_for(const QueryFlags& flags) {
  return flags.pairs_format == "u32" && flags.engine == "auto" ? "index" : flags.engine;
}

// The pipeline's request for questions on a graph. The device opens only if the planner
// picks the closure (an index needs none), first thing then when one is named, so that a
// wrong name still fails before any computation.
Request query_request(const QueryFlags& flags, const CommonOptions& common, Session& session) {
  Request r;
  r.what = Work::kAnswers;
  r.engine = parse_engine(engine_for(flags));
  r.input = flags.input;
  r.read_options = read_options(common);
  r.compute = compute_options(common, session, DeviceOpening::kInChildren);
  r.compute.open_device_first = session.device_named();
  r.reflexive = flags.reflexive;
  return r;
}

// JSON lines carry the same answers as the plain ones.
void to_json(std::string_view u, std::string_view v, QueryAnswer& a) {
  nlohmann::ordered_json o;
  o["u"] = u;
  o["v"] = v;
  // The text is "U V unknown vertex 'W'", its labels escaped (a label may hold blanks: one
  // pair's); JSON gives the label itself.
  if (a.status == QueryAnswer::kUnknownLabel) {
    const std::string eu = text::escape_label(u), ev = text::escape_label(v);
    const bool first = a.text.compare(eu.size() + ev.size() + 2, std::string::npos,
                                      "unknown vertex '" + eu + "'") == 0;
    o["error"] = "unknown vertex '" + std::string(first ? u : v) + "'";
  } else
    o["reachable"] = a.status == QueryAnswer::kReachable;
  // Labels are bytes: those that are not UTF-8 follow io/json_text.hpp's rule.
  a.text = dump_json(o);
}

// What answers the questions: an index (loaded, or built on the fly) or the graph's closure.
// Filled in place by open(): the queries refer to the graph, closure and index it holds.
struct QueryEngine {
  std::unique_ptr<reach::LivingIndex> index;
  std::unique_ptr<reach::IndexQueries> index_queries;
  std::optional<ReadResult> read;
  std::optional<Closure> closure;
  std::unique_ptr<ReachabilityIndex> closure_queries;

  // One opening of the input: its first bytes tell an index from a graph without consuming
  // anything of a pipe, and the same source is then read as one or the other.
  void open(const QueryFlags& flags, const CommonOptions& common, Session& session) {
    InputSource input(flags.input);
    if (reach::is_index(input)) {
      refuse_what_an_index_file_ignores(flags, common);
      index = std::make_unique<reach::LivingIndex>(reach::load_living_index(std::move(input)));
    } else {
      if (engine_for(flags) == "index")
        refuse_closure_options(common, flags.engine == "index"
                                           ? "--engine index"
                                           : "--pairs-format u32 (from an index)");
      auto progress = make_progress(common);
      Request request = query_request(flags, common, session);
      request.progress = progress.get();
      QueryableGraph q = read_for_queries(request, std::move(input));
      progress.reset();  // the line is cleared before any message or answer
      say_index_chosen(q, request.engine, common.quiet);
      read = std::move(q.graph);
      if (q.index) {
        index = std::make_unique<reach::LivingIndex>(std::move(q.index));
      } else {
        closure = std::move(q.closure);
        closure_queries =
            std::make_unique<ReachabilityIndex>(read->graph, *closure, flags.reflexive);
      }
    }
    if (index) index_queries = std::make_unique<reach::IndexQueries>(*index, flags.reflexive);
  }

  QueryAnswer answer(std::string_view u, std::string_view v, bool json) {
    QueryAnswer a = index_queries ? index_queries->answer(u, v) : closure_queries->answer(u, v);
    if (json) to_json(u, v, a);
    return a;
  }
};

// The summary of --pairs on stderr.
void print_pair_stats(const QueryBatchStats& stats, const reach::IndexQueries* index_queries) {
  // Every line with two labels gets an answer line; one naming an unknown label is counted
  // among them and apart (its answer says which).
  auto s = [](size_t n) { return n == 1 ? "" : "s"; };
  std::fprintf(stderr,
               "closure query: %zu line%s answered (%zu reachable, %zu not, %zu with an unknown "
               "label), %zu malformed line%s\n",
               stats.answered, s(stats.answered), stats.reachable,
               stats.answered - stats.reachable - stats.unknown, stats.unknown, stats.malformed,
               s(stats.malformed));
  // An appended layer's answers are not in the base's counts: no share to give there.
  if (index_queries && !index_queries->layered()) {
    const reach::QueryStats& s = index_queries->stats();
    std::fprintf(stderr, "closure query: index answered %llu of %llu without search\n",
                 (unsigned long long)s.without_search(), (unsigned long long)s.queries);
  }
}

// The lines of a stream: JSON lines from an index in batches of 4096 (or fewer when no more
// input is buffered); plain answers from a closure in batches too (one device launch per
// slice when the closure lives on the device); JSON lines from a closure one by one.
QueryBatchStats answer_pair_stream(QueryEngine& engine, const QueryFlags& flags, std::istream& in) {
  const BatchAnswerer index_batch = [&](const auto& questions) {
    std::vector<QueryAnswer> answers = engine.index_queries->answer_many(questions);
    for (size_t i = 0; i < answers.size(); ++i)
      to_json(questions[i].first, questions[i].second, answers[i]);
    return answers;
  };
  const PairAnswerer answer = [&](std::string_view u, std::string_view v) {
    return engine.answer(u, v, flags.json);
  };
  const LineFormat lines = flags.json ? LineFormat::kJson : LineFormat::kPlain;
  return engine.index_queries ? answer_pairs(index_batch, 4096, in, flags.pairs, std::cout, lines)
         : !flags.json        ? answer_pairs(*engine.closure_queries, in, flags.pairs, std::cout)
                              : answer_pairs(answer, in, flags.pairs, std::cout, lines);
}

// Answers the lines of --pairs (its descriptor: the file, or standard input for -); the
// exit status.
int answer_pair_lines(QueryEngine& engine, const QueryFlags& flags, const PairsFile& file,
                      bool quiet) {
  QueryBatchStats stats;
  if (flags.pairs_format == "u32") {
    // Bytes in, bytes out: a numbered index only (pair_ids.hpp).
    // Never a closure: auto is an index for them, --engine closure refused up front.
    if (!engine.index_queries) throw InternalError("query: u32 pairs without an index");
    stats = reach::answer_pair_ids(*engine.index_queries, file.fd, flags.pairs, std::cout);
  } else if (engine.index_queries && !flags.json) {
    // Plain answers from an index: blocks of lines, no per-line strings (pair_lines.hpp).
    stats = reach::answer_pair_lines(*engine.index_queries, file.fd, flags.pairs, std::cout);
  } else {
    // A stream over the descriptor (left open: PairsFile closes it), rather than std::cin
    // (whose buffer, synchronised with C's stdio, never says how much input is waiting):
    // batches then fill from a pipe, and a user typing pairs still gets each answer at once.
    __gnu_cxx::stdio_filebuf<char> buffer(::dup(file.fd), std::ios::in, size_t{1} << 16);
    std::istream in(&buffer);
    stats = answer_pair_stream(engine, flags, in);
    if (in.bad()) throw InputError(flags.pairs, 0, "read error");
  }
  if (!quiet) print_pair_stats(stats, engine.index_queries.get());
  return stats.unknown || stats.malformed ? kExitInput : kExitOk;
}

}  // namespace

Runner add_query_command(CLI::App& command, CommonOptions& common) {
  auto flags = std::make_shared<QueryFlags>();
  add_query_options(command, *flags);
  return [flags, &common](Session& session) -> int {
    try {
      if (!questions_given_right(*flags)) return kExitUsage;
      PairsFile file;
      if (!flags->pairs.empty()) open_pairs_file(flags->pairs, file);
      QueryEngine engine;
      engine.open(*flags, common, session);
      if (flags->pairs.empty()) {
        const QueryAnswer a = engine.answer(text::unescape_label(*flags->u),
                                            text::unescape_label(*flags->v), flags->json);
        std::printf("%s\n", a.text.c_str());
        return a.status == QueryAnswer::kUnknownLabel ? kExitInput : kExitOk;
      }
      return answer_pair_lines(engine, *flags, file, common.quiet);
    } catch (const std::exception& e) {
      return report_failure(e);
    }
  };
}

}  // namespace closure::cli
