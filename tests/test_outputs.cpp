// Outputs: atomic files that never follow planted links or leave temporaries,
// exact output sizes, gzip, format choice from the extension, strict byte counts; the
// error model's classification; progress decisions; the sparse memory budget.
#include <fcntl.h>
#include <gtest/gtest.h>
#include <signal.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cstring>
#include <filesystem>
#include <fstream>
#include <random>

#include "app/tool/closure_writer.hpp"
#include "app/tool/progress.hpp"
#include "bench/generators.hpp"
#include "closure/algorithms/memory_budget.hpp"
#include "closure/engine/compute.hpp"
#include "closure/errors.hpp"
#include "closure/graph/read_graph.hpp"
#include "closure/io/atomic_file.hpp"
#include "closure/io/byte_sink.hpp"
#include "closure/io/byte_size.hpp"
#include "closure/io/failure_text.hpp"
#include "closure/ocl/error.hpp"
#include "closure/util/cancel.hpp"
#include "test_support.hpp"

namespace closure {
namespace {

namespace fs = std::filesystem;

fs::path fresh_dir(const std::string& name) {
  const fs::path dir = fs::temp_directory_path() /
                       ("closure-test-outputs-" + name + "-" + std::to_string(::getpid()));
  fs::remove_all(dir);
  fs::create_directories(dir);
  return dir;
}

std::string slurp(const fs::path& p) {
  std::ifstream in(p, std::ios::binary);
  return std::string(std::istreambuf_iterator<char>(in), {});
}

size_t entries(const fs::path& dir) {
  return size_t(std::distance(fs::directory_iterator(dir), fs::directory_iterator()));
}

// The binary format decoded (docs/formats.md): magic, n, words per row, n rows of 32-bit
// words, then n labels as (length, bytes).
struct DecodedBinary {
  uint64_t n = 0, words = 0;
  std::vector<uint32_t> rows;
  std::vector<std::string> labels;
};
DecodedBinary decode_binary(const std::string& bytes) {
  DecodedBinary d;
  size_t at = sizeof kBinaryMagic;
  EXPECT_EQ(bytes.compare(0, at, std::string(kBinaryMagic, sizeof kBinaryMagic)), 0);
  std::memcpy(&d.n, bytes.data() + at, 8);
  std::memcpy(&d.words, bytes.data() + at + 8, 8);
  at += 16;
  d.rows.resize(d.n * d.words);
  std::memcpy(d.rows.data(), bytes.data() + at, d.rows.size() * 4);
  at += d.rows.size() * 4;
  for (uint64_t v = 0; v < d.n; ++v) {
    uint32_t len = 0;
    std::memcpy(&len, bytes.data() + at, 4);
    d.labels.emplace_back(bytes.substr(at + 4, len));
    at += 4 + len;
  }
  EXPECT_EQ(at, bytes.size());
  return d;
}

TEST(BinaryOutput, RowsAreTheClosureBySearchAcrossBatchesAndRepresentations) {
  // 12,000 vertices (rows of 1,500 bytes, so the writer's 16 MB batches split the file; the
  // sparse method's ragged rows) and 3,000 (the dense methods' matrix): mostly forward edges
  // with short backward ones, so there are small cycles and long paths. Rows checked bit by
  // bit against a search from their vertex.
  for (const auto& [n, methods] : std::vector<std::pair<uint32_t, std::vector<Method>>>{
           {12000, {Method::kSparse}}, {3000, {Method::kCondense, Method::kRecursive}}}) {
    std::mt19937 rng(n);
    std::string text;
    for (uint32_t i = 0; i < 2 * n; ++i) {
      const uint32_t u = rng() % n;
      const uint32_t v = rng() % 30 == 0 ? (u >= 3 ? u - 1 - rng() % 3 : u) : u + 1 + rng() % 40;
      if (v < n) text += "v" + std::to_string(u) + " v" + std::to_string(v) + "\n";
    }
    const Graph g = read_graph_from_string(text, InputFormat::kEdgeList).graph;
    for (const Method method : methods) {
      ComputeOptions options;
      options.method = method;
      const Closure c = compute_closure(g, options);
      for (const bool reflexive : {false, true}) {
        const fs::path dir = fresh_dir("binary");
        write_closure((dir / "c.bin").string(), g, c, {OutputFormat::kBinary, false}, reflexive);
        const DecodedBinary d = decode_binary(slurp(dir / "c.bin"));
        fs::remove_all(dir);
        ASSERT_EQ(d.n, g.vertex_count());
        ASSERT_EQ(d.words, (d.n + 31) / 32);
        for (uint64_t v = 0; v < d.n; ++v) ASSERT_EQ(d.labels[v], g.label(vertex_t(v)));
        std::vector<uint8_t> seen;
        for (vertex_t s = 0; s < d.n; s += 5) {  // every 5th row: the search is the slow part
          testing::reached_from(g, s, seen);
          if (reflexive) seen[s] = 1;
          for (vertex_t t = 0; t < d.n; ++t)
            ASSERT_EQ((d.rows[s * d.words + t / 32] >> (t % 32)) & 1u, seen[t])
                << method_name(method) << " row " << s << " column " << t;
        }
      }
    }
  }
}

TEST(AtomicFile, IgnoresSymlinksPlantedAtTheOldPredictableTemporaryNames) {
  const fs::path dir = fresh_dir("planted");
  const fs::path victim = dir / "victim", out = dir / "out.txt";
  { std::ofstream(victim) << "precious\n"; }
  // The old scheme wrote through PATH.tmp-PID-N with fopen("wb"): a link there redirected it.
  for (int i = 0; i < 200; ++i)
    fs::create_symlink(
        victim, out.string() + ".tmp-" + std::to_string(::getpid()) + "-" + std::to_string(i));
  AtomicFile f(out.string());
  f.write("closure\n");
  f.commit();
  EXPECT_EQ(slurp(victim), "precious\n");
  EXPECT_EQ(slurp(out), "closure\n");
  EXPECT_FALSE(fs::is_symlink(out));
  fs::remove_all(dir);
}

TEST(AtomicFile, KillNineLeavesNoTemporaryBehind) {
  const fs::path dir = fresh_dir("kill");
  const pid_t child = ::fork();
  ASSERT_GE(child, 0);
  if (child == 0) {
    AtomicFile f((dir / "out.txt").string());
    f.write(std::string(3 << 20, 'x'));  // past the buffer: bytes reach the temporary
    ::kill(::getpid(), SIGKILL);
    ::_exit(0);
  }
  int status = 0;
  ::waitpid(child, &status, 0);
  ASSERT_TRUE(WIFSIGNALED(status));
  EXPECT_EQ(entries(dir), 0u) << "a SIGKILL left a temporary file";
  fs::remove_all(dir);
}

TEST(AtomicFile, KeepsTheReplacedFilesPermissions) {
  const fs::path dir = fresh_dir("mode");
  const fs::path out = dir / "secret.txt";
  { std::ofstream(out) << "old\n"; }
  ::chmod(out.c_str(), 0600);
  AtomicFile f(out.string());
  f.write("new\n");
  f.commit();
  struct stat st {};
  ASSERT_EQ(::stat(out.c_str(), &st), 0);
  EXPECT_EQ(st.st_mode & 0777, 0600u);
  EXPECT_EQ(slurp(out), "new\n");
  fs::remove_all(dir);
}

TEST(AtomicFile, RefusesEmptyPathsFoldersHardLinksAndDanglingLinks) {
  const fs::path dir = fresh_dir("refuse");
  EXPECT_THROW(AtomicFile(""), UsageError);
  EXPECT_THROW(AtomicFile(dir.string()), UsageError);
  { std::ofstream(dir / "a") << "a\n"; }
  fs::create_hard_link(dir / "a", dir / "b");
  EXPECT_THROW(AtomicFile((dir / "a").string()), UsageError);
  fs::create_symlink(dir / "nowhere", dir / "dangling");
  EXPECT_THROW(AtomicFile((dir / "dangling").string()), UsageError);
  EXPECT_EQ(slurp(dir / "b"), "a\n");
  fs::remove_all(dir);
}

TEST(AtomicFile, WritesThroughASymlinkToItsTarget) {
  const fs::path dir = fresh_dir("link");
  { std::ofstream(dir / "real.txt") << "old\n"; }
  fs::create_symlink("real.txt", dir / "link.txt");
  AtomicFile f((dir / "link.txt").string());
  f.write("new\n");
  f.commit();
  EXPECT_TRUE(fs::is_symlink(dir / "link.txt"));
  EXPECT_EQ(slurp(dir / "real.txt"), "new\n");
  fs::remove_all(dir);
}

// Classification only: writing the machine's /dev/null from a test could replace it if the
// classification ever regressed (the CLI test writes a private device node instead).
TEST(AtomicFile, StreamsIntoFifosAndDevicesWithoutReplacingThem) {
  EXPECT_TRUE(classify_output("/dev/null").stream);
  EXPECT_TRUE(classify_output("-").stream);
  const fs::path dir = fresh_dir("fifo");
  const fs::path fifo = dir / "fifo";
  ASSERT_EQ(::mkfifo(fifo.c_str(), 0600), 0);
  EXPECT_TRUE(classify_output(fifo.string()).stream);
  fs::remove_all(dir);
}

TEST(AtomicFile, RefusesTheInputAsOutput) {
  const fs::path dir = fresh_dir("self");
  { std::ofstream(dir / "g.txt") << "1 2\n"; }
  fs::create_symlink("g.txt", dir / "alias.txt");
  EXPECT_THROW(refuse_output_onto_input((dir / "g.txt").string(), (dir / "alias.txt").string()),
               UsageError);
  EXPECT_NO_THROW(refuse_output_onto_input((dir / "g.txt").string(), (dir / "new.txt").string()));
  fs::remove_all(dir);
}

// Graphs that stress the size formulas: cycles, self-loops, isolated vertices, long and
// escaped labels, labels of many lengths.
Graph awkward_graph(uint64_t seed, size_t n) {
  std::mt19937_64 rng(seed);
  std::vector<Edge> edges;
  for (size_t i = 0; i < 3 * n; ++i) {
    const vertex_t u = vertex_t(rng() % n), v = vertex_t(rng() % n);
    if (u < v || rng() % 5 == 0) edges.push_back({u, v});
  }
  std::vector<std::string> labels(n);
  for (size_t v = 0; v < n; ++v) {
    labels[v] = std::string("v").append(std::to_string(v)).append(rng() % 40, char('a' + v % 26));
    if (v % 7 == 3) labels[v] += "\"q\\\x01";  // JSON escapes
  }
  labels[n / 2] = std::string(5000, 'L');  // one long label, reached by many
  return Graph(n, edges, labels);
}

TEST(OutputBytes, ExactForEveryFormatAndBoundedBelow) {
  const fs::path dir = fresh_dir("sizes");
  for (uint64_t seed : {1, 2, 3})
    for (size_t n : {1, 2, 33, 120}) {
      const Graph g = awkward_graph(seed, n);
      const Closure c = compute_closure(g, {});
      for (const auto& info : output_formats())
        for (bool reflexive : {false, true}) {
          const fs::path out = dir / "out";
          const uint64_t written = write_closure(out.string(), g, c, info.format, reflexive);
          const uint64_t size = fs::file_size(out);
          EXPECT_EQ(written, size);
          EXPECT_EQ(output_bytes(g, c, info.format, reflexive), size)
              << info.name << " n=" << n << " seed=" << seed << " reflexive=" << reflexive;
          EXPECT_LE(output_bytes_lower_bound(g, c, info.format, reflexive), size) << info.name;
        }
    }
  fs::remove_all(dir);
}

TEST(OutputBytes, ExactOnDenseClosuresToo) {
  const Graph g = awkward_graph(9, 70);
  ComputeOptions o;
  o.method = Method::kSquare;
  o.lazy_runtime = [] { return nullptr; };
  const Closure c = compute_closure(g, o);
  const fs::path dir = fresh_dir("dense");
  for (const auto& info : output_formats()) {
    write_closure((dir / "out").string(), g, c, info.format, false);
    EXPECT_EQ(output_bytes(g, c, info.format, false), fs::file_size(dir / "out")) << info.name;
  }
  fs::remove_all(dir);
}

// The size model against the writer for every spec (a DOT drawing too), strict and
// reflexive, where the writer writes; where it refuses a label, the model refuses too.
void expect_exact_sizes(const Graph& g, const std::string& what) {
  const Closure c = compute_closure(g, {});
  for (const std::string& name : output_spec_names()) {
    const OutputSpec spec = requested_output_spec("out", name);
    for (bool reflexive : {false, true}) {
      StringSink sink;
      try {
        write_pairs(sink, g, ClosureRows(c, reflexive), spec);
      } catch (const UsageError&) {
        EXPECT_THROW(output_bytes(g, c, spec, reflexive), UsageError) << what << " " << name;
        continue;
      }
      EXPECT_EQ(output_bytes(g, c, spec, reflexive), sink.text.size())
          << what << " " << name << " reflexive=" << reflexive;
      EXPECT_LE(output_bytes_lower_bound(g, c, spec, reflexive), sink.text.size())
          << what << " " << name << " reflexive=" << reflexive;
    }
  }
}

// Labels each format escapes, quotes or refuses (CSV quoting; an edge list's '#', '%' and
// '\' escapes; Matrix Market's line breaks; bytes that are not UTF-8 in JSON; numbers,
// which node-link writes unquoted), on a cycle, a chain and a vertex with no pairs; and
// graphs with no vertices or no edges.
TEST(OutputBytes, ExactOnAwkwardLabelsAndShapes) {
  const std::vector<std::vector<std::string>> label_sets{
      {"a,b", "say\"hi\"", "#hash", "%pct", "\\#x", "\\\\y", "\\z", "\\", "#", "plain"},
      {" lead", "trail ", "in side", "tab\tin", "a,b c", "x"},
      {"line\nbreak", "cr\rx", "back\\slash", "%y"},
      {"\xff\xfe", "caf\xc3\xa9", "\xc3", "ok"},
      {"0", "7", "42", "1000000", "999999999999999999"},
      {"007", "1", "2"},
      {"", "e"},
  };
  for (const auto& labels : label_sets) {
    const size_t n = labels.size();
    std::vector<Edge> edges{{0, 1}, {1, 0}};  // a cycle: (v,v) pairs without --reflexive
    for (vertex_t v = 1; v + 2 < n; ++v) edges.push_back({v, v + 1});  // the last has no pairs
    expect_exact_sizes(Graph(n, edges, labels), labels.front());
    expect_exact_sizes(Graph(n, {}, labels), "no edges: " + labels.front());
  }
  expect_exact_sizes(Graph(0, {}, {}), "no vertices");
  expect_exact_sizes(Graph(1, {{0, 0}}, {"self"}), "a self-loop");
}

TEST(ByteSink, CountingSinkCountsWhatAStringSinkHolds) {
  const Graph g = awkward_graph(4, 40);
  const Closure c = compute_closure(g, {});
  for (const std::string& name : output_spec_names()) {
    StringSink text;
    CountingSink count;
    const OutputSpec spec = requested_output_spec("out", name);
    write_pairs(text, g, ClosureRows(c, false), spec);
    write_pairs(count, g, ClosureRows(c, false), spec);
    EXPECT_EQ(count.bytes(), text.text.size()) << name;
  }
}

TEST(OutputSpec, ExtensionPicksTheFormatAndGzip) {
  EXPECT_EQ(output_spec("x.mtx", {}).format, OutputFormat::kMatrixMarket);
  EXPECT_EQ(output_spec("x.json", {}).format, OutputFormat::kJson);
  EXPECT_EQ(output_spec("dir.json/x.bin", {}).format, OutputFormat::kBinary);
  EXPECT_EQ(output_spec("x.txt", {}).format, OutputFormat::kEdges);
  EXPECT_FALSE(output_spec("x.txt", {}).gzip);
  EXPECT_TRUE(output_spec("x.txt.gz", {}).gzip);
  EXPECT_EQ(output_spec("x.mtx.gz", {}).format, OutputFormat::kMatrixMarket);
  EXPECT_EQ(output_spec("x.txt", OutputFormat::kJson).format, OutputFormat::kJson);
  EXPECT_EQ(output_spec("-", OutputFormat::kBinary).format, OutputFormat::kBinary);
  EXPECT_THROW(output_spec("x.mtx", OutputFormat::kJson), UsageError);
  EXPECT_THROW(output_spec("x.json.gz", OutputFormat::kEdges), UsageError);
  EXPECT_NO_THROW(output_spec("x.mtx", OutputFormat::kMatrixMarket));
}

TEST(OutputSpec, GzipOutputReadsBackAsTheSameClosure) {
  const fs::path dir = fresh_dir("gzip");
  const Graph g = random_dag(300, 900, 5);
  const Closure c = compute_closure(g, {});
  const std::string path = (dir / "c.txt.gz").string();
  write_closure(path, g, c, output_spec(path, {}), false);
  EXPECT_EQ(slurp(path).substr(0, 2), "\x1f\x8b");
  const ReadResult back = read_graph(path);
  EXPECT_EQ(back.graph.edge_count(), c.pair_count());
  fs::remove_all(dir);
}

TEST(ByteSize, StrictWithUnits) {
  EXPECT_EQ(parse_byte_size("0"), 0u);
  EXPECT_EQ(parse_byte_size("1000000"), 1000000u);
  EXPECT_EQ(parse_byte_size("10G"), 10'000'000'000u);
  EXPECT_EQ(parse_byte_size("10GB"), 10'000'000'000u);
  EXPECT_EQ(parse_byte_size("2k"), 2000u);
  EXPECT_EQ(parse_byte_size("3MiB"), 3u << 20);
  EXPECT_EQ(parse_byte_size("1Ti"), uint64_t{1} << 40);
  // Units in either case.
  EXPECT_EQ(parse_byte_size("10g"), 10'000'000'000u);
  EXPECT_EQ(parse_byte_size("512mb"), 512'000'000u);
  EXPECT_EQ(parse_byte_size("1kib"), 1024u);
  EXPECT_EQ(parse_byte_size("2gIB"), uint64_t{2} << 30);
  EXPECT_EQ(parse_byte_size("18446744073709551615"), UINT64_MAX);
  for (const char* bad : {"", "-5", "99999999999999999999", "10x", "1.5G", "G", " 5", "5 ",
                          "20000000000T", "0x10", "10iB", "10ib", "5bb", "3p"})
    EXPECT_THROW(parse_byte_size(bad), UsageError) << bad;
}

TEST(ErrorModel, KindsOfStandardAndProjectExceptions) {
  EXPECT_EQ(classify(UsageError("x")), ErrorKind::kUsage);
  EXPECT_EQ(classify(InputError("f", 1, "x")), ErrorKind::kInput);
  EXPECT_EQ(classify(OutOfMemoryError("x")), ErrorKind::kResource);
  EXPECT_EQ(classify(std::bad_alloc()), ErrorKind::kResource);
  EXPECT_EQ(classify(ocl::Error("clFoo", -5)), ErrorKind::kDevice);
  EXPECT_EQ(classify(InternalError("x")), ErrorKind::kInternal);
  // An invariant broken inside the library is a bug, never "usage".
  EXPECT_EQ(classify(std::invalid_argument("x")), ErrorKind::kInternal);
  EXPECT_EQ(classify(std::out_of_range("x")), ErrorKind::kInternal);
  EXPECT_EQ(classify(std::runtime_error("disk full")), ErrorKind::kResource);
  EXPECT_THROW(parse_method("fastest"), UsageError);
  EXPECT_THROW(parse_output_format("xml"), UsageError);
}

TEST(ErrorModel, CancelledAndAClosedOutputAreKindsOfTheTable) {
  EXPECT_EQ(classify(Cancelled()), ErrorKind::kCancelled);
  EXPECT_EQ(classify(OutputClosedError("gone")), ErrorKind::kOutputClosed);
  // The CLI's statuses: a closed output ends quietly with 0, a cancelled run fails.
  EXPECT_EQ(info_of(ErrorKind::kOutputClosed).exit_status, 0);
  EXPECT_FALSE(info_of(ErrorKind::kOutputClosed).reported);
  EXPECT_EQ(info_of(ErrorKind::kCancelled).exit_status, 4);
  EXPECT_STREQ(info_of(ErrorKind::kCancelled).python_class, "Cancelled");
  // Every kind has its own row.
  for (int k = 0; k <= int(ErrorKind::kOutputClosed); ++k)
    EXPECT_EQ(int(info_of(ErrorKind(k)).kind), k);
  // Across a process boundary each comes back as its own class.
  auto text_of = [](auto e) { return failure_text(std::make_exception_ptr(e)); };
  EXPECT_THROW(throw_failure_text(text_of(OutputClosedError("gone"))), OutputClosedError);
  EXPECT_THROW(throw_failure_text(text_of(Cancelled())), Cancelled);
  EXPECT_THROW(throw_failure_text(text_of(UsageError("x"))), UsageError);
  EXPECT_THROW(throw_failure_text(text_of(InternalError("x"))), InternalError);
}

TEST(NameTables, OneListOfMethodsAndFormats) {
  const auto methods = method_names();
  ASSERT_EQ(methods.front(), "auto");
  for (const auto& m : methods) EXPECT_EQ(method_name(parse_method(m)), m);
  for (const auto& f : output_format_names())
    EXPECT_EQ(output_format_name(parse_output_format(f)), f);
  const auto inputs = input_format_names();
  EXPECT_GE(inputs.size(), 6u);
  EXPECT_EQ(inputs.front(), "auto");
  for (const auto& f : inputs) EXPECT_NO_THROW(parse_input_format(f)) << f;
}

TEST(Progress, ShownOnTerminalsUnlessQuietOrAskedOtherwise) {
  EXPECT_TRUE(progress_enabled(ProgressMode::kAuto, true, false));
  EXPECT_FALSE(progress_enabled(ProgressMode::kAuto, false, false));
  EXPECT_FALSE(progress_enabled(ProgressMode::kAuto, true, true));
  EXPECT_TRUE(progress_enabled(ProgressMode::kOn, false, true));
  EXPECT_FALSE(progress_enabled(ProgressMode::kOff, true, false));
  EXPECT_EQ(progress_text("reading g.txt", -1, 3.2), "closure: reading g.txt 3 s");
  EXPECT_EQ(progress_text("writing o", 0.4, 12), "closure: writing o  40% 12 s");
}

TEST(Progress, SilentBeforeTheDelayThenDrawn) {
  char* text = nullptr;
  size_t size = 0;
  std::FILE* out = ::open_memstream(&text, &size);
  {
    ProgressLine line(out, std::chrono::hours(1));
    line.phase("computing");
  }
  std::fflush(out);
  EXPECT_EQ(std::string(text, size), "");
  {
    ProgressLine line(out, std::chrono::seconds(0));
    line.phase("computing");
  }
  std::fflush(out);
  EXPECT_NE(std::string(text, size).find("closure: computing"), std::string::npos);
  std::fclose(out);
  std::free(text);
}

TEST(MemoryBudget, SparseRefusesWithTheSizesNamed) {
  // A random DAG whose closure rows need several MB: refused under a 1 MB limit, before
  // the allocation, by the sparse method (which had no estimate before).
  const Graph g = random_dag(20000, 60000, 3);
  ComputeOptions o;
  o.method = Method::kSparse;
  o.host_memory_limit = 4'000'000;
  try {
    compute_closure(g, o);
    FAIL() << "no refusal";
  } catch (const OutOfMemoryError& e) {
    EXPECT_NE(std::string(e.what()).find("sparse on 20000 vertices"), std::string::npos)
        << e.what();
    EXPECT_NE(std::string(e.what()).find("available"), std::string::npos) << e.what();
  }
  o.host_memory_limit = 0;
  EXPECT_NO_THROW(compute_closure(g, o));
  EXPECT_GT(available_host_memory(), 0u);
  EXPECT_LE(available_host_memory(), host_physical_memory());
}

TEST(ComputeReport, SquareCountsStronglyConnectedComponents) {
  const ReadResult r = read_graph(std::string(CLOSURE_SOURCE_DIR) + "/data/cycle.txt");
  for (Method m : {Method::kSquare, Method::kSparse, Method::kCondense}) {
    ComputeOptions o;
    o.method = m;
    o.lazy_runtime = [] { return nullptr; };
    ComputeReport report;
    compute_closure(r.graph, o, &report);
    EXPECT_EQ(report.components, 4u) << method_name(m);
  }
}

}  // namespace
}  // namespace closure
