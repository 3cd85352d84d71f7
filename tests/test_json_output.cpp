// JSON written through nlohmann-json: the closure's JSON layout parses back to the same
// labels (quotes, backslashes, UTF-8), labels that are not UTF-8 are refused
// with a message, and the --json summary parses with the documented names.
#include <gtest/gtest.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>
#include <sstream>

#include "app/tool/closure_writer.hpp"
#include "app/tool/run_graph.hpp"
#include "closure/algorithms/host_closure.hpp"
#include "closure/graph/read_graph.hpp"

namespace closure {
namespace {
namespace fs = std::filesystem;

fs::path temp(const std::string& name) {
  return fs::temp_directory_path() / ("closure-json-" + std::to_string(::getpid()) + "-" + name);
}

std::string slurp(const fs::path& p) {
  std::ifstream in(p, std::ios::binary);
  std::stringstream s;
  s << in.rdbuf();
  return s.str();
}

TEST(JsonOutput, ClosureLabelsRoundTripThroughAJsonParser) {
  const fs::path in = temp("labels.txt"), out = temp("labels.json");
  std::ofstream(in) << "a\"b c\\d\nc\\d caf\xc3\xa9\n";
  const ReadResult r = read_graph(in.string());
  const Closure c = closure_sparse(r.graph);
  write_closure(out.string(), r.graph, c, OutputFormat::kJson, false);
  const auto j = nlohmann::json::parse(slurp(out));
  EXPECT_EQ(j["vertices"], 3);
  EXPECT_EQ(j["pairs"], 3);
  const auto& succ = j["successors"];
  ASSERT_TRUE(succ.contains("a\"b"));
  EXPECT_EQ(succ["a\"b"], nlohmann::json::array({"c\\d", "caf\xc3\xa9"}));
  EXPECT_EQ(succ["c\\d"], nlohmann::json::array({"caf\xc3\xa9"}));
  fs::remove(in);
  fs::remove(out);
}

// A label that is not UTF-8 is written with its bad bytes as \udcNN (io/json_text.hpp),
// and the size guard's exact size still holds.
TEST(JsonOutput, LabelsThatAreNotUtf8AreWrittenAsSurrogateEscapes) {
  const fs::path in = temp("latin1.txt"), out = temp("latin1.json");
  std::ofstream(in) << "caf\xe9 bar\ncafe bar\n";
  const ReadResult r = read_graph(in.string());
  const Closure c = closure_sparse(r.graph);
  const uint64_t written = write_closure(out.string(), r.graph, c, OutputFormat::kJson, false);
  std::ifstream f(out);
  const std::string text((std::istreambuf_iterator<char>(f)), std::istreambuf_iterator<char>());
  EXPECT_NE(text.find("\"caf\\udce9\":[\"bar\"]"), std::string::npos) << text;
  EXPECT_NE(text.find("\"cafe\":[\"bar\"]"), std::string::npos) << text;
  EXPECT_EQ(written, text.size());
  EXPECT_EQ(output_bytes(r.graph, c, OutputFormat::kJson, false), text.size());
  fs::remove(in);
  fs::remove(out);
}

TEST(JsonOutput, SummaryUsesTheDocumentedNames) {
  Request o;
  o.input = std::string(CLOSURE_SOURCE_DIR) + "/data/cycle.txt";
  o.verify = true;
  const auto j = nlohmann::json::parse(summary_json(run_graph(o)));
  for (const char* key : {"vertices", "edges", "components", "pairs", "dag", "seconds"})
    EXPECT_TRUE(j.contains(key)) << key;
  EXPECT_EQ(j["components"], 4);
  EXPECT_EQ(j["verify"]["verdict"], "MATCH");
  EXPECT_EQ(j["verify"]["match"], true);
}

}  // namespace
}  // namespace closure
