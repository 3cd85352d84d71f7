// Reading with what detection would otherwise guess said outright: a header row present or
// absent (CSV, TSV, edge lists) and any delimiter; every refusal's advice, when followed,
// reads the graph right.
#include <gtest/gtest.h>

#include <string>

#include "closure/graph/read_graph.hpp"
#include "graph_test_files.hpp"

namespace closure {
namespace {

using namespace closure::testing;

ReadOptions with(InputFormat f, HeaderRow h, char d = 0) {
  ReadOptions o(f);
  o.header = h;
  o.delimiter = d;
  return o;
}

Strings edges_of(const std::string& text, const ReadOptions& o, const std::string& name = "g") {
  return labelled_edges(read_graph_from_string(text, o, name).graph);
}

TEST(ReadOptions, AHeaderTheGuessTakesForAnEdgeIsSkippedWhenSaid) {
  // Column titles that are not in the title list: guessed to be an edge, as documented.
  const std::string csv = "caller,callee\nmain,parse\nparse,lex\n";
  EXPECT_EQ(edges_of(csv, InputFormat::kCsv),
            (Strings{"caller callee", "main parse", "parse lex"}));
  EXPECT_EQ(edges_of(csv, with(InputFormat::kCsv, HeaderRow::kPresent)),
            (Strings{"main parse", "parse lex"}));
  EXPECT_EQ(edges_of(csv, with(InputFormat::kAuto, HeaderRow::kPresent), "g.csv"),
            (Strings{"main parse", "parse lex"}));
  // And a first row the guess takes for a header is read as an edge when said.
  const std::string titled = "source,target\n1,2\n";
  EXPECT_EQ(edges_of(titled, InputFormat::kCsv), (Strings{"1 2"}));
  EXPECT_EQ(edges_of(titled, with(InputFormat::kCsv, HeaderRow::kAbsent)),
            (Strings{"1 2", "source target"}));
  // pandas' index column: said header or not, it is the first row's empty field that tells.
  EXPECT_EQ(edges_of(",from_pkg,to_pkg\n0,a,b\n", with(InputFormat::kCsv, HeaderRow::kPresent)),
            (Strings{"a b"}));
  // TSV the same.
  EXPECT_EQ(edges_of("caller\tcallee\nx\ty\n", with(InputFormat::kTsv, HeaderRow::kPresent)),
            (Strings{"x y"}));
}

TEST(ReadOptions, AnEdgeListHeaderIsRefusedWithAdviceThatReadsItRightWhenFollowed) {
  const std::string text = "# exported\nfrom to\n1 2\n2 3\n";
  try {
    read_graph_from_string(text, InputFormat::kEdgeList, "h.txt");
    FAIL() << "no refusal";
  } catch (const InputError& e) {
    EXPECT_EQ(e.line(), 2u) << e.what();
    EXPECT_TRUE(e.has_advice(Advice::kHeaderRow)) << e.what();
    EXPECT_NE(e.said_to(Audience::kCli).find("--header"), std::string::npos);
    EXPECT_NE(e.said_to(Audience::kPython).find("header=True"), std::string::npos);
  }
  EXPECT_EQ(edges_of(text, with(InputFormat::kEdgeList, HeaderRow::kPresent)),
            (Strings{"1 2", "2 3"}));
  EXPECT_EQ(edges_of(text, with(InputFormat::kEdgeList, HeaderRow::kAbsent)),
            (Strings{"1 2", "2 3", "from to"}));
  // Lines after a skipped header keep their numbers in messages.
  try {
    read_graph_from_string("from to\n1 2\n3\n", with(InputFormat::kEdgeList, HeaderRow::kPresent),
                           "h.txt");
    FAIL() << "no refusal";
  } catch (const InputError& e) {
    EXPECT_EQ(e.line(), 3u) << e.what();
  }
  // A file that holds only its header has no edges.
  EXPECT_THROW(
      read_graph_from_string("# c\nfrom to\n", with(InputFormat::kEdgeList, HeaderRow::kPresent)),
      InputError);
}

TEST(ReadOptions, AnyDelimiterIsReadAsDelimitedText) {
  const std::string semi = "from_pkg;to_pkg\nlibc;libm\nlibm;ld\n";
  EXPECT_EQ(edges_of(semi, with(InputFormat::kAuto, HeaderRow::kPresent, ';'), "deps.txt"),
            (Strings{"libc libm", "libm ld"}));
  EXPECT_EQ(edges_of("a|b\n\"x|y\"|c\n", with(InputFormat::kAuto, HeaderRow::kAbsent, '|')),
            (Strings{"a b", "x|y c"}));
  EXPECT_EQ(edges_of("a:b:7\n", with(InputFormat::kCsv, HeaderRow::kGuess, ':')), (Strings{"a b"}));
  EXPECT_EQ(parse_delimiter("tab"), '\t');
  EXPECT_EQ(parse_delimiter("\\t"), '\t');
  EXPECT_EQ(parse_delimiter(";"), ';');
  for (const char* bad : {"", "ab", "a", "7", "\"", " ", "\x01"})
    EXPECT_THROW(parse_delimiter(bad), UsageError) << bad;
}

TEST(ReadOptions, NetworkxDictsGluedToAnotherDelimiterReadRightWithTheAdvice) {
  // nx.write_edgelist(G, p, delimiter=";") with weights.
  const std::string text = "0;7;{'weight': 0.9}\n7;3;{'weight': 0.1, 'c': 'a;b'}\n";
  try {
    read_graph_from_string(text, InputFormat::kAuto, "g.txt");
    FAIL() << "no refusal";
  } catch (const InputError& e) {
    EXPECT_TRUE(e.has_advice(Advice::kDelimiter)) << e.what();
    EXPECT_NE(e.said_to(Audience::kCli).find("--delimiter ';'"), std::string::npos)
        << e.said_to(Audience::kCli);
    EXPECT_NE(e.said_to(Audience::kPython).find("delimiter=';'"), std::string::npos);
  }
  EXPECT_EQ(edges_of(text, with(InputFormat::kAuto, HeaderRow::kGuess, ';'), "g.txt"),
            (Strings{"0 7", "7 3"}));
}

TEST(ReadOptions, ChoicesAFormatDoesNotHaveAreRefused) {
  EXPECT_THROW(check_read_options(with(InputFormat::kMatrixMarket, HeaderRow::kGuess, ';')),
               UsageError);
  EXPECT_THROW(check_read_options(with(InputFormat::kGra, HeaderRow::kPresent)), UsageError);
  EXPECT_THROW(check_read_options(with(InputFormat::kDot, HeaderRow::kAbsent)), UsageError);
  EXPECT_NO_THROW(check_read_options(with(InputFormat::kEdgeList, HeaderRow::kAbsent)));
  EXPECT_NO_THROW(check_read_options(with(InputFormat::kTsv, HeaderRow::kPresent, '\t')));
  // Detected formats are checked once known: a header said for a Matrix Market file.
  EXPECT_THROW(read_graph_from_string("%%MatrixMarket matrix coordinate pattern general\n"
                                      "2 2 1\n1 2\n",
                                      with(InputFormat::kAuto, HeaderRow::kPresent)),
               UsageError);
}

}  // namespace
}  // namespace closure
