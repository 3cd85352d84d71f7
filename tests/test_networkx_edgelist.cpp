// networkx's edge lists: write_edgelist ends each line with the edge's attribute
// dict ("a b {'weight': 1.5}"), which the edge-list reader skips; a malformed dict is an
// InputError at its line, and no hint leads to reading the dict as a vertex.
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "closure/graph/edge_list_chunk.hpp"
#include "closure/graph/read_graph.hpp"
#include "graph_test_files.hpp"

namespace closure {
namespace {

using namespace closure::testing;

InputError error_of(std::string_view text, InputFormat format = InputFormat::kAuto,
                    const std::string& name = "g.edgelist") {
  try {
    read_graph_from_string(text, format, name);
  } catch (const InputError& e) {
    return e;
  }
  ADD_FAILURE() << "no InputError for " << text;
  return InputError(name, 0, "");
}

bool has(const InputError& e, std::string_view what) {
  return std::string(e.what()).find(what) != std::string::npos;
}

Strings edges_of(std::string_view text, const std::string& name = "g.edgelist") {
  const ReadResult r = read_graph_from_string(text, InputFormat::kAuto, name);
  EXPECT_EQ(r.format, InputFormat::kEdgeList) << text;
  return labelled_edges(r.graph);
}

TEST(NetworkxEdgeList, WriteEdgelistDictsAreSkipped) {
  // nx.write_edgelist(G, path) with and without attributes.
  EXPECT_EQ(edges_of("a b {}\nb c {}\n"), (Strings{"a b", "b c"}));
  EXPECT_EQ(edges_of("1 2 {'weight': 1.5}\n2 3 {'weight': 2}\n"), (Strings{"1 2", "2 3"}));
  // Spaces, commas, quotes and braces inside strings, nested dicts and lists.
  EXPECT_EQ(edges_of("x y {'label': 'a } b', \"q\": \"it's {\", 'n': {'k': [1, 2]}}\n"
                     "y z {'label': 'back\\\\slash \\' quote'}\n"),
            (Strings{"x y", "y z"}));
  // Blanks around the dict, CRLF and lone CR line ends.
  EXPECT_EQ(edges_of("a b {'w': 1}  \t\r\nb c\t{}\rc d {}"), (Strings{"a b", "b c", "c d"}));
}

TEST(NetworkxEdgeList, DictsDoNotMakeItCsvWhateverTheName) {
  // Commas inside the dict once made the sniffer call it CSV; .edgelist is an edge list.
  for (const char* name : {"g.edgelist", "g.txt", "-"}) {
    const std::string text = "a b {'weight': 1, 'color': 'red'}\nb c {'weight': 2, 'x': 3}\n";
    EXPECT_EQ(edges_of(text, name), (Strings{"a b", "b c"})) << name;
  }
  EXPECT_EQ(detect_format("g.edgelist", "a,b\n"), InputFormat::kEdgeList);
  EXPECT_EQ(detect_format("g.edgelist.gz", "a,b\n"), InputFormat::kEdgeList);
}

TEST(NetworkxEdgeList, CommaDelimitedDictsAreOneCsvField) {
  // nx.write_edgelist(G, "g.csv", delimiter=","): the dict holds commas and quotes.
  const std::string csv = "a,b,{'weight': 1, 'label': 'x, \"y\"'}\nb,c,{'weight': 2}\nc,d,{}\n";
  const ReadResult r = read_graph_from_string(csv, InputFormat::kAuto, "g.csv");
  EXPECT_EQ(r.format, InputFormat::kCsv);
  EXPECT_EQ(labelled_edges(r.graph), (Strings{"a b", "b c", "c d"}));
  const ReadResult t = read_graph_from_string("a\tb\t{'k': 'v\tw'}\n", InputFormat::kTsv, "g.tsv");
  EXPECT_EQ(labelled_edges(t.graph), (Strings{"a b"}));
  // A '{' label (an index column's target) is still a label; an unclosed one too.
  EXPECT_EQ(labelled_edges(read_graph_from_string(",source,target\n0,a,{b}\n1,a,{c\n",
                                                  InputFormat::kCsv, "i.csv")
                               .graph),
            (Strings{"a {b}", "a {c"}));
}

TEST(NetworkxEdgeList, BracesInLabelsAreLabels) {
  // Only the third field opening with '{' starts a dict. (A file whose first line opens
  // with '{' is refused as JSON, so these start with another label.)
  EXPECT_EQ(edges_of("x {a}\n{a} b}\n{ {}\n"), (Strings{"x {a}", "{ {}", "{a} b}"}));
  EXPECT_EQ(edges_of("x {b} {}\n{a} {b} {'w': 1}\n"), (Strings{"x {b}", "{a} {b}"}));
}

TEST(NetworkxEdgeList, MalformedDictsAreRefusedAtTheirLine) {
  const InputError open = error_of("a b {}\nb c {'w': 1\n");
  EXPECT_EQ(open.line(), 2u) << open.what();
  EXPECT_TRUE(has(open, "unclosed '{'")) << open.what();
  const InputError nested = error_of("a b {'n': {'k': 1}\n");
  EXPECT_TRUE(has(nested, "unclosed")) << nested.what();
  const InputError string = error_of("a b {}\nc d {}\ne f {'w': 'x}\n");
  EXPECT_EQ(string.line(), 3u) << string.what();
  EXPECT_TRUE(has(string, "unterminated string")) << string.what();
  const InputError after = error_of("a b {} 7\n");
  EXPECT_TRUE(has(after, "after the closing")) << after.what();
  // A dict never continues on the next line (repr() escapes line breaks).
  const InputError split = error_of("a b {'w':\r\n 1}\n");
  EXPECT_EQ(split.line(), 1u) << split.what();
  for (const InputError& e : {open, nested, string, after, split})
    EXPECT_FALSE(e.has_advice(Advice::kAdjlistFormat)) << e.what();
}

TEST(NetworkxEdgeList, NoHintReadsAnAttributeAsAVertex) {
  // A dict on some lines only: the adjacency-list reader would make "{}" a vertex.
  const InputError mixed = error_of("a b {}\nb c\n");
  EXPECT_EQ(mixed.line(), 2u) << mixed.what();
  EXPECT_FALSE(mixed.has_advice(Advice::kAdjlistFormat)) << mixed.what();
  const InputError mixed2 = error_of("a b\nb c {}\n");
  EXPECT_FALSE(mixed2.has_advice(Advice::kAdjlistFormat)) << mixed2.what();
  // Attribute-looking fields that are not networkx's dict: no adjacency-list hint either.
  for (const char* text : {"a b w=1\n", "a b }\n", "a b 1 {}\n", "a b 'x'\n"}) {
    const InputError e = error_of(text);
    EXPECT_FALSE(e.has_advice(Advice::kAdjlistFormat)) << e.what();
    EXPECT_TRUE(has(e, "is not a number")) << e.what();
  }
  // A weight such as 0.5 on some lines only: the adjacency-list reader would make it a
  // vertex too.
  for (const char* text : {"1 2\n2 3 0.5\n", "1 2 -1\n2 3\n", "a b 1e3\nb c\n"}) {
    const InputError e = error_of(text);
    EXPECT_EQ(e.line(), 2u) << e.what();
    EXPECT_FALSE(e.has_advice(Advice::kAdjlistFormat)) << e.what();
    EXPECT_TRUE(has(e, "a weight on some lines only")) << e.what();
  }
  // Labels for columns, of one length: the adjacency-list hint stays, and is right.
  const std::string adj = "a b c\nb c d\n";
  EXPECT_TRUE(error_of(adj).has_advice(Advice::kAdjlistFormat));
  EXPECT_EQ(labelled_edges(read_graph_from_string(adj, InputFormat::kAdjList).graph),
            (Strings{"a b", "a c", "b c", "b d"}));
}

TEST(NetworkxEdgeList, LongDictsAndEveryChunkCut) {
  // A dict of 100 kB on a line, and cuts of the text into chunks anywhere: the same graph.
  std::string text;
  for (int i = 0; i < 50; ++i) {
    std::string dict = "{";
    for (int k = 0; k < (i == 7 ? 5000 : 3); ++k)
      dict += "'k" + std::to_string(k) + "': 'v {" + std::to_string(k) + "}', ";
    dict += "'weight': " + std::to_string(i) + ".5}";
    text += std::to_string(i) + " " + std::to_string(i + 1) + " " + dict + "\n";
  }
  const Strings want = labelled_edges(read_graph_from_string(text, InputFormat::kAuto).graph);
  ASSERT_EQ(want.size(), 50u);
  EXPECT_EQ(want.front(), "0 1");
  for (size_t chunk : {size_t{64}, size_t{4096}}) {
    detail::set_edge_list_chunking(chunk, 3);
    EXPECT_EQ(labelled_edges(read_graph_from_string(text, InputFormat::kAuto).graph), want);
  }
  detail::set_edge_list_chunking(0, 0);
}

}  // namespace
}  // namespace closure
