// Graph::find: from the input's label back to the vertex, for graphs with stored labels
// and for graphs whose labels are their vertex numbers.
#include <gtest/gtest.h>

#include <optional>
#include <string>

#include "closure/graph/graph.hpp"
#include "closure/graph/read_graph.hpp"

namespace closure {
namespace {

TEST(GraphFind, EveryLabelFindsItsVertex) {
  const Graph g =
      read_graph_from_string("alice bob\nbob carol\n/src/a.h alice\n", InputFormat::kEdgeList)
          .graph;
  ASSERT_EQ(g.vertex_count(), 4u);
  for (vertex_t v = 0; v < g.vertex_count(); ++v) EXPECT_EQ(g.find(g.label(v)), v) << g.label(v);
  EXPECT_EQ(g.label(*g.find("carol")), "carol");
  EXPECT_EQ(g.find("dave"), std::nullopt);
  EXPECT_EQ(g.find("Alice"), std::nullopt);  // labels are bytes: no case folding
  EXPECT_EQ(g.find("alic"), std::nullopt);   // nor prefixes
  EXPECT_EQ(g.find(""), std::nullopt);
}

TEST(GraphFind, NumberedVerticesAreFoundByTheirNumberAsLabelSpellsIt) {
  const Graph g(3, {{0, 1}, {1, 2}});
  ASSERT_TRUE(g.labels().empty());
  for (vertex_t v = 0; v < 3; ++v) EXPECT_EQ(g.find(std::to_string(v)), v);
  for (const char* other :
       {"3", "4294967295", "99999999999", "01", "+1", "-1", " 1", "1 ", "", "x", "1x"})
    EXPECT_EQ(g.find(other), std::nullopt) << '"' << other << '"';
  EXPECT_EQ(Graph().find("0"), std::nullopt);
}

}  // namespace
}  // namespace closure
