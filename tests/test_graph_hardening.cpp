// Readers under hostile and careless input: nesting, lying headers, crafted labels,
// line endings, formats that are not edge lists, escaped labels, gzip trailers. Each test
// failed before the change it names.
#include <gtest/gtest.h>
#include <unistd.h>
#include <zlib.h>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <random>
#include <sstream>
#include <string>
#include <vector>

#include "app/tool/closure_writer.hpp"
#include "closure/engine/compute.hpp"
#include "closure/graph/edge_list_chunk.hpp"
#include "closure/graph/label_map.hpp"
#include "closure/graph/read_graph.hpp"
#include "graph_test_files.hpp"

namespace closure {
namespace {

namespace fs = std::filesystem;
using namespace closure::testing;

// The InputError `text` raises, or a failure.
InputError error_of(std::string_view text, InputFormat format, const std::string& name = "t") {
  try {
    read_graph_from_string(text, format, name);
  } catch (const InputError& e) {
    return e;
  }
  ADD_FAILURE() << "no InputError for " << name;
  return InputError(name, 0, "");
}

ComputeOptions sparse_options() {
  ComputeOptions o;
  o.method = Method::kSparse;
  return o;
}

bool has(const InputError& e, std::string_view piece) {
  return e.message().find(piece) != std::string::npos;
}

// ------------------------------------------------------------ item 4: DOT nesting

TEST(ReaderHardening, DeeplyNestedDotIsRefusedNotAStackOverflow) {
  for (const std::string open : {"{ ", "subgraph { ", "subgraph s { a -> "}) {
    std::string text = "digraph {\n";
    for (int i = 0; i < 20000; ++i) text += open;
    for (int i = 0; i < 20000; ++i) text += "} ";
    text += "\n}\n";
    const InputError e = error_of(text, InputFormat::kDot, "deep.dot");
    EXPECT_EQ(e.line(), 2u) << e.what();
    EXPECT_TRUE(has(e, "nested more than")) << e.what();
  }
  // Real files nest a few levels; 200 are still read.
  std::string ok = "digraph {\n";
  for (int i = 0; i < 200; ++i) ok += "subgraph { x" + std::to_string(i) + " -> ";
  ok += "end";
  for (int i = 0; i < 200; ++i) ok += " }";
  ok += "\n}\n";
  EXPECT_EQ(read_graph_from_string(ok, InputFormat::kDot).graph.vertex_count(), 201u);
}

// ------------------------------------------------------------ item 14: lying headers

TEST(ReaderHardening, HeaderCountsBeyondTheFileAreRefusedBeforeAllocating) {
  // 2^27 declared vertices in a few bytes: before, each of these allocated gigabytes.
  for (const auto& [text, format] : std::vector<std::pair<std::string, InputFormat>>{
           {"p sp 134217728 1\na 1 2\n", InputFormat::kDimacs},
           {"%%MatrixMarket matrix coordinate pattern general\n134217728 134217728 1\n1 2\n",
            InputFormat::kMatrixMarket},
       }) {
    const InputError e = error_of(text, format, "lie");
    EXPECT_TRUE(has(e, "declares 134217728 vertices")) << e.what();
    EXPECT_GT(e.line(), 0u);
  }
  // A GRAIL count of more vertex lines than the file holds.
  EXPECT_TRUE(has(error_of("graph_for_greach\n134217728\n0: #\n", InputFormat::kGra),
                  "declares 134217728 vertices"));
  // Isolated vertices are still fine within the allowance (2^20 plus one per byte).
  auto r = read_graph_from_string("p sp 1000000 1\na 1 2\n", InputFormat::kDimacs);
  EXPECT_EQ(r.graph.vertex_count(), 1000000u);
  // A huge arc count reserves nothing it cannot fill: it just mismatches.
  EXPECT_TRUE(has(error_of("p sp 3 4000000000000\na 1 2\n", InputFormat::kDimacs),
                  "declares 4000000000000 arcs"));
}

TEST(ReaderHardening, DeclaredCountIsCheckedForStreamedInputToo) {
  TempDir dir;
  const std::string gz = dir.write("lie.dimacs.gz", TempDir::gzip("p sp 134217728 1\na 1 2\n"));
  try {
    read_graph(gz);
    FAIL();
  } catch (const InputError& e) {
    EXPECT_NE(e.message().find("declares 134217728 vertices"), std::string::npos) << e.what();
  }
}

// ------------------------------------------------------------ item 15: crafted labels

uint64_t inverse_mod_2_64(uint64_t c) {
  uint64_t x = c;  // Newton: each step doubles the correct low bits (c odd)
  for (int i = 0; i < 6; ++i) x *= 2 - c * x;
  return x;
}

TEST(ReaderHardening, LabelsCraftedAgainstTheOldHashDoNotCollide) {
  // The old slot was (key * C) >> shift: keys j * C^-1 all mapped to slot j >> shift = 0.
  constexpr uint64_t kOldMultiplier = 0x9E3779B97F4A7C15ull;
  const uint64_t inv = inverse_mod_2_64(kOldMultiplier);
  ASSERT_EQ(inv * kOldMultiplier, 1u);
  constexpr size_t kLabels = 200000;
  detail::LabelMap map;
  for (uint64_t j = 0; j < kLabels; ++j) ASSERT_EQ(map.intern_number(j * inv), j);
  // Linear probing at load <= 1/2 inspects about 1.5 slots a lookup (grows included, about
  // 2 inserts' worth); the old hash needed ~kLabels/2 per insert.
  EXPECT_LT(map.probes(), 4 * kLabels) << "probes per label: " << map.probes() / kLabels;
  // The same through the reader, as text.
  std::string text;
  for (uint64_t j = 0; j + 1 < 20000; ++j)
    text += std::to_string(j * inv) + " " + std::to_string((j + 1) * inv) + "\n";
  EXPECT_EQ(read_graph_from_string(text, InputFormat::kEdgeList).graph.vertex_count(), 20000u);
}

TEST(ReaderHardening, NameLabelsProbeLittleToo) {
  detail::LabelMap map(false);
  for (int j = 0; j < 100000; ++j) map.intern(std::string("v").append(std::to_string(j)));
  EXPECT_LT(map.probes(), 4u * 100000);
}

// ------------------------------------------------------------ item 10: line endings

TEST(ReaderHardening, CrCrlfAndLfAllEndLines) {
  const Strings expect = {"1 2", "2 3", "3 4", "4 5"};
  for (const std::string text :
       {"1 2\r2 3\r3 4\r4 5\r", "1 2\r\n2 3\r3 4\n4 5", "# c\r1 2\r\n\r\n2 3\n\r3 4\r\r4 5\n"}) {
    auto r = read_graph_from_string(text, InputFormat::kAuto);
    EXPECT_EQ(labelled_edges(r.graph), expect) << text;
  }
  // Every format.
  EXPECT_EQ(read_graph_from_string("graph_for_greach\r2\r0: 1 #\r1: #\r", InputFormat::kAuto)
                .graph.edge_count(),
            1u);
  EXPECT_EQ(read_graph_from_string("p sp 2 1\ra 1 2\r", InputFormat::kAuto).graph.edge_count(), 1u);
  EXPECT_EQ(read_graph_from_string("%%MatrixMarket matrix coordinate pattern general\r2 2 1\r1 2\r",
                                   InputFormat::kAuto)
                .graph.edge_count(),
            1u);
  EXPECT_EQ(read_graph_from_string("digraph {\r a -> b\r b -> c }\r", InputFormat::kAuto)
                .graph.edge_count(),
            2u);
  // Lines are numbered across CR line ends.
  const InputError e = error_of("1 2\r2 3\r\n3\r4 5\r", InputFormat::kEdgeList);
  EXPECT_EQ(e.line(), 3u) << e.what();
}

TEST(ReaderHardening, LoneCrAfter64KiBAndMixedEndingsInEveryInputPath) {
  // 70 KB of LF lines, then CR, CRLF and LF mixed: the sniffer sees only LF, and the streamed
  // reader's buffer boundaries fall anywhere (a "\r\n" split between two reads included).
  std::string text;
  Strings expect;
  for (int i = 0; i < 40000; ++i) {
    const std::string u = std::to_string(i), v = std::to_string(i + 1);
    text += u + " " + v;
    text += i < 7000 ? "\n" : i % 3 == 0 ? "\r" : i % 3 == 1 ? "\r\n" : "\n";
    expect.push_back(u + " " + v);
  }
  std::sort(expect.begin(), expect.end());
  TempDir dir;
  const auto from_string = read_graph_from_string(text, InputFormat::kAuto);
  const auto from_file = read_graph(dir.write("mixed.txt", text));
  const auto from_gz = read_graph(dir.write("mixed.txt.gz", TempDir::gzip(text)));
  for (const auto* r : {&from_string, &from_file, &from_gz}) {
    EXPECT_EQ(r->edge_records, 40000u);
    EXPECT_EQ(labelled_edges(r->graph), expect);
  }
  // An error past the switch still names its line.
  const InputError e = error_of(text + "oops\n", InputFormat::kEdgeList);
  EXPECT_EQ(e.line(), 40001u) << e.what();
}

// ------------------------------------------------------------ item 9: not an edge list

TEST(ReaderHardening, XmlJsonAndOtherFormatsAreRefusedWithAHint) {
  const std::string graphml =
      "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<graphml xmlns=\"http://graphml\">\n"
      "<graph edgedefault=\"directed\">\n<node id=\"n0\"/>\n<node id=\"n1\"/>\n"
      "<edge source=\"n0\" target=\"n1\"/>\n</graph>\n</graphml>\n";
  for (const auto& [text, what] : std::vector<std::pair<std::string, std::string>>{
           {graphml, "XML"},
           {"\n{\"directed\": true, \"nodes\": [{\"id\": 0}], \"links\": []}\n", "JSON"},
           {"[[0, 1], [1, 2]]\n", "JSON"},
           {"*Vertices 2\n1 \"a\"\n2 \"b\"\n*Arcs\n1 2\n", "Pajek"},
           {"graph [\n  node [ id 0 ]\n]\n", "GML"},
       }) {
    const InputError e = error_of(text, InputFormat::kAuto, "g.txt");
    EXPECT_TRUE(has(e, what)) << e.what();
    EXPECT_TRUE(has(e, "convert")) << e.what();
    EXPECT_EQ(e.line(), text[0] == '\n' ? 2u : 1u) << e.what();
  }
  // Detection refuses them; a format named is read as named: edge lists whose first label
  // looks like one of them (a Java call graph's "<init>") have no other way in.
  for (const std::string text :
       {"{a} b\nb c\n", "<init> f\nf g\n", "[x y\ny z\n", "*Vertices x\nx y\n", "graph [\n[ x\n"}) {
    EXPECT_THROW(read_graph_from_string(text, InputFormat::kAuto, "g.txt"), InputError) << text;
    const ReadResult r = read_graph_from_string(text, InputFormat::kEdgeList, "g.txt");
    EXPECT_EQ(r.graph.edge_count(), 2u) << text;
  }
}

TEST(ReaderHardening, AdjacencyListsAreRefusedAsEdgeListsAndReadAsAdjlist) {
  // networkx write_adjlist of 0 -> 1, 0 -> 2, 1 -> 2 (and a sink).
  const std::string adj = "#/usr/bin/python\n# GMT\n#\n0 1 2\n1 2\n2\n";
  const InputError e = error_of(adj, InputFormat::kAuto);
  EXPECT_EQ(e.line(), 5u) << e.what();
  EXPECT_TRUE(e.has_advice(Advice::kAdjlistFormat)) << e.what();
  // Lines of one length but labels for columns: refused at the first line.
  const InputError e3 = error_of("a b c\nb c d\n", InputFormat::kEdgeList);
  EXPECT_EQ(e3.line(), 1u);
  EXPECT_TRUE(e3.has_advice(Advice::kAdjlistFormat)) << e3.what();
  const auto r = read_graph_from_string(adj, parse_input_format("adjlist"));
  EXPECT_EQ(r.format, InputFormat::kAdjList);
  EXPECT_EQ(labels_of(r.graph), (Strings{"0", "1", "2"}));
  EXPECT_EQ(labelled_edges(r.graph), (Strings{"0 1", "0 2", "1 2"}));
  // A vertex line of its own declares an isolated vertex.
  EXPECT_EQ(read_graph_from_string("a b\nc\n", InputFormat::kAdjList).graph.vertex_count(), 3u);
}

TEST(ReaderHardening, WeightColumnsMustBeNumbersOnEveryLine) {
  // Weights and timestamps (numbers on every line) are still ignored.
  auto r =
      read_graph_from_string("1 2 0.5 1300000000\n2 3 -1e3 1300000001\n", InputFormat::kEdgeList);
  EXPECT_EQ(labelled_edges(r.graph), (Strings{"1 2", "2 3"}));
  // A weight on some lines only: one of them is something else.
  const InputError e = error_of("1 2\n2 3 7\n", InputFormat::kEdgeList);
  EXPECT_EQ(e.line(), 2u);
  EXPECT_TRUE(has(e, "3 columns where line 1 has 2")) << e.what();
}

TEST(ReaderHardening, HeaderRowsAreRefused) {
  const InputError e = error_of("source\ttarget\n1\t2\n2\t3\n", InputFormat::kAuto);
  EXPECT_EQ(e.line(), 1u);
  EXPECT_TRUE(has(e, "header row")) << e.what();
  // Usual titles above name labels too.
  EXPECT_TRUE(has(error_of("# deps\nFrom To\nlibc app\n", InputFormat::kEdgeList), "header row"));
  // Names everywhere are just names.
  EXPECT_EQ(
      read_graph_from_string("alice bob\nbob carol\n", InputFormat::kEdgeList).graph.vertex_count(),
      3u);
  // One line of names is one edge, not a header.
  EXPECT_EQ(read_graph_from_string("alice bob\n", InputFormat::kEdgeList).graph.edge_count(), 1u);
}

TEST(ReaderHardening, KonectAndSnapUndirectedMarkersAddBothDirections) {
  auto sym =
      read_graph_from_string("% sym unweighted\n% 2 3 3\n1 2\n2 3\n3 3\n", InputFormat::kEdgeList);
  EXPECT_EQ(labelled_edges(sym.graph), (Strings{"1 2", "2 1", "2 3", "3 2", "3 3"}));
  EXPECT_EQ(sym.edge_records, 3u);
  auto asym = read_graph_from_string("% asym positive\n1 2 1 946684800\n2 3 4 946684801\n",
                                     InputFormat::kEdgeList);
  EXPECT_EQ(labelled_edges(asym.graph), (Strings{"1 2", "2 3"}));
  auto snap = read_graph_from_string(
      "# Undirected graph: ../../data/output/ca-GrQc.txt\n# Nodes: 3 Edges: 2\n1\t2\n2\t3\n",
      InputFormat::kAuto);
  EXPECT_EQ(labelled_edges(snap.graph), (Strings{"1 2", "2 1", "2 3", "3 2"}));
  EXPECT_TRUE(has(error_of("% bip unweighted\n1 1\n", InputFormat::kEdgeList), "bipartite"));
}

// ------------------------------------------------------------ item 13: escaped labels

TEST(ReaderHardening, LabelsStartingWithHashOrPercentRoundTripThroughTheEdgeList) {
  const Strings labels = {"#define", "%pct", "\\#lit", "\\\\two", "\\x", "\\", "plain", "#"};
  std::vector<Edge> edges;
  for (vertex_t v = 0; v + 1 < labels.size(); ++v) edges.emplace_back(v, v + 1);
  const Graph g(labels.size(), edges, labels);
  const Closure c = compute_closure(g, sparse_options());
  TempDir dir;
  const std::string out = dir.path("closure.txt");
  write_closure(out, g, c, OutputFormat::kEdges, false);
  const auto back = read_graph(out);
  // The closure's first vertex reaches all others, so every label appears, in input order.
  EXPECT_EQ(labels_of(back.graph), labels) << slurp(out);
  EXPECT_EQ(back.graph.edge_count(), c.pair_count(false));
}

// ------------------------------------------------------------ item 16: gzip, DOT -> .mtx

TEST(ReaderHardening, GzipMembersAreAllReadAndTrailingGarbageRefused) {
  TempDir dir;
  const std::string a = TempDir::gzip("1 2\n2 3\n"), b = TempDir::gzip("3 4\n");
  EXPECT_EQ(read_graph(dir.write("two.txt.gz", a + b)).graph.edge_count(), 3u);
  EXPECT_EQ(read_graph(dir.write("pad.txt.gz", a + std::string(512, '\0'))).graph.edge_count(), 2u);
  for (const std::string& tail :
       {std::string("garbage\n"), std::string("\x1f"), std::string(8, '\0') + "x"}) {
    try {
      read_graph(dir.write("tail.txt.gz", a + tail));
      ADD_FAILURE() << "trailing " << tail.size() << " bytes accepted";
    } catch (const InputError& e) {
      EXPECT_NE(e.message().find("after the end of the gzip stream"), std::string::npos)
          << e.what();
    }
  }
}

TEST(ReaderHardening, DotLabelWithANewlineSurvivesAMatrixMarketRoundTrip) {
  const auto dot = read_graph_from_string(
      "digraph {\n \"two\nlines\" -> b -> \"back\\\\slash\"\n}\n", InputFormat::kDot);
  ASSERT_EQ(dot.graph.label(0), "two\nlines");
  const Closure c = compute_closure(dot.graph, sparse_options());
  TempDir dir;
  const std::string out = dir.path("c.mtx");
  write_closure(out, dot.graph, c, OutputFormat::kMatrixMarket, false);
  const auto back = read_graph(out);
  EXPECT_EQ(back.graph.vertex_count(), 3u);
  EXPECT_EQ(back.graph.edge_count(), c.pair_count(false));
  EXPECT_NE(slurp(out).find("%label 1 two\\nlines\n"), std::string::npos) << slurp(out);
}

// ------------------------------------------------------------ the parallel edge-list reader

// What a read gave: the graph in labels, or the error.
std::string outcome(std::string_view text) {
  try {
    const auto r = read_graph_from_string(text, InputFormat::kEdgeList, "e");
    std::string out = std::to_string(r.edge_records) + " records; labels";
    for (const auto& l : labels_of(r.graph)) {
      out += ' ';  // two appends: `" " + l` may trip GCC 12's -Wrestrict false positive
      out += l;
    }
    out += "; edges";
    for (const auto& [u, v] : r.graph.edges())
      out.append(" ").append(std::to_string(u)).append(">").append(std::to_string(v));
    return out;
  } catch (const InputError& e) {
    return std::string("error ") + e.what();
  }
}

TEST(ParallelEdgeList, AnyCutGivesTheSameGraphIdsAndErrorsAsOneChunk) {
  // Random files mixing numbers, names, comments, blank lines, CR/CRLF/LF, weights, escapes,
  // and now and then a bad line; read whole, then cut into 2..9 chunks of any size.
  std::mt19937 rng(11);
  const char* const ends[] = {"\n", "\r\n", "\r"};
  const char* const names[] = {
      "a", "b", "\\#c", "007", "x y", "4294967296", "18446744073709551615"};
  for (int round = 0; round < 300; ++round) {
    std::string text;
    const bool weighted = rng() % 4 == 0, names_too = rng() % 2 == 0;
    const int lines = 1 + static_cast<int>(rng() % 60);
    for (int i = 0; i < lines; ++i) {
      const unsigned kind = rng() % 20;
      if (kind == 0) {
        text += "# comment";
      } else if (kind == 1) {
        text += "  ";
      } else if (kind == 2 && rng() % 4 == 0) {
        text += "lonely";  // an error on this line
      } else {
        auto label = [&] {
          if (rng() % 16 == 0) return std::to_string(4294967290u + rng() % 10);  // around 2^32
          return names_too && rng() % 3 == 0 ? std::string(names[rng() % 7])
                                             : std::to_string(rng() % 40);
        };
        text += label() + (rng() % 2 ? "\t" : " ") + label();
        if (weighted) text.append(" ").append(std::to_string(rng() % 100)).append(".5");
      }
      text += ends[rng() % 3];
    }
    detail::set_edge_list_chunking(0, 1);
    const std::string whole = outcome(text);
    for (size_t threads = 2; threads <= 9; ++threads) {
      detail::set_edge_list_chunking(1, threads);
      EXPECT_EQ(outcome(text), whole) << "threads " << threads << " text:\n" << text;
    }
  }
  detail::set_edge_list_chunking(0, 0);
}

}  // namespace
}  // namespace closure
