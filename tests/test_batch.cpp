// Batch: every file isolated in its own process (a crash is a failed record, not the end
// of the batch), unreadable entries as failed records, resume records that are parsed
// strictly and redone when anything they depend on changed, and outputs never read back.
#include <fcntl.h>
#include <gtest/gtest.h>
#include <sys/stat.h>
#include <unistd.h>

#include <csignal>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <sstream>

#include "app/tool/batch.hpp"
#include "app/tool/batch_files.hpp"
#include "app/tool/batch_record.hpp"
#include "closure/io/utf8.hpp"

namespace closure {
namespace {
namespace fs = std::filesystem;

fs::path fresh_dir(const std::string& name) {
  fs::path dir =
      fs::temp_directory_path() / ("closure-batch-" + name + "-" + std::to_string(::getpid()));
  fs::remove_all(dir);
  fs::create_directories(dir);
  return dir;
}

void write(const fs::path& p, const std::string& text) {
  std::ofstream(p, std::ios::binary | std::ios::trunc) << text;
}

std::string read(const fs::path& p) {
  std::ifstream in(p, std::ios::binary);
  std::stringstream s;
  s << in.rdbuf();
  return s.str();
}

// Three small graphs in `dir`: a.txt (chain), b.txt (cycle), c.txt (diamond).
void three_graphs(const fs::path& dir) {
  write(dir / "a.txt", "1 2\n2 3\n");
  write(dir / "b.txt", "1 2\n2 1\n");
  write(dir / "c.txt", "1 2\n1 3\n2 4\n3 4\n");
}

BatchOptions options_for(const fs::path& in, const fs::path& out) {
  BatchOptions o;
  o.paths = {in.string()};
  o.out_dir = out.string();
  return o;
}

size_t count_skipped(const std::vector<BatchRow>& rows) {
  size_t n = 0;
  for (const auto& r : rows) n += r.skipped;
  return n;
}

TEST(Batch, ACrashingFileIsAFailedRecordAndTheOthersComplete) {
  const fs::path dir = fresh_dir("crash"), out = dir / "out";
  fs::create_directories(dir / "in");
  three_graphs(dir / "in");
  write(dir / "in" / "d.txt", "x y\n");  // after two crashes: a fresh worker takes it
  for (unsigned jobs : {1u, 2u}) {
    SCOPED_TRACE(jobs);
    BatchOptions o = options_for(dir / "in", out);
    o.jobs = jobs;
    o.runner = [](const Request& run) {
      if (fs::path(run.input).filename() == "b.txt") {
        std::signal(SIGSEGV, SIG_DFL);  // under ASan, its handler would turn this into exit 1
        std::raise(SIGSEGV);
      }
      if (fs::path(run.input).filename() == "c.txt") std::abort();
      return run_graph(run);
    };
    const auto rows = run_batch(o);
    ASSERT_EQ(rows.size(), 4u);
    EXPECT_TRUE(rows[0].ok()) << rows[0].error;
    EXPECT_TRUE(rows[3].ok()) << rows[3].error;
    EXPECT_EQ(rows[3].pairs, 1u);
    EXPECT_EQ(rows[0].pairs, 3u);
    EXPECT_NE(rows[1].error.find("signal 11"), std::string::npos) << rows[1].error;
    EXPECT_NE(rows[2].error.find("signal 6"), std::string::npos) << rows[2].error;
    EXPECT_TRUE(fs::exists(out / "b.txt.summary.json"));
    EXPECT_NE(read(out / "summary.json").find("signal 11"), std::string::npos);
    EXPECT_TRUE(fs::exists(out / "a.txt.closure.txt"));
  }
  fs::remove_all(dir);
}

TEST(Batch, AFileOverTheTimeLimitIsKilledAndTheOthersComplete) {
  const fs::path dir = fresh_dir("slow");
  fs::create_directories(dir / "in");
  three_graphs(dir / "in");
  BatchOptions o = options_for(dir / "in", dir / "out");
  o.file_time_limit_s = 0.5;
  o.runner = [](const Request& run) {
    if (fs::path(run.input).filename() == "b.txt")
      for (;;) ::pause();  // a reader that never returns
    return run_graph(run);
  };
  const auto rows = run_batch(o);
  ASSERT_EQ(rows.size(), 3u);
  EXPECT_TRUE(rows[0].ok());
  EXPECT_NE(rows[1].error.find("timed out after 0.5 s"), std::string::npos) << rows[1].error;
  EXPECT_TRUE(rows[2].ok());
  fs::remove_all(dir);
}

TEST(Batch, AnEarlierRunsSummariesAreGoneWhileTheFilesRun) {
  // A batch stopped partway must not leave an older run's summaries beside its new records:
  // they are removed before the first file runs, and written again at the end.
  const fs::path dir = fresh_dir("summaries");
  fs::create_directories(dir / "in");
  three_graphs(dir / "in");
  BatchOptions o = options_for(dir / "in", dir / "out");
  run_batch(o);
  ASSERT_TRUE(fs::exists(dir / "out" / "summary.csv"));
  ASSERT_TRUE(fs::exists(dir / "out" / "summary.json"));
  const fs::path out = dir / "out";
  o.runner = [out](const Request& run) -> RunSummary {
    if (fs::exists(out / "summary.csv") || fs::exists(out / "summary.json"))
      throw std::runtime_error("an older summary is still there");
    return run_graph(run);
  };
  const auto rows = run_batch(o);
  for (const auto& r : rows) EXPECT_TRUE(r.ok()) << r.error;
  EXPECT_TRUE(fs::exists(out / "summary.csv"));
  EXPECT_TRUE(fs::exists(out / "summary.json"));
  fs::remove_all(dir);
}

TEST(Batch, ExceptionsAndOutOfMemoryInAFileAreFailedRecords) {
  const fs::path dir = fresh_dir("throw");
  fs::create_directories(dir / "in");
  three_graphs(dir / "in");
  BatchOptions o = options_for(dir / "in", dir / "out");
  o.runner = [](const Request& run) -> RunSummary {
    if (fs::path(run.input).filename() == "a.txt") throw std::bad_alloc();
    return run_graph(run);
  };
  const auto rows = run_batch(o);
  EXPECT_NE(rows[0].error.find("bad_alloc"), std::string::npos);
  EXPECT_TRUE(rows[1].ok());
  EXPECT_TRUE(rows[2].ok());
  fs::remove_all(dir);
}

TEST(Batch, SymlinkLoopAndDanglingLinkAreFailedRecordsNotAnAbort) {
  const fs::path dir = fresh_dir("loop");
  fs::create_directories(dir / "in");
  three_graphs(dir / "in");
  fs::create_symlink("self", dir / "in" / "self");             // ELOOP
  fs::create_symlink("nowhere.txt", dir / "in" / "dangling");  // ENOENT
  const auto rows = run_batch(options_for(dir / "in", dir / "out"));
  ASSERT_EQ(rows.size(), 5u);
  size_t ok = 0, failed = 0;
  for (const auto& r : rows) {
    if (r.ok()) ++ok;
    if (r.file.find("self") != std::string::npos) {
      EXPECT_NE(r.error.find("symbolic links"), std::string::npos) << r.error;
      ++failed;
    }
    if (r.file.find("dangling") != std::string::npos) {
      EXPECT_FALSE(r.error.empty());
      ++failed;
    }
  }
  EXPECT_EQ(ok, 3u);
  EXPECT_EQ(failed, 2u);
  EXPECT_TRUE(fs::exists(dir / "out" / "self.summary.json"));
  fs::remove_all(dir);
}

TEST(Batch, OutputFolderEqualToTheInputFolderIsNeverReadBack) {
  const fs::path dir = fresh_dir("same");
  three_graphs(dir);
  for (int run = 0; run < 3; ++run) {
    SCOPED_TRACE(run);
    const auto rows = run_batch(options_for(dir, dir));
    ASSERT_EQ(rows.size(), 3u);  // not the closures, records or summaries of earlier runs
    for (const auto& r : rows) EXPECT_TRUE(r.ok()) << r.file << ": " << r.error;
  }
  EXPECT_TRUE(fs::exists(dir / "a.txt.closure.txt"));
  fs::remove_all(dir);
}

TEST(Batch, ResumeSkipsOnlyWhatStillMatches) {
  const fs::path dir = fresh_dir("resume"), in = dir / "in", out = dir / "out";
  fs::create_directories(in);
  three_graphs(in);
  BatchOptions o = options_for(in, out);
  run_batch(o);
  o.resume = true;
  EXPECT_EQ(count_skipped(run_batch(o)), 3u);

  // The input changes, same size, mtime put back: the content hash sees it.
  struct stat before {};
  ASSERT_EQ(::stat((in / "a.txt").c_str(), &before), 0);
  write(in / "a.txt", "1 3\n3 2\n");
  const timespec times[2] = {before.st_atim, before.st_mtim};
  ASSERT_EQ(::utimensat(AT_FDCWD, (in / "a.txt").c_str(), times, 0), 0);
  auto rows = run_batch(o);
  EXPECT_FALSE(rows[0].skipped);
  EXPECT_TRUE(rows[1].skipped);
  EXPECT_EQ(count_skipped(run_batch(o)), 3u);

  // The closure file is overwritten with junk, or deleted: redone.
  write(out / "b.txt.closure.txt", "junk\n");
  fs::remove(out / "c.txt.closure.txt");
  rows = run_batch(o);
  EXPECT_TRUE(rows[0].skipped);
  EXPECT_FALSE(rows[1].skipped);
  EXPECT_FALSE(rows[2].skipped);
  EXPECT_EQ(read(out / "b.txt.closure.txt").find("junk"), std::string::npos);
  EXPECT_TRUE(fs::exists(out / "c.txt.closure.txt"));

  // An option that changes the result: everything redone, with the new result.
  o.run.reflexive = true;
  rows = run_batch(o);
  EXPECT_EQ(count_skipped(rows), 0u);
  EXPECT_EQ(rows[2].pairs, 5u + 4u);
  EXPECT_EQ(count_skipped(run_batch(o)), 3u);
  o.run.output_format = OutputFormat::kJson;
  EXPECT_EQ(count_skipped(run_batch(o)), 0u);
  o.run.verify = true;
  EXPECT_EQ(count_skipped(run_batch(o)), 0u);
  EXPECT_EQ(count_skipped(run_batch(o)), 3u);
  // The method does not change the result.
  o.run.compute.method = Method::kCondense;
  o.run.compute.lazy_runtime = [] { return nullptr; };
  EXPECT_EQ(count_skipped(run_batch(o)), 3u);
  fs::remove_all(dir);
}

TEST(Batch, DamagedRecordsAreRedoneNeverFatal) {
  const fs::path dir = fresh_dir("damaged"), in = dir / "in", out = dir / "out";
  fs::create_directories(in);
  three_graphs(in);
  BatchOptions o = options_for(in, out);
  o.jobs = 2;
  run_batch(o);
  o.resume = true;
  const std::string good = read(out / "a.txt.summary.json");
  ASSERT_TRUE(parse_record(good).has_value());
  const std::vector<std::string> damaged = {
      "",
      good.substr(0, good.size() / 2),                      // truncated
      std::string(good.size(), '\0'),                       // zeroed
      "\x89PNG\r\n\x1a\n garbage",                          // not JSON
      "[" + good + "]",                                     // another shape
      std::string(100000, '[') + std::string(100000, ']'),  // deep nesting
      good + good,                                          // two values
  };
  // Field-level damage: a count as a string (the old parser's stoull), a missing field,
  // an extra one, a wrong schema, a bad hash.
  auto patched = [&](const std::string& from, const std::string& to) {
    std::string s = good;
    const auto at = s.find(from);
    EXPECT_NE(at, std::string::npos) << from;
    return s.replace(at, from.size(), to);
  };
  std::vector<std::string> all = damaged;
  all.push_back(patched("\"vertices\":3", "\"vertices\":\"3x\""));
  all.push_back(patched("\"vertices\":3,", ""));
  all.push_back(patched("\"vertices\":3", "\"vertices\":3,\"extra\":1"));
  all.push_back(patched("\"vertices\":3", "\"vertices\":-3"));
  all.push_back(patched("closure-batch-record", "closure-batch-recorx"));
  all.push_back(patched("\"version\":1", "\"version\":2"));
  all.push_back(patched("\"hash\":\"", "\"hash\":\"zz"));
  for (const std::string& text : all) {
    SCOPED_TRACE(text.substr(0, 80));
    EXPECT_FALSE(parse_record(text).has_value());
    write(out / "a.txt.summary.json", text);
    const auto rows = run_batch(o);
    EXPECT_FALSE(rows[0].skipped);
    EXPECT_TRUE(rows[0].ok()) << rows[0].error;
    EXPECT_TRUE(rows[1].skipped);
    EXPECT_TRUE(parse_record(read(out / "a.txt.summary.json")).has_value());
  }
  fs::remove_all(dir);
}

TEST(Batch, RecordsRoundTripLabelsAndPathsWithEscapes) {
  BatchRecord r;
  r.row.file = "dir/we\"ird\\name\n\x01.txt";
  r.row.vertices = 1ull << 40;
  r.row.error = "line\nbreak and \\backslash \"quote\"";
  r.row.verify = "INCONCLUSIVE";
  r.row.seconds = 0.25;
  r.input = {123, -5, 0xfedcba9876543210ull};
  r.options = R"({"reflexive":true})";
  r.output = FileKey{7, 0, 42};
  r.output_name = "x.closure.txt";
  const std::string text = record_json(r);
  const auto back = parse_record(text);
  ASSERT_TRUE(back.has_value());
  EXPECT_EQ(back->row.file, r.row.file);
  EXPECT_EQ(back->row.error, r.row.error);
  EXPECT_EQ(back->row.vertices, r.row.vertices);
  EXPECT_EQ(back->row.verify, "INCONCLUSIVE");
  EXPECT_EQ(back->input, r.input);
  EXPECT_EQ(back->options, r.options);
  ASSERT_TRUE(back->output.has_value());
  EXPECT_EQ(*back->output, *r.output);
  EXPECT_EQ(record_json(*back), text);
  // The summary table uses the naming of `closure --json`.
  const std::string table = batch_json({r.row});
  for (const char* key : {"\"vertices\"", "\"edges\"", "\"components\""})
    EXPECT_NE(table.find(key), std::string::npos) << key;
  EXPECT_EQ(
      batch_csv({}),
      "file,vertices,edges,components,dag,pairs,method,device,seconds,verify,error,file_hex\n");
}

// A file name that is not UTF-8: the CSV stays UTF-8 text (U+FFFD in the name, as in
// summary.json) and keeps the bytes in hex in its last column; other names leave it empty.
TEST(Batch, CsvNamesThatAreNotUtf8) {
  BatchRow odd;
  odd.file = "d/x\xff.txt";
  odd.vertices = 2;
  BatchRow plain;
  plain.file = "g.txt";
  const std::string csv = batch_csv({odd, plain});
  EXPECT_TRUE(is_utf8(csv));
  EXPECT_NE(csv.find("d/x\xEF\xBF\xBD.txt,2,"), std::string::npos) << csv;
  EXPECT_NE(csv.find(",642f78ff2e747874\n"), std::string::npos) << csv;
  EXPECT_NE(csv.find("g.txt,0,"), std::string::npos) << csv;
  EXPECT_EQ(csv.substr(csv.size() - 2), ",\n") << "a UTF-8 name's file_hex is empty";
}

TEST(Batch, AFailedRowHasNoFacts) {
  BatchRow failed;
  failed.file = "x.txt";
  failed.error = "x.txt:1: expected two columns";
  failed.facts_known = false;  // as when the run threw
  BatchRow good;
  good.file = "g.txt";
  good.vertices = 3;
  good.dag = true;
  good.method = "sparse";
  const std::string json = batch_json({failed, good});
  EXPECT_NE(json.find("\"vertices\":null,\"edges\":null,\"components\":null,\"dag\":null,"
                      "\"pairs\":null,\"method\":null,\"device\":null"),
            std::string::npos)
      << json;
  EXPECT_NE(json.find("\"vertices\":3,"), std::string::npos) << json;
  EXPECT_NE(json.find("\"dag\":true"), std::string::npos) << json;
  // The CSV spells booleans as the JSON does, and leaves unknown facts empty.
  const std::string csv = batch_csv({failed, good});
  EXPECT_NE(csv.find("\nx.txt,,,,,,,,0.0000,-,x.txt:1: expected two columns,\n"), std::string::npos)
      << csv;
  EXPECT_NE(csv.find("\ng.txt,3,0,0,true,0,sparse,,"), std::string::npos) << csv;
  // A failed record round-trips with its facts null; nulls are refused in a good record.
  BatchRecord r;
  r.row = failed;
  const std::string text = record_json(r);
  EXPECT_NE(text.find("\"vertices\":null"), std::string::npos) << text;
  const auto back = parse_record(text);
  ASSERT_TRUE(back.has_value());
  EXPECT_EQ(back->row.error, failed.error);
  EXPECT_EQ(record_json(*back), text);
  BatchRecord ok;
  ok.row = good;
  std::string bad = record_json(ok);
  bad.replace(bad.find("\"vertices\":3"), 12, "\"vertices\":null");
  EXPECT_FALSE(parse_record(bad).has_value()) << bad;
}

TEST(Batch, DeletedInputsLoseTheirRecords) {
  const fs::path dir = fresh_dir("stale"), in = dir / "in", other = dir / "other",
                 out = dir / "out";
  fs::create_directories(in);
  fs::create_directories(other);
  three_graphs(in);
  write(other / "z.txt", "1 2\n");
  BatchOptions o = options_for(in, out);
  o.paths.push_back((other / "z.txt").string());
  run_batch(o);
  ASSERT_TRUE(fs::exists(out / "b.txt.summary.json"));
  fs::remove(in / "b.txt");
  fs::remove(other / "z.txt");
  // z.txt was named, not found in a folder: the next batch without it leaves its record.
  BatchOptions next = options_for(in, out);
  next.resume = true;
  std::vector<std::string> removed;
  const auto rows = run_batch(next, {}, &removed);
  EXPECT_EQ(removed, std::vector<std::string>{(in / "b.txt").string()});
  EXPECT_FALSE(fs::exists(out / "b.txt.summary.json"));
  EXPECT_FALSE(fs::exists(out / "b.txt.closure.txt"));
  EXPECT_TRUE(fs::exists(out / "z.txt.summary.json"));
  ASSERT_EQ(rows.size(), 2u);
  EXPECT_EQ(count_skipped(rows), 2u);
  // A file left out by --exclude still exists: its record stays.
  next.names.exclude = {"c.txt"};
  removed.clear();
  EXPECT_EQ(run_batch(next, {}, &removed).size(), 1u);
  EXPECT_TRUE(removed.empty());
  EXPECT_TRUE(fs::exists(out / "c.txt.summary.json"));
  fs::remove_all(dir);
}

TEST(Batch, OutputNamesAreRecognised) {
  for (const char* name :
       {"g.txt.summary.json", "g.txt.closure.txt", "g.closure.mtx", "g.closure.json",
        "g.closure.bin", "summary.csv", "summary.json", "g.closure.txt.tmp-12-0"})
    EXPECT_TRUE(is_batch_output_name(name)) << name;
  for (const char* name : {"g.txt", "closure.txt", "g.json", "summary.txt"})
    EXPECT_FALSE(is_batch_output_name(name)) << name;
}

}  // namespace
}  // namespace closure
