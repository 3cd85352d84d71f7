// The CSR build (Graph's constructor) and the edge-list reader's parallel numbering and label
// merge on inputs large enough to take their parallel paths (over 2^20 edges; several
// chunks), against references built the plain way: sorted pairs, and a one-chunk read.
#include <gtest/gtest.h>

#include <algorithm>
#include <random>
#include <span>
#include <string>
#include <vector>

#include "closure/errors.hpp"
#include "closure/executor.hpp"
#include "closure/graph/edge_list_chunk.hpp"
#include "closure/graph/graph.hpp"
#include "closure/graph/read_graph.hpp"

namespace closure {
namespace {

// The CSR of `edges` by sorting the pairs: rows ascending, duplicates gone.
void expect_same_rows(const Graph& g, size_t n, std::vector<Edge> edges) {
  std::sort(edges.begin(), edges.end());
  edges.erase(std::unique(edges.begin(), edges.end()), edges.end());
  ASSERT_EQ(g.vertex_count(), n);
  ASSERT_EQ(g.edge_count(), edges.size());
  size_t at = 0;
  for (vertex_t u = 0; u < n; ++u) {
    ASSERT_EQ(g.offsets()[u], at) << "row " << u;
    for (vertex_t v : g.successors(u)) ASSERT_EQ(edges[at++], Edge(u, v)) << "row " << u;
  }
  EXPECT_EQ(at, edges.size());
}

std::vector<Edge> random_edges(size_t n, size_t m, uint32_t seed, size_t hot = 0) {
  std::mt19937_64 rng(seed);
  std::vector<Edge> edges(m);
  for (auto& [u, v] : edges) {
    // `hot` sources take a third of the edges: long rows that span several buckets' worth.
    u = hot && rng() % 3 == 0 ? vertex_t(rng() % hot) : vertex_t(rng() % n);
    v = vertex_t(rng() % n);
  }
  return edges;
}

TEST(GraphBuild, LargeEdgeListsGiveTheSortedRows) {
  set_thread_budget(4);
  // Awkward vertex counts: one source bucket, a partial last bucket, many buckets; rows
  // full of duplicates (n small) and a few very long rows.
  for (const auto& [n, m, hot] : std::vector<std::tuple<size_t, size_t, size_t>>{
           {1, 1u << 20, 0}, {977, 1100001, 0}, {32769, 1048577, 3}, {1000003, 1300007, 17}}) {
    const std::vector<Edge> edges = random_edges(n, m, uint32_t(n), hot);
    const Graph g(n, edges);
    expect_same_rows(g, n, edges);
  }
  set_thread_budget(0);
}

TEST(GraphBuild, LargeEdgeListWithAVertexBeyondTheCountIsRefused) {
  set_thread_budget(4);
  std::vector<Edge> edges = random_edges(5000, 1u << 20, 5);
  edges[777777] = {12, 5000};
  EXPECT_THROW(Graph(5000, edges), UsageError);
  edges[777777] = {5000, 12};
  EXPECT_THROW(Graph(5000, edges), UsageError);
  set_thread_budget(0);
}

TEST(GraphBuild, PairBlocksGiveTheGraphOfTheirEdgesInOrder) {
  set_thread_budget(4);
  for (const size_t n : {size_t{3001}, size_t{500009}}) {
    const std::vector<Edge> edges = random_edges(n, 1200007, uint32_t(n) + 1, 7);
    // Uneven blocks, an empty one among them, as interleaved (source, target) ids.
    std::vector<std::vector<vertex_t>> blocks(5);
    const size_t cuts[] = {0, 1, 400000, 400000, 1000003, edges.size()};
    for (size_t k = 0; k < 5; ++k)
      for (size_t i = cuts[k]; i < cuts[k + 1]; ++i) {
        blocks[k].push_back(edges[i].first);
        blocks[k].push_back(edges[i].second);
      }
    const std::vector<std::span<const vertex_t>> views(blocks.begin(), blocks.end());
    expect_same_rows(Graph::from_pair_blocks(n, views), n, edges);
    blocks[3].push_back(vertex_t(n));  // a source beyond the count, target missing: odd
    const std::vector<std::span<const vertex_t>> odd(blocks.begin(), blocks.end());
    EXPECT_THROW(Graph::from_pair_blocks(n, odd), UsageError);
    blocks[3].push_back(0);
    const std::vector<std::span<const vertex_t>> beyond(blocks.begin(), blocks.end());
    EXPECT_THROW(Graph::from_pair_blocks(n, beyond), UsageError);
  }
  set_thread_budget(0);
}

// The graph as text: "n m | label:successors ...", for comparing two reads.
std::string describe(const Graph& g) {
  std::string out = std::to_string(g.vertex_count()) + " " + std::to_string(g.edge_count()) + " |";
  for (vertex_t u = 0; u < g.vertex_count(); ++u) {
    // Appended piece by piece: GCC 12 warns (-Wrestrict, falsely) on " " + label + ":".
    out += ' ';
    out += g.label(u);
    out += ':';
    for (vertex_t v : g.successors(u)) out += std::to_string(v) + ",";
  }
  return out;
}

std::string read_text(const std::string& text, size_t threads) {
  detail::set_edge_list_chunking(threads == 1 ? 0 : 1 << 12, threads);
  return describe(read_graph_from_string(text, InputFormat::kEdgeList).graph);
}

TEST(GraphBuild, ManyChunksNumberAndMergeLabelsAsOneChunkDoes) {
  // Integer labels numbered through the flat table, sparse integers (hashed per chunk) and
  // names, with labels repeated across chunks, so every label's first chunk matters.
  std::mt19937_64 rng(7);
  std::string ints, sparse, names, mixed;
  for (int i = 0; i < 60000; ++i) {
    const uint64_t a = rng() % 20000, b = rng() % 20000;
    ints += std::to_string(a) + " " + std::to_string(b) + "\n";
    sparse += std::to_string(a * 1000003 + 5000000000ull) + "\t" + std::to_string(b * 7919) + "\n";
    names += "/src/m" + std::to_string(a) + ".h /src/m" + std::to_string(b) + ".h\n";
    mixed +=
        (i > 40000 && i % 7 == 0 ? "n" : "") + std::to_string(a) + " " + std::to_string(b) + "\n";
  }
  // Over 2^20 edges: the chunks renumbered in place and built into the graph as blocks.
  std::string many;
  for (int i = 0; i < 1100000; ++i)
    many += std::to_string(rng() % 300000) + " " + std::to_string(rng() % 300000) + "\n";
  set_thread_budget(4);
  // Undirected (KONECT's "% sym"): each edge also reversed, through the edge array.
  std::string sym_ints = "% sym unweighted\n" + ints, sym_many = "% sym unweighted\n" + many;
  for (const std::string* text : {&ints, &sparse, &names, &mixed, &many, &sym_ints, &sym_many}) {
    const std::string whole = read_text(*text, 1);
    for (size_t threads : {2, 3, 8, 31}) EXPECT_EQ(read_text(*text, threads), whole) << threads;
  }
  detail::set_edge_list_chunking(0, 0);
  set_thread_budget(0);
}

}  // namespace
}  // namespace closure
