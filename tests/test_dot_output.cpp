// Graphviz DOT output: ids quoted and escaped so that every label is one node and
// distinct labels stay distinct (bytes that are not UTF-8 included), the closure drawing's
// exact size (the --max-output guard), the names that choose it, and the reduction and
// condensation drawings of `closure reduce`.
#include <gtest/gtest.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <set>
#include <string>

#include "app/tool/closure_writer.hpp"
#include "app/tool/dot_graph.hpp"
#include "closure/engine/compute.hpp"
#include "closure/errors.hpp"
#include "closure/graph/read_graph.hpp"
#include "closure/io/byte_sink.hpp"
#include "closure/io/dot_text.hpp"
#include "closure/reach/descendants.hpp"

namespace closure {
namespace {

namespace fs = std::filesystem;

TEST(DotOutput, IdsAreQuotedAndEscaped) {
  EXPECT_EQ(dot_id("a"), "\"a\"");
  EXPECT_EQ(dot_id(""), "\"\"");
  EXPECT_EQ(dot_id("a b -> c;"), "\"a b -> c;\"");
  EXPECT_EQ(dot_id("say \"hi\""), "\"say \\\"hi\\\"\"");
  EXPECT_EQ(dot_id("ends\\"), "\"ends\\\\\"");  // the \ cannot swallow the closing quote
  EXPECT_EQ(dot_id("\\N"), "\"\\\\N\"");        // not Graphviz's node-name escape
  EXPECT_EQ(dot_id("two\nlines\r"), "\"two\\nlines\\r\"");
  EXPECT_EQ(dot_id("caf\xc3\xa9"), "\"caf\xc3\xa9\"");  // UTF-8 as it is
  EXPECT_EQ(dot_id("\xff"), "\"\\xff\"");
  EXPECT_EQ(dot_id("\xc3"), "\"\\xc3\"");  // a cut sequence
  EXPECT_EQ(dot_id("\x01"), "\"\\x01\"");
  // Labels that could collide once escaped do not.
  std::set<std::string> ids;
  for (const char* l : {"\xff", "\\xff", "\\\\xff", "\n", "\\n", "\\\n", "\"", "\\\""})
    EXPECT_TRUE(ids.insert(dot_id(l)).second) << l;
}

TEST(DotOutput, NamesChooseIt) {
  for (const char* p : {"c.dot", "C.DOT", "d/c.gv", "c.dot.gz", "c.Gv.GZ"}) {
    const OutputSpec s = output_spec(p, std::nullopt);
    EXPECT_TRUE(s.dot) << p;
    EXPECT_EQ(s.gzip, std::string(p).ends_with("z") || std::string(p).ends_with("Z")) << p;
    EXPECT_EQ(output_spec_name(s), "dot");
  }
  EXPECT_FALSE(output_spec("c.dot.txt", std::nullopt).dot);
  EXPECT_FALSE(output_spec("-", std::nullopt).dot);
  EXPECT_FALSE(names_dot_output("-"));
  EXPECT_FALSE(names_dot_output(""));
  // --output-format still writes a data format under the name, as before.
  EXPECT_FALSE(output_spec("c.dot", OutputFormat::kEdges).dot);
  EXPECT_THROW(output_spec("c.graphml", std::nullopt), UsageError);
}

std::string slurp(const fs::path& p) {
  std::ifstream in(p, std::ios::binary);
  return std::string(std::istreambuf_iterator<char>(in), {});
}

TEST(DotOutput, ClosureDrawingHasItsExactSize) {
  const fs::path dir =
      fs::temp_directory_path() / ("closure-test-dot-" + std::to_string(::getpid()));
  fs::create_directories(dir);
  // A cycle, a tail, an isolated vertex, labels to escape.
  const Graph g(6, {{0, 1}, {1, 2}, {2, 0}, {2, 3}, {4, 4}},
                {"a", "b \"q\"", "c\\", "d\xff", "loop", "alone"});
  const Closure c = compute_closure(g, {});
  for (bool reflexive : {false, true}) {
    const fs::path out = dir / "c.dot";
    const OutputSpec spec = output_spec(out.string(), std::nullopt);
    const uint64_t written = write_closure(out.string(), g, c, spec, reflexive);
    EXPECT_EQ(written, fs::file_size(out));
    EXPECT_EQ(output_bytes(g, c, spec, reflexive), fs::file_size(out)) << reflexive;
    EXPECT_LE(output_bytes_lower_bound(g, c, spec, reflexive), fs::file_size(out));
    const std::string text = slurp(out);
    EXPECT_TRUE(text.starts_with("digraph closure {\n")) << text;
    EXPECT_NE(text.find("  \"alone\";\n"), std::string::npos) << text;
    EXPECT_NE(text.find("  \"a\" -> \"d\\xff\";\n"), std::string::npos) << text;
    EXPECT_NE(text.find("  \"c\\\\\" -> \"b \\\"q\\\"\";\n"), std::string::npos) << text;
    EXPECT_EQ(text.find("\"alone\" -> \"alone\"") != std::string::npos, reflexive);
    EXPECT_EQ(text.find("\"d\\xff\" -> \"d\\xff\"") != std::string::npos, reflexive);
  }
  fs::remove_all(dir);
}

TEST(DotOutput, ReductionAndCondensationDrawings) {
  // 0..7 one cycle, 8 -> 0, 0 -> 9 -> 10 and 0 -> 10 (reduced away in the condensation).
  std::vector<Edge> edges;
  for (vertex_t v = 0; v < 8; ++v) edges.emplace_back(v, (v + 1) % 8);
  edges.insert(edges.end(), {{8, 0}, {0, 9}, {9, 10}, {0, 10}});
  std::vector<std::string> labels;
  for (int v = 0; v < 11; ++v) labels.push_back(std::string(1, 'v') + std::to_string(v));
  const Graph g(11, edges, labels);
  CondensationCounts counts;
  const std::string k = dot_of_condensation(g, &counts);
  EXPECT_EQ(counts.components, 4u);
  EXPECT_EQ(counts.edges, 3u);
  EXPECT_TRUE(k.starts_with("digraph condensation {\n")) << k;
  EXPECT_NE(k.find("\"v0\" [shape=box, label=\"v0\\nv1\\nv2\\nv3\\nv4\\n+3 more\"];"),
            std::string::npos)
      << k;
  EXPECT_NE(k.find("  \"v8\";\n"), std::string::npos) << k;
  EXPECT_NE(k.find("  \"v8\" -> \"v0\";\n"), std::string::npos) << k;
  EXPECT_NE(k.find("  \"v0\" -> \"v9\";\n"), std::string::npos) << k;
  EXPECT_EQ(k.find("  \"v0\" -> \"v10\";\n"), std::string::npos) << k;  // reduced
  const auto reduced = reach::transitive_reduction(g);
  StringSink sink;
  write_pairs(sink, g, EdgeRows(g.vertex_count(), reduced, "reduction"), OutputSpec{.dot = true});
  const std::string& r = sink.text;
  EXPECT_TRUE(r.starts_with("digraph reduction {\n"));
  size_t arrows = 0;
  for (size_t at = 0; (at = r.find(" -> ", at)) != std::string::npos; ++at) ++arrows;
  EXPECT_EQ(arrows, reduced.size());
}

TEST(DotOutput, ReadsBackAsTheSameGraph) {
  // Through closure's DOT reader (which reads "\\" as Graphviz does): the same vertices in
  // the same order and the same pairs; labels without \ exactly, "x\" as Graphviz names it.
  const Graph g(4, {{0, 1}, {1, 2}, {3, 0}}, {"a \"q\"", "x\\", "strict", "-1.5"});
  const Closure c = compute_closure(g, {});
  const fs::path dir =
      fs::temp_directory_path() / ("closure-test-dot-back-" + std::to_string(::getpid()));
  fs::create_directories(dir);
  const fs::path out = dir / "c.dot";
  write_closure(out.string(), g, c, output_spec(out.string(), std::nullopt), false);
  const ReadResult back = read_graph(out.string());
  EXPECT_EQ(back.format, InputFormat::kDot);
  ASSERT_EQ(back.graph.vertex_count(), 4u);
  EXPECT_EQ(back.graph.label(0), "a \"q\"");
  EXPECT_EQ(back.graph.label(1), "x\\\\");
  EXPECT_EQ(back.graph.label(2), "strict");
  EXPECT_EQ(back.graph.label(3), "-1.5");
  EXPECT_EQ(back.graph.edge_count(), c.pair_count(false));
  fs::remove_all(dir);
}

}  // namespace
}  // namespace closure
