// Batch's file-name filter: the default --include is the reader's extension table (each
// extension there names a format detect_format recognises), case aside and through .gz;
// --include replaces it, --exclude wins over both.
#include <gtest/gtest.h>

#include <string>

#include "app/tool/batch_filter.hpp"
#include "closure/graph/read_graph.hpp"

namespace closure {
namespace {

TEST(BatchFilter, DefaultIsTheGraphExtensions) {
  const NameFilter f;
  for (const char* name :
       {"g.txt", "g.TXT", "g.edges", "g.el", "g.gra", "g.dimacs", "g.gr", "g.max", "g.col", "g.mtx",
        "g.mm", "g.dot", "g.gv", "g.csv", "g.tsv", "g.txt.gz", "roads.gr.gz", "C.MTX.GZ"})
    EXPECT_TRUE(f.accepts(name)) << name;
  for (const char* name : {"notes.md", "README", "g.json", "g.py", "g.gz", "g.txt.bak", "g.idx"})
    EXPECT_FALSE(f.accepts(name)) << name;
}

TEST(BatchFilter, EveryDefaultExtensionIsOneTheReaderKnows) {
  // Extensions that are not the edge list's must each be detected as their own format, so
  // that the list cannot drift from detect_format's table unnoticed.
  for (const std::string& pattern : default_graph_patterns()) {
    std::string name = pattern;  // "*.gra" -> "g.gra" (not "g" + ...: GCC 12 -Wrestrict)
    name[0] = 'g';
    const std::string ext = pattern.substr(2);
    const bool edge_list = ext.starts_with("txt") || ext.starts_with("edge") ||
                           ext.starts_with("el") || ext.starts_with("snap");
    if (!edge_list) {
      EXPECT_NE(detect_format(name, "1 2\n"), InputFormat::kEdgeList) << name;
    }
  }
}

TEST(BatchFilter, IncludeReplacesTheDefaultAndExcludeWins) {
  const NameFilter md{{"*.md", "README"}, {}};
  EXPECT_TRUE(md.accepts("notes.md"));
  EXPECT_TRUE(md.accepts("README"));
  EXPECT_FALSE(md.accepts("g.txt"));
  const NameFilter ex{{}, {"*.gz", "tmp_*"}};
  EXPECT_TRUE(ex.accepts("g.txt"));
  EXPECT_FALSE(ex.accepts("g.txt.gz"));
  EXPECT_FALSE(ex.accepts("tmp_g.txt"));
  const NameFilter both{{"*.txt"}, {"*.txt"}};
  EXPECT_FALSE(both.accepts("g.txt"));
  // Patterns given are matched as written (case counts).
  EXPECT_FALSE(NameFilter({{"*.txt"}, {}}).accepts("g.TXT"));
}

TEST(BatchFilter, PatternsWithASlashMatchThePathBelowTheFolder) {
  // --exclude 'sub/*' leaves a subfolder out (it matched nothing when patterns saw only the
  // file name); '*' does not cross a '/'; patterns without one still match the name anywhere.
  NameFilter f;
  f.exclude = {"sub/*"};
  EXPECT_FALSE(f.accepts("b.txt", "sub/b.txt"));
  EXPECT_TRUE(f.accepts("b.txt", "sub/deeper/b.txt"));
  EXPECT_TRUE(f.accepts("b.txt", "other/b.txt"));
  EXPECT_TRUE(f.accepts("a.txt", "a.txt"));
  f.exclude = {"*/deeper/*"};
  EXPECT_FALSE(f.accepts("b.txt", "sub/deeper/b.txt"));
  f.exclude = {"b.*"};
  EXPECT_FALSE(f.accepts("b.txt", "sub/deeper/b.txt"));
  NameFilter only;
  only.include = {"keep/*.txt"};
  EXPECT_TRUE(only.accepts("x.txt", "keep/x.txt"));
  EXPECT_FALSE(only.accepts("x.txt", "x.txt"));
}

}  // namespace
}  // namespace closure
