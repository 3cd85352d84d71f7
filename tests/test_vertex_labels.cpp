// VertexLabels: integer labels kept as numbers spell, find and compare exactly as the same
// labels kept as strings; the readers keep a file's integers as numbers.
#include <gtest/gtest.h>

#include <optional>
#include <string>
#include <vector>

#include "closure/graph/graph.hpp"
#include "closure/graph/read_graph.hpp"
#include "closure/graph/vertex_labels.hpp"

namespace closure {
namespace {

VertexLabels numbers(std::vector<uint64_t> xs) {
  return VertexLabels::from_numbers(VertexLabels::Numbers(xs.begin(), xs.end()));
}

TEST(VertexLabels, NumbersBehaveAsTheirDecimalSpellings) {
  const std::vector<uint64_t> xs{7, 0, 18446744073709551615ull, 4000000000, 10};
  const VertexLabels as_numbers = numbers(xs);
  std::vector<std::string> spelled;
  for (uint64_t x : xs) spelled.push_back(std::to_string(x));
  const VertexLabels as_names(spelled);
  ASSERT_TRUE(as_numbers.numeric());
  ASSERT_FALSE(as_names.numeric());
  ASSERT_NE(as_numbers.numbers(), nullptr);
  EXPECT_EQ(std::vector<uint64_t>(as_numbers.numbers()->begin(), as_numbers.numbers()->end()), xs);
  EXPECT_EQ(as_names.numbers(), nullptr);
  ASSERT_EQ(as_numbers.size(), xs.size());
  EXPECT_EQ(as_numbers, as_names);
  EXPECT_EQ(as_numbers.names(), spelled);
  std::string appended = "x";
  for (size_t v = 0; v < xs.size(); ++v) {
    EXPECT_EQ(as_numbers[v], spelled[v]);
    EXPECT_TRUE(as_numbers.equals(v, spelled[v]));
    EXPECT_FALSE(as_numbers.equals(v, spelled[v] + "0"));
    EXPECT_EQ(as_numbers.find(spelled[v]), as_names.find(spelled[v]));
    EXPECT_EQ(as_numbers.find(spelled[v]), v);
    as_numbers.append(v, appended);
  }
  EXPECT_EQ(appended, "x7018446744073709551615400000000010");
  // Only the canonical spelling names a number, as with strings.
  for (const char* other : {"07", "+7", "-7", " 7", "7 ", "", "x", "18446744073709551616", "1"}) {
    EXPECT_EQ(as_numbers.find(other), std::nullopt) << '"' << other << '"';
    EXPECT_EQ(as_names.find(other), std::nullopt) << '"' << other << '"';
  }
  EXPECT_NE(as_numbers, numbers({7, 0, 18446744073709551615ull, 4000000000, 11}));
  EXPECT_NE(as_numbers, numbers({7, 0}));
}

TEST(VertexLabels, IdentityIsEachVertexCalledByItsNumber) {
  EXPECT_TRUE(VertexLabels().identity());
  EXPECT_TRUE(numbers({0, 1, 2}).identity());
  EXPECT_FALSE(numbers({0, 2, 1}).identity());
  EXPECT_TRUE(VertexLabels({"0", "1", "2"}).identity());
  EXPECT_FALSE(VertexLabels({"0", "01", "2"}).identity());
}

TEST(VertexLabels, AnIntegerEdgeListKeepsItsLabelsAsNumbers) {
  // Large and sparse values, first-appearance order: both the flat table and the hash map.
  for (const char* text : {"10 3\n3 7\n7 10\n", "4000000000 5\n5 18446744073709551615\n"}) {
    const Graph g = read_graph_from_string(text, InputFormat::kEdgeList).graph;
    ASSERT_TRUE(g.labels().numeric()) << text;
    std::string again;
    for (const auto& [u, v] : g.edges()) again += g.label(u) + " " + g.label(v) + "\n";
    const Graph g2 = read_graph_from_string(again, InputFormat::kEdgeList).graph;
    EXPECT_EQ(g2.labels(), g.labels()) << text;
    for (vertex_t v = 0; v < g.vertex_count(); ++v) EXPECT_EQ(g.find(g.label(v)), v);
  }
  const Graph g = read_graph_from_string("10 3\n3 7\n", InputFormat::kEdgeList).graph;
  EXPECT_EQ(g.label(0), "10");
  EXPECT_EQ(g.label(1), "3");
  EXPECT_EQ(g.label(2), "7");
  // One label that is not a canonical integer: every label is a name, spelled as given.
  const Graph named = read_graph_from_string("10 3\n3 07\n", InputFormat::kEdgeList).graph;
  EXPECT_FALSE(named.labels().numeric());
  EXPECT_EQ(named.label(2), "07");
}

}  // namespace
}  // namespace closure
