// Graph input: every format's parse (n, m, labels), gzip, detection, every InputError case
// with its file and line, the GRAIL benchmark files and the data/ examples' known closures.
#include <gtest/gtest.h>
#include <zlib.h>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <random>
#include <sstream>
#include <string>
#include <vector>

#include "closure/errors.hpp"
#include "closure/executor.hpp"
#include "closure/graph/read_graph.hpp"
#include "graph_test_files.hpp"
#include "test_support.hpp"

namespace closure {
namespace {

namespace fs = std::filesystem;

using namespace closure::testing;

// ---------------------------------------------------------------- names and detection

TEST(GraphIoFormat, NamesRoundTrip) {
  for (InputFormat f : {InputFormat::kAuto, InputFormat::kEdgeList, InputFormat::kGra,
                        InputFormat::kDimacs, InputFormat::kMatrixMarket, InputFormat::kDot})
    EXPECT_EQ(parse_input_format(format_name(f)), f);
  EXPECT_EQ(format_name(InputFormat::kEdgeList), "edges");
  EXPECT_EQ(format_name(InputFormat::kMatrixMarket), "mtx");
  EXPECT_EQ(parse_input_format("MTX"), InputFormat::kMatrixMarket);
  EXPECT_EQ(parse_input_format("graphviz"), InputFormat::kDot);
  EXPECT_EQ(parse_input_format("snap"), InputFormat::kEdgeList);
}

TEST(GraphIoFormat, UnknownNameListsTheValidOnes) {
  try {
    parse_input_format("graphml");
    FAIL() << "no exception";
  } catch (const UsageError& e) {
    const std::string what = e.what();
    EXPECT_NE(what.find("'graphml'"), std::string::npos) << what;
    for (const char* name : {"auto", "edges", "gra", "dimacs", "mtx", "dot", "csv", "tsv"})
      EXPECT_NE(what.find(name), std::string::npos) << what;
  }
}

TEST(GraphIoDetect, ByExtensionAlsoUnderGz) {
  EXPECT_EQ(detect_format("a/b.gra", ""), InputFormat::kGra);
  EXPECT_EQ(detect_format("b.gra.gz", ""), InputFormat::kGra);
  EXPECT_EQ(detect_format("B.MTX", ""), InputFormat::kMatrixMarket);
  EXPECT_EQ(detect_format("x.mtx.gz", ""), InputFormat::kMatrixMarket);
  EXPECT_EQ(detect_format("x.dot", ""), InputFormat::kDot);
  EXPECT_EQ(detect_format("x.gv", ""), InputFormat::kDot);
  EXPECT_EQ(detect_format("x.dimacs", ""), InputFormat::kDimacs);
  EXPECT_EQ(detect_format("USA-road-d.NY.gr.gz", ""), InputFormat::kDimacs);
  EXPECT_EQ(detect_format("x.txt", "1 2\n"), InputFormat::kEdgeList);
  EXPECT_EQ(detect_format("dir.gra/x", "1 2\n"), InputFormat::kEdgeList);
}

TEST(GraphIoDetect, ByContent) {
  EXPECT_EQ(detect_format("x.txt", "%%MatrixMarket matrix coordinate pattern general\n"),
            InputFormat::kMatrixMarket);
  EXPECT_EQ(detect_format("-", "graph_for_greach\n3\n"), InputFormat::kGra);
  EXPECT_EQ(detect_format("x", "digraph {\n a -> b }"), InputFormat::kDot);
  EXPECT_EQ(detect_format("x", "/* c */\n// d\nstrict DiGraph \"my g\" {"), InputFormat::kDot);
  EXPECT_EQ(detect_format("x", "# comment\ngraph G {"), InputFormat::kDot);
  EXPECT_EQ(detect_format("x", "c hello\nc\np sp 3 2\na 1 2\n"), InputFormat::kDimacs);
  // Edge lists whose first names look like keywords stay edge lists.
  EXPECT_EQ(detect_format("x", "graph x\nx y\n"), InputFormat::kEdgeList);
  EXPECT_EQ(detect_format("x", "c d\np q\n"), InputFormat::kEdgeList);
  EXPECT_EQ(detect_format("x", "% konect\n1 2\n"), InputFormat::kEdgeList);
  EXPECT_EQ(detect_format("x", ""), InputFormat::kEdgeList);
}

TEST(GraphIoDetect, AutoReadsEachFormat) {
  EXPECT_EQ(read_graph_from_string("graph_for_greach\n1\n0: #\n", InputFormat::kAuto).format,
            InputFormat::kGra);
  EXPECT_EQ(read_graph_from_string("p sp 2 1\na 1 2\n", InputFormat::kAuto).format,
            InputFormat::kDimacs);
  EXPECT_EQ(read_graph_from_string("digraph{a->b}", InputFormat::kAuto).format, InputFormat::kDot);
  EXPECT_EQ(read_graph_from_string("1 2\n", InputFormat::kAuto, "g.mtx.txt").format,
            InputFormat::kEdgeList);
  // An explicit format is taken at its word, not second-guessed from the content.
  EXPECT_THROW(read_graph_from_string("2 2 1\n1 2\n", InputFormat::kMatrixMarket, "x"), InputError);
}

// ---------------------------------------------------------------- edge lists

TEST(GraphIoEdgeList, IntegerLabelsInFirstAppearanceOrder) {
  auto r = read_graph_from_string(
      // (This line once read "10 20 0.75 extra": extra columns are now refused unless
      // every line has them and they are numbers; see GraphIoEdgeListShape.)
      "# SNAP style\n% konect style\n\n  30\t10  \r\n10 20\n20 30\n30 10\n",
      InputFormat::kEdgeList);
  EXPECT_EQ(r.format, InputFormat::kEdgeList);
  EXPECT_EQ(labels_of(r.graph), (Strings{"30", "10", "20"}));
  EXPECT_EQ(r.graph.edge_count(), 3u) << "the duplicate 30 -> 10 collapses";
  EXPECT_EQ(r.edge_records, 4u);
  EXPECT_EQ(labelled_edges(r.graph), (Strings{"10 20", "20 30", "30 10"}));
}

TEST(GraphIoEdgeList, HugeSparseIdsDoNotSizeAnything) {
  auto r = read_graph_from_string("4000000000 7\n18446744073709551615 4000000000\n",
                                  InputFormat::kEdgeList);
  EXPECT_EQ(r.graph.vertex_count(), 3u);
  EXPECT_EQ(labels_of(r.graph), (Strings{"4000000000", "7", "18446744073709551615"}));
  EXPECT_EQ(labelled_edges(r.graph), (Strings{"18446744073709551615 4000000000", "4000000000 7"}));
}

TEST(GraphIoEdgeList, NameLabels) {
  auto r = read_graph_from_string("alice bob\nbob carol\ncarol alice\n", InputFormat::kEdgeList);
  EXPECT_EQ(labels_of(r.graph), (Strings{"alice", "bob", "carol"}));
  EXPECT_EQ(labelled_edges(r.graph), (Strings{"alice bob", "bob carol", "carol alice"}));
}

TEST(GraphIoEdgeList, OneNameMakesEveryLabelAName) {
  // Numbers first, then a name: the earlier numeric labels keep their ids and text.
  auto r = read_graph_from_string("1 2\n2 x\n007 7\n7 2\n", InputFormat::kEdgeList);
  EXPECT_EQ(labels_of(r.graph), (Strings{"1", "2", "x", "007", "7"}));
  EXPECT_EQ(r.graph.edge_count(), 4u);
  EXPECT_EQ(labelled_edges(r.graph), (Strings{"007 7", "1 2", "2 x", "7 2"}));
}

TEST(GraphIoEdgeList, LeadingZerosAreDistinctNames) {
  auto r = read_graph_from_string("007 7\n7 007\n", InputFormat::kEdgeList);
  EXPECT_EQ(labels_of(r.graph), (Strings{"007", "7"}));
  EXPECT_EQ(r.graph.edge_count(), 2u);
}

TEST(GraphIoEdgeList, NumberTooLargeForU64IsAName) {
  auto r = read_graph_from_string("1 99999999999999999999\n", InputFormat::kEdgeList);
  EXPECT_EQ(labels_of(r.graph), (Strings{"1", "99999999999999999999"}));
}

TEST(GraphIoEdgeList, SelfLoopAndNoFinalNewline) {
  auto r = read_graph_from_string("5 5\n5 6", InputFormat::kEdgeList);
  EXPECT_EQ(labelled_edges(r.graph), (Strings{"5 5", "5 6"}));
  EXPECT_TRUE(r.graph.has_self_loop());
}

TEST(GraphIoEdgeList, ManyVerticesThroughAFileMatchMemory) {
  // Over a megabyte, so lines straddle the reader's buffer refills.
  std::string text;
  for (uint64_t i = 0; i < 150000; ++i)
    text += std::to_string(i * 2654435761u % 100003) + " " +
            std::to_string(i % 977 + 5000000000ull) + "\n";
  TempDir dir;
  auto from_file = read_graph(dir.write("big.txt", text));
  auto from_gz = read_graph(dir.write_gz("big.txt.gz", text));
  auto from_mem = read_graph_from_string(text, InputFormat::kEdgeList);
  EXPECT_EQ(from_file.graph.vertex_count(), from_mem.graph.vertex_count());
  EXPECT_EQ(from_file.graph.edges(), from_mem.graph.edges());
  EXPECT_EQ(from_file.graph.labels(), from_mem.graph.labels());
  EXPECT_EQ(from_gz.graph.edges(), from_mem.graph.edges());
  EXPECT_EQ(from_mem.edge_records, 150000u);
  EXPECT_EQ(from_mem.graph.vertex_count(), 100003u + 977u);
}

// ---------------------------------------------------------------- .gra

TEST(GraphIoGra, DeclaredVerticesExistEvenWhenIsolated) {
  auto r = read_graph_from_string("graph_for_greach\n5\n0: 1 2 #\n1: 2 2 #\n2: #\n3: #\n4: 4 #\n",
                                  InputFormat::kGra);
  EXPECT_EQ(r.format, InputFormat::kGra);
  EXPECT_EQ(r.graph.vertex_count(), 5u);
  EXPECT_EQ(r.graph.edge_count(), 4u);
  EXPECT_EQ(r.edge_records, 5u);
  EXPECT_EQ(labels_of(r.graph), (Strings{"0", "1", "2", "3", "4"}));
  EXPECT_EQ(labelled_edges(r.graph), (Strings{"0 1", "0 2", "1 2", "4 4"}));
}

TEST(GraphIoGra, VertexLinesInAnyOrderWithCrlf) {
  auto r = read_graph_from_string("graph_for_greach\r\n3\r\n2: 0 #\r\n0:1 #\r\n1 : #\r\n\r\n",
                                  InputFormat::kGra);
  EXPECT_EQ(labelled_edges(r.graph), (Strings{"0 1", "2 0"}));
}

TEST(GraphIoGra, LineLongerThanTheReadBuffer) {
  const size_t n = 300000;  // about 2 MB on one line
  std::string text = "graph_for_greach\n" + std::to_string(n) + "\n0:";
  for (size_t v = 1; v < n; ++v) (text += ' ') += std::to_string(v);
  text += " #\n";
  for (size_t v = 1; v < n; ++v) text += std::to_string(v) + ": #\n";
  TempDir dir;
  auto r = read_graph(dir.write("star.gra", text));
  EXPECT_EQ(r.graph.vertex_count(), n);
  EXPECT_EQ(r.graph.edge_count(), n - 1);
  EXPECT_EQ(r.graph.successors(0).back(), n - 1);
}

// ---------------------------------------------------------------- DIMACS

TEST(GraphIoDimacs, OneBasedWithWeightsAndIsolatedVertices) {
  auto r = read_graph_from_string(
      "c comment\nc\np sp 5 4\nc between\na 1 2 7\na 2 3 -1\na 2 3 4\n\na 3 1 0\n",
      InputFormat::kDimacs);
  EXPECT_EQ(r.format, InputFormat::kDimacs);
  EXPECT_EQ(r.graph.vertex_count(), 5u);
  EXPECT_EQ(labels_of(r.graph), (Strings{"1", "2", "3", "4", "5"}));
  EXPECT_EQ(r.graph.edge_count(), 3u);
  EXPECT_EQ(r.edge_records, 4u);
  EXPECT_EQ(labelled_edges(r.graph), (Strings{"1 2", "2 3", "3 1"}));
}

TEST(GraphIoDimacs, EdgeLinesAreUndirected) {
  auto r = read_graph_from_string("p edge 3 2\ne 1 2\ne 3 3\n", InputFormat::kDimacs);
  EXPECT_EQ(labelled_edges(r.graph), (Strings{"1 2", "2 1", "3 3"}));
}

TEST(GraphIoDimacs, MaxFlowNodeLinesAreIgnored) {
  auto r = read_graph_from_string("p max 2 1\nn 1 s\nn 2 t\na 1 2 5\n", InputFormat::kDimacs);
  EXPECT_EQ(labelled_edges(r.graph), (Strings{"1 2"}));
}

// ---------------------------------------------------------------- Matrix Market

TEST(GraphIoMatrixMarket, GeneralInteger) {
  auto r = read_graph_from_string(
      "%%MatrixMarket matrix coordinate integer general\n% c\n%\n4 4 3\n1 2 5\n2 3 0\n3 3 1\n",
      InputFormat::kMatrixMarket);
  EXPECT_EQ(r.format, InputFormat::kMatrixMarket);
  EXPECT_EQ(r.graph.vertex_count(), 4u);
  EXPECT_EQ(labels_of(r.graph), (Strings{"1", "2", "3", "4"}));
  EXPECT_EQ(labelled_edges(r.graph), (Strings{"1 2", "2 3", "3 3"}));
  EXPECT_EQ(r.edge_records, 3u);
}

TEST(GraphIoMatrixMarket, SymmetricPatternAddsTheMirror) {
  auto r = read_graph_from_string(
      "%%MatrixMarket MATRIX Coordinate Pattern Symmetric\n3 3 3\n2 1\n3 2\n3 3\n",
      InputFormat::kMatrixMarket);
  EXPECT_EQ(labelled_edges(r.graph), (Strings{"1 2", "2 1", "2 3", "3 2", "3 3"}));
  EXPECT_EQ(r.edge_records, 3u);
}

TEST(GraphIoMatrixMarket, RealAndComplexValuesAreIgnored) {
  auto r =
      read_graph_from_string("%%MatrixMarket matrix coordinate real general\n2 2 1\n1 2 -0.5e3\n",
                             InputFormat::kMatrixMarket);
  EXPECT_EQ(labelled_edges(r.graph), (Strings{"1 2"}));
  r = read_graph_from_string(
      "%%MatrixMarket matrix coordinate complex hermitian\n2 2 1\n2 1 1.0 -2.0\n",
      InputFormat::kMatrixMarket);
  EXPECT_EQ(labelled_edges(r.graph), (Strings{"1 2", "2 1"}));
}

// ---------------------------------------------------------------- DOT

TEST(GraphIoDot, ChainsQuotedIdsAttributesAndNodeStatements) {
  auto r = read_graph_from_string(R"(/* header */
digraph "G 1" {
  graph [rankdir=LR]; node [shape=box, color="red"]
  edge [style=dashed];
  label = "not a vertex";
  a -> b -> c [weight=2; color=blue] [penwidth=3];
  "quoted x" -> y;
  "say \"hi\"" -> a;
  z  // a lone node
  # preprocessor line
  b:port1:n -> <html <b>id</b>>;
  -1.5 -> .5
  "con" + "cat" -> a
}
)",
                                  InputFormat::kDot);
  EXPECT_EQ(r.format, InputFormat::kDot);
  EXPECT_EQ(labels_of(r.graph), (Strings{"a", "b", "c", "quoted x", "y", "say \"hi\"", "z",
                                         "html <b>id</b>", "-1.5", ".5", "concat"}));
  EXPECT_EQ(labelled_edges(r.graph), (Strings{"-1.5 .5", "a b", "b c", "b html <b>id</b>",
                                              "concat a", "quoted x y", "say \"hi\" a"}));
  EXPECT_EQ(r.edge_records, 7u);
}

TEST(GraphIoDot, SubgraphOperands) {
  auto r = read_graph_from_string(
      "strict digraph { a -> {b c}; subgraph s { d; e -> f } -> g; {x y} -> {x} }",
      InputFormat::kDot);
  EXPECT_EQ(labels_of(r.graph), (Strings{"a", "b", "c", "d", "e", "f", "g", "x", "y"}));
  EXPECT_EQ(labelled_edges(r.graph),
            (Strings{"a b", "a c", "d g", "e f", "e g", "f g", "x x", "y x"}));
}

TEST(GraphIoDot, UndirectedGraphAddsBothDirections) {
  auto r = read_graph_from_string("GRAPH g { a -- b -- c; c -- c; }", InputFormat::kDot);
  EXPECT_EQ(labelled_edges(r.graph), (Strings{"a b", "b a", "b c", "c b", "c c"}));
  EXPECT_EQ(r.edge_records, 3u);
}

TEST(GraphIoDot, EmptyGraphHasNoVertices) {
  auto r = read_graph_from_string("digraph empty {}", InputFormat::kDot);
  EXPECT_EQ(r.graph.vertex_count(), 0u);
}

// ---------------------------------------------------------------- gzip and files

TEST(GraphIoGzip, EveryFormatReadsCompressed) {
  TempDir dir;
  auto gra = read_graph(dir.write_gz("g.gra.gz", "graph_for_greach\n3\n0: 1 #\n1: 2 #\n2: #\n"));
  EXPECT_EQ(gra.format, InputFormat::kGra);
  EXPECT_EQ(labelled_edges(gra.graph), (Strings{"0 1", "1 2"}));
  auto edges = read_graph(dir.write_gz("e.gz", "# c\nx y\ny z\n"));
  EXPECT_EQ(edges.format, InputFormat::kEdgeList);
  EXPECT_EQ(labelled_edges(edges.graph), (Strings{"x y", "y z"}));
  auto mtx = read_graph(
      dir.write_gz("m.mtx.gz", "%%MatrixMarket matrix coordinate pattern general\n2 2 1\n2 1\n"));
  EXPECT_EQ(labelled_edges(mtx.graph), (Strings{"2 1"}));
  auto dimacs = read_graph(dir.write_gz("d.gz", "p sp 2 1\na 2 1\n"));
  EXPECT_EQ(dimacs.format, InputFormat::kDimacs);
  auto dot = read_graph(dir.write_gz("d.dot.gz", "digraph { p -> q }"));
  EXPECT_EQ(labelled_edges(dot.graph), (Strings{"p q"}));
}

TEST(GraphIoGzip, ExplicitFormatOverridesTheExtension) {
  TempDir dir;
  auto r = read_graph(dir.write("g.gra", "1 2\n"), InputFormat::kEdgeList);
  EXPECT_EQ(r.format, InputFormat::kEdgeList);
  EXPECT_EQ(r.graph.edge_count(), 1u);
}

// ---------------------------------------------------------------- errors

struct BadInput {
  const char* name;  // also the file name in the message
  InputFormat format;
  const char* text;
  size_t line;
  const char* expect;  // a piece of the message
};

const BadInput kBadInputs[] = {
    // edge lists
    {"missing_column.txt", InputFormat::kEdgeList, "1 2\n# c\n3\n", 3, "expected two columns"},
    {"only_comments.txt", InputFormat::kEdgeList, "# a\n% b\n\n", 0, "no edges"},
    {"empty.txt", InputFormat::kEdgeList, "", 0, "empty file"},
    {"blank.txt", InputFormat::kAuto, " \n\t\n\n", 0, "empty file"},
    {"nul.txt", InputFormat::kEdgeList, std::string_view("1 2\n2 3\n3\0 4\n", 12).data(), 3,
     "binary data (byte 0x00 in column 2)"},
    {"ctrl.txt", InputFormat::kAuto, "1 2\n\x01\x02\x03\n", 2, "binary data (byte 0x01"},
    // .gra
    {"header.gra", InputFormat::kGra, "graph_for_grail\n1\n0: #\n", 1, "graph_for_greach"},
    {"count.gra", InputFormat::kGra, "graph_for_greach\nten\n", 2, "vertex count"},
    {"nocount.gra", InputFormat::kGra, "graph_for_greach\n", 2, "vertex count"},
    {"too_few.gra", InputFormat::kGra, "graph_for_greach\n3\n0: 1 #\n1: #\n", 2,
     "declares 3 vertices but the file lists 2"},
    {"too_many.gra", InputFormat::kGra, "graph_for_greach\n2\n0: 1 #\n1: #\n2: #\n", 5,
     "vertex id 2 is beyond the declared vertex count 2"},
    {"succ_range.gra", InputFormat::kGra, "graph_for_greach\n2\n0: 1 #\n1: 2 #\n", 4,
     "successor 2 is beyond the declared vertex count 2"},
    {"nonnumeric.gra", InputFormat::kGra, "graph_for_greach\n2\n0: 1 #\n1: a #\n", 4,
     "expected a successor (an integer 0..1), found 'a'"},
    {"nocolon.gra", InputFormat::kGra, "graph_for_greach\n2\n0: 1 #\n1 #\n", 4, "no ':'"},
    {"nohash.gra", InputFormat::kGra, "graph_for_greach\n2\n0: 1\n1: #\n", 3, "closing '#'"},
    {"after_hash.gra", InputFormat::kGra, "graph_for_greach\n2\n0: # 1\n1: #\n", 3,
     "after the closing '#'"},
    {"twice.gra", InputFormat::kGra, "graph_for_greach\n2\n0: #\n0: #\n", 4, "listed twice"},
    {"huge.gra", InputFormat::kGra, "graph_for_greach\n4000000000\n", 2,
     "exceeds the supported maximum"},
    // DIMACS
    {"no_p.dimacs", InputFormat::kDimacs, "c x\na 1 2\n", 2, "before the 'p"},
    {"missing_p.dimacs", InputFormat::kDimacs, "c x\n", 0, "missing the 'p"},
    {"short_p.dimacs", InputFormat::kDimacs, "p sp 3\n", 1, "expected 'p <problem>"},
    {"two_p.dimacs", InputFormat::kDimacs, "p sp 2 0\np sp 2 0\n", 2, "second 'p' line"},
    {"m_differs.dimacs", InputFormat::kDimacs, "c\np sp 3 3\na 1 2\na 2 3\n", 2,
     "declares 3 arcs but the file has 2"},
    {"range.dimacs", InputFormat::kDimacs, "p sp 3 2\na 1 2\na 3 4\n", 3,
     "vertex 4 is outside 1..3"},
    {"zero.dimacs", InputFormat::kDimacs, "p sp 3 1\na 0 1\n", 2, "vertex 0 is outside 1..3"},
    {"alpha.dimacs", InputFormat::kDimacs, "p sp 3 1\na 1 x\n", 2,
     "expected a vertex number 1..3, found 'x'"},
    {"column.dimacs", InputFormat::kDimacs, "p sp 3 1\na 1\n", 2, "expected 'a <source>"},
    {"kind.dimacs", InputFormat::kDimacs, "p sp 3 1\nx 1 2\n", 2, "expected a 'c', 'p', 'a'"},
    {"huge.dimacs", InputFormat::kDimacs, "p sp 4000000000 1\na 1 2\n", 1,
     "exceeds the supported maximum"},
    // Matrix Market
    {"banner.mtx", InputFormat::kMatrixMarket, "3 3 1\n1 2\n", 1, "%%MatrixMarket"},
    {"array.mtx", InputFormat::kMatrixMarket, "%%MatrixMarket matrix array real general\n", 1,
     "only the 'coordinate' format"},
    {"field.mtx", InputFormat::kMatrixMarket,
     "%%MatrixMarket matrix coordinate bool general\n1 1 0\n", 1, "expected the field"},
    {"nonsquare.mtx", InputFormat::kMatrixMarket,
     "%%MatrixMarket matrix coordinate pattern general\n% c\n3 4 1\n1 2\n", 3, "must be square"},
    {"nnz_less.mtx", InputFormat::kMatrixMarket,
     "%%MatrixMarket matrix coordinate pattern general\n3 3 3\n1 2\n2 3\n", 2,
     "declares 3 entries but the file has 2"},
    {"nnz_more.mtx", InputFormat::kMatrixMarket,
     "%%MatrixMarket matrix coordinate pattern general\n3 3 1\n1 2\n2 3\n", 4,
     "more entries than the 1 declared on line 2"},
    {"value.mtx", InputFormat::kMatrixMarket,
     "%%MatrixMarket matrix coordinate real general\n3 3 2\n1 2 1.0\n2 3\n", 4, "value column"},
    {"range.mtx", InputFormat::kMatrixMarket,
     "%%MatrixMarket matrix coordinate pattern general\n3 3 1\n1 9\n", 3,
     "column index 9 is outside 1..3"},
    {"alpha.mtx", InputFormat::kMatrixMarket,
     "%%MatrixMarket matrix coordinate pattern general\n3 3 1\nb 1\n", 3,
     "expected a row index 1..3, found 'b'"},
    {"nosize.mtx", InputFormat::kMatrixMarket,
     "%%MatrixMarket matrix coordinate pattern general\n% only comments\n", 0,
     "missing the size line"},
    {"size.mtx", InputFormat::kMatrixMarket,
     "%%MatrixMarket matrix coordinate pattern general\n3 3\n", 2, "expected the size line"},
    // DOT
    {"keyword.dot", InputFormat::kDot, "\n\nnetwork { a -> b }", 3,
     "expected 'digraph' or 'graph'"},
    {"undirected_op.dot", InputFormat::kDot, "digraph {\n a -> b\n b -- c\n}", 3,
     "'--' is the undirected edge operator"},
    {"directed_op.dot", InputFormat::kDot, "graph {\n a -> b\n}", 2,
     "'->' is the directed edge operator"},
    {"unclosed.dot", InputFormat::kDot, "digraph {\n a -> b\n", 3, "expected '}'"},
    {"string.dot", InputFormat::kDot, "digraph {\n a -> \"b\n\n", 2, "unterminated quoted string"},
    {"comment.dot", InputFormat::kDot, "digraph {\n/* a -> b\n}", 2, "unterminated /* comment"},
    {"dangling.dot", InputFormat::kDot, "digraph {\n a -> ;\n}", 2,
     "expected a node or subgraph after the edge operator, found ';'"},
    {"two.dot", InputFormat::kDot, "digraph {}\ndigraph {}\n", 2, "one graph per file"},
    {"char.dot", InputFormat::kDot, "digraph {\n a -> b ! c\n}", 2, "unexpected character '!'"},
};

TEST(GraphIoErrors, EveryBadInputNamesFileLineAndProblem) {
  for (const BadInput& bad : kBadInputs) {
    SCOPED_TRACE(bad.name);
    std::string_view text = bad.text;
    if (std::string_view(bad.name) == "nul.txt") text = std::string_view(bad.text, 12);
    try {
      read_graph_from_string(text, bad.format, bad.name);
      ADD_FAILURE() << "no InputError for " << bad.name;
    } catch (const InputError& e) {
      const std::string what = e.what();
      EXPECT_EQ(e.file(), bad.name);
      EXPECT_EQ(e.line(), bad.line) << what;
      const std::string prefix =
          std::string(bad.name) + (bad.line ? ":" + std::to_string(bad.line) : "") + ": ";
      EXPECT_EQ(what.rfind(prefix, 0), 0u) << what;
      EXPECT_NE(e.message().find(bad.expect), std::string::npos) << what;
    }
  }
}

TEST(GraphIoErrors, MissingFileAndDirectory) {
  TempDir dir;
  const std::string missing = dir.path("nope.txt");
  try {
    read_graph(missing);
    FAIL();
  } catch (const InputError& e) {
    EXPECT_EQ(e.file(), missing);
    EXPECT_EQ(e.line(), 0u);
    EXPECT_EQ(std::string(e.what()), missing + ": cannot open: No such file or directory");
  }
  try {
    read_graph(dir.path(""));
    FAIL();
  } catch (const InputError& e) {
    EXPECT_NE(std::string(e.what()).find("is a directory"), std::string::npos) << e.what();
  }
}

TEST(GraphIoErrors, UnreadableFile) {
  if (::geteuid() == 0) GTEST_SKIP() << "root reads any file";
  TempDir dir;
  const std::string path = dir.write("secret.txt", "1 2\n");
  fs::permissions(path, fs::perms::none);
  try {
    read_graph(path);
    FAIL();
  } catch (const InputError& e) {
    EXPECT_EQ(std::string(e.what()), path + ": cannot open: Permission denied");
  }
}

TEST(GraphIoErrors, EmptyFileOnDisk) {
  TempDir dir;
  const std::string path = dir.write("empty.gra", "");
  try {
    read_graph(path);
    FAIL();
  } catch (const InputError& e) {
    EXPECT_EQ(std::string(e.what()), path + ": empty file: expected a graph");
  }
}

TEST(GraphIoErrors, BinaryFileOnDisk) {
  TempDir dir;
  std::string junk = "1 2\n";
  for (int i = 0; i < 4096; ++i) junk.push_back(static_cast<char>((i * 7919) & 0xff));
  const std::string path = dir.write("junk.bin", junk);
  try {
    read_graph(path);
    FAIL();
  } catch (const InputError& e) {
    EXPECT_EQ(e.line(), 2u) << e.what();
    EXPECT_NE(e.message().find("binary data"), std::string::npos) << e.what();
  }
}

TEST(GraphIoErrors, BinaryByteAfterSeveralStreamedBlocksNamesItsLineInTheWholeInput) {
  // A gzip file (or a pipe) is read in blocks of whole lines, which the edge-list reader
  // numbers itself; the binary byte found in a later read is on the line counted from the
  // input's start (it had been counted from the start of the unread bytes: 805,697 here).
  TempDir dir;
  std::string text;
  for (size_t i = 0; i < 5'000'000; ++i) text += "1 2\n";
  text += "1 \x01\n";
  try {
    read_graph(dir.write_gz("late.txt.gz", text));
    FAIL();
  } catch (const InputError& e) {
    EXPECT_EQ(e.line(), 5'000'001u) << e.what();
    EXPECT_NE(e.message().find("binary data (byte 0x01 in column 3)"), std::string::npos)
        << e.what();
  }
}

TEST(GraphIoErrors, BinaryByteDeepInALargeFileIsFoundByTheParallelScan) {
  // Over 32 MB, the mapped file is scanned for binary bytes by all threads: the first bad
  // byte is still the one reported, with its line and column, and a clean file still reads.
  set_thread_budget(4);
  TempDir dir;
  std::string text;
  text.reserve(size_t{36} << 20);
  while (text.size() < (size_t{36} << 20)) text += "100 200\n";
  const size_t lines = text.size() / 8;
  EXPECT_EQ(read_graph(dir.write("clean.txt", text)).graph.vertex_count(), 2u);
  // Two bad bytes: line lines - 10 (column 3), and a later one in another 4 MB piece.
  text[(lines - 11) * 8 + 2] = '\x01';
  text[(lines - 1) * 8 + 1] = '\0';
  text[8 * 1000003 + 5] = 'x';  // a letter is not binary: names are allowed
  try {
    read_graph(dir.write("late.txt", text));
    FAIL();
  } catch (const InputError& e) {
    EXPECT_EQ(e.line(), lines - 10) << e.what();
    EXPECT_NE(e.message().find("byte 0x01 in column 3"), std::string::npos) << e.what();
  }
  set_thread_budget(0);
}

TEST(GraphIoErrors, BadGzipStreams) {
  TempDir dir;
  std::string text;
  for (int i = 0; i < 20000; ++i) text += std::to_string(i) + " " + std::to_string(i + 1) + "\n";
  const std::string good = slurp(dir.write_gz("good.gz", text));
  ASSERT_GT(good.size(), 200u);
  // Cut short: zlib only notices at the end of the data.
  const std::string cut = dir.write("cut.txt.gz", good.substr(0, good.size() / 2));
  try {
    read_graph(cut);
    FAIL();
  } catch (const InputError& e) {
    EXPECT_EQ(e.file(), cut);
    EXPECT_EQ(e.line(), 0u);
    EXPECT_NE(e.message().find("truncated gzip data"), std::string::npos) << e.what();
  }
  // Damaged in the middle of the deflate stream.
  std::string damaged = good;
  for (size_t i = 40; i < 140; ++i) damaged[i] = static_cast<char>(damaged[i] ^ 0x5a);
  const std::string bad = dir.write("bad.txt.gz", damaged);
  try {
    read_graph(bad);
    FAIL();
  } catch (const InputError& e) {
    EXPECT_EQ(e.file(), bad);
    EXPECT_NE(e.message().find("gzip"), std::string::npos) << e.what();
  }
  // A corrupt CRC trailer.
  std::string crc = good;
  crc[crc.size() - 6] = static_cast<char>(crc[crc.size() - 6] ^ 1);
  try {
    read_graph(dir.write("crc.txt.gz", crc));
    FAIL();
  } catch (const InputError& e) {
    EXPECT_NE(e.message().find("gzip"), std::string::npos) << e.what();
  }
}

TEST(GraphIoErrors, WhatIsFileColonLineColonMessage) {
  InputError with_line("g.txt", 7, "bad");
  EXPECT_STREQ(with_line.what(), "g.txt:7: bad");
  InputError whole_file("g.txt", 0, "bad");
  EXPECT_STREQ(whole_file.what(), "g.txt: bad");
  EXPECT_EQ(whole_file.message(), "bad");
}

TEST(GraphIoErrors, MutatedInputsParseOrThrowInputErrorOnly) {
  // Whatever the damage, the readers answer with a graph or an InputError: never another
  // exception (Graph's own checks included), never a crash.
  std::vector<std::string> seeds;
  for (const char* f :
       {"diamond.txt", "names.txt", "dag.gra", "loops.dimacs", "ring.mtx", "deps.dot"})
    seeds.push_back(slurp((fs::path(CLOSURE_SOURCE_DIR) / "data" / f).string()));
  const std::string alphabet = "0123456789 \t\n#%:;{}[]\"<>-=/*+,abcpe\\\r.";
  std::mt19937 rng(7);
  size_t parsed = 0;
  for (int iter = 0; iter < 3000; ++iter) {
    std::string text = seeds[rng() % seeds.size()];
    for (int k = 0, edits = 1 + static_cast<int>(rng() % 4); k < edits; ++k) {
      const size_t pos = text.empty() ? 0 : rng() % text.size();
      const char c = alphabet[rng() % alphabet.size()];
      switch (rng() % 4) {
        case 0:
          text.erase(pos, 1 + rng() % 3);
          break;
        case 1:
          text.insert(pos, 1, c);
          break;
        case 2:
          if (!text.empty()) text[pos] = c;
          break;
        default:
          text.resize(pos);
          break;
      }
    }
    for (InputFormat f : {InputFormat::kAuto, InputFormat::kEdgeList, InputFormat::kGra,
                          InputFormat::kDimacs, InputFormat::kMatrixMarket, InputFormat::kDot}) {
      try {
        read_graph_from_string(text, f, "mutant");
        ++parsed;
      } catch (const InputError& e) {
        EXPECT_EQ(e.file(), "mutant");
      }
    }
  }
  EXPECT_GT(parsed, 0u);
}

// ---------------------------------------------------------------- GRAIL benchmark files

struct GrailFile {
  const char* name;
  size_t n;
  size_t records;  // successor entries as written; the README's m where it lists one
  size_t m;        // distinct edges after duplicates collapse
};

// n and records agree with tests/data/README.md for the six graphs it lists; the rest
// were counted with an independent script.
const GrailFile kGrailFiles[] = {
    {"agrocyc_dag_uniq", 12684, 13657, 13408},
    {"amaze_dag_uniq", 3710, 3947, 3600},
    {"anthra_dag_uniq", 12499, 13327, 13104},
    {"arXiv_sub_6000-1", 6000, 66707, 66707},
    {"ba10k2d", 10000, 19996, 19996},
    {"ba10k5d", 10000, 49975, 49975},
    {"citeseer_sub_10720", 10720, 44258, 44258},
    {"ecoo_dag_uniq", 12620, 13575, 13350},
    {"go_sub_6793", 6793, 13361, 13361},
    {"human_dag_uniq", 38811, 39816, 39576},
    {"kegg_dag_uniq", 3617, 4395, 3908},
    {"mtbrv_dag_uniq", 9602, 10438, 10245},
    {"nasa_dag_uniq", 5605, 6538, 6537},
    {"pubmed_sub_9000-1", 9000, 40028, 40028},
    {"vchocyc_dag_uniq", 9491, 10345, 10143},
    {"xmark_dag_uniq", 6080, 7051, 7025},
    {"yago_sub_6642", 6642, 42392, 42392},
};

TEST(GraphIoGrail, AllSeventeenFilesParse) {
  const fs::path dir = fs::path(CLOSURE_TEST_DATA_DIR) / "grail";
  if (!fs::is_directory(dir)) GTEST_SKIP() << dir << " is not present";
  size_t files = 0;
  for (const auto& entry : fs::directory_iterator(dir))
    if (entry.path().extension() == ".gra") ++files;
  EXPECT_EQ(files, std::size(kGrailFiles));
  for (const GrailFile& f : kGrailFiles) {
    SCOPED_TRACE(f.name);
    auto r = read_graph((dir / (std::string(f.name) + ".gra")).string());
    EXPECT_EQ(r.format, InputFormat::kGra);
    EXPECT_EQ(r.graph.vertex_count(), f.n);
    EXPECT_EQ(r.edge_records, f.records);
    EXPECT_EQ(r.graph.edge_count(), f.m);
    EXPECT_EQ(r.graph.label(static_cast<vertex_t>(f.n - 1)), std::to_string(f.n - 1));
  }
}

// ---------------------------------------------------------------- data/ examples

// Strict closure by breadth-first search, as sorted "u v" lines in the input's labels.
std::string strict_closure_text(const Graph& g) {
  std::vector<std::string> lines;
  const size_t n = g.vertex_count();
  std::vector<uint8_t> seen;
  for (vertex_t s = 0; s < n; ++s) {
    testing::reached_from(g, s, seen);
    for (vertex_t t = 0; t < n; ++t)
      if (seen[t]) lines.push_back(g.label(s) + " " + g.label(t));
  }
  std::sort(lines.begin(), lines.end());
  std::string out;
  for (const auto& l : lines) out += l + "\n";
  return out;
}

TEST(GraphIoExamples, DataFilesMatchTheirKnownClosures) {
  struct Example {
    const char* file;
    InputFormat format;
    size_t n, m, pairs;
  };
  const Example examples[] = {
      {"diamond.txt", InputFormat::kEdgeList, 5, 5, 9},
      {"cycle.txt", InputFormat::kEdgeList, 6, 7, 19},
      {"names.txt", InputFormat::kEdgeList, 6, 6, 18},
      {"dag.gra", InputFormat::kGra, 8, 8, 14},
      {"loops.dimacs", InputFormat::kDimacs, 10, 9, 27},
      {"ring.mtx", InputFormat::kMatrixMarket, 6, 5, 16},
      {"deps.dot", InputFormat::kDot, 6, 6, 9},
  };
  const fs::path data = fs::path(CLOSURE_SOURCE_DIR) / "data";
  for (const Example& ex : examples) {
    SCOPED_TRACE(ex.file);
    auto r = read_graph((data / ex.file).string());
    EXPECT_EQ(r.format, ex.format);
    EXPECT_EQ(r.graph.vertex_count(), ex.n);
    EXPECT_EQ(r.graph.edge_count(), ex.m);
    const std::string expected =
        slurp((data / (fs::path(ex.file).stem().string() + ".closure.txt")).string());
    EXPECT_EQ(std::count(expected.begin(), expected.end(), '\n'),
              static_cast<std::ptrdiff_t>(ex.pairs));
    EXPECT_EQ(strict_closure_text(r.graph), expected);
  }
}

// Graph::from_rows (the networkx conversion's and the condensation's constructor): rows in
// any order with duplicates come out sorted and unique, the same graph as from edges;
// offsets that do not describe the targets and targets beyond n are refused.
TEST(GraphFromRows, SortsAndDeduplicatesLikeTheEdgeListConstructor) {
  const Graph g = Graph::from_rows({0, 3, 3, 6}, {2, 0, 2, 1, 1, 0});
  const Graph want(3, {{0, 2}, {0, 0}, {2, 1}, {2, 0}});
  EXPECT_EQ(g.edges(), want.edges());
  ASSERT_EQ(g.offsets().size(), 4u);
  EXPECT_EQ(g.offsets()[3], 4u);
  EXPECT_EQ(Graph::from_rows({0}, {}).vertex_count(), 0u);
  EXPECT_THROW(Graph::from_rows({}, {}), UsageError);
  EXPECT_THROW(Graph::from_rows({0, 2}, {0}), UsageError);           // past the end
  EXPECT_THROW(Graph::from_rows({1, 1}, {0}), UsageError);           // not from 0
  EXPECT_THROW(Graph::from_rows({0, 2, 1, 2}, {0, 1}), UsageError);  // descends
  EXPECT_THROW(Graph::from_rows({0, 1}, {1}), UsageError);           // beyond n
}

}  // namespace
}  // namespace closure
