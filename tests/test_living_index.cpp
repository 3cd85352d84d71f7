// The living index against a rebuild: after every round of appends (edges from new vertices
// to old ones, between new vertices, between old ones, from old to new), each pair's answer,
// each descendants and ancestors list equals plain BFS over the base graph plus every edge
// appended so far; through the file (base + layer) too. Hostile layer sections are refused.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstring>
#include <map>
#include <memory>
#include <random>
#include <string>
#include <vector>

#include "closure/errors.hpp"
#include "closure/reach/index_file.hpp"
#include "closure/reach/living_index.hpp"

namespace closure::reach {
namespace {

using Pairs = std::vector<std::pair<std::string, std::string>>;

// The graph by label: every edge given so far, BFS answers by label.
struct Truth {
  std::map<std::string, uint32_t> id;
  std::vector<std::string> name;
  std::vector<std::vector<uint32_t>> succ;
  uint32_t vertex(const std::string& s) {
    auto [it, fresh] = id.emplace(s, uint32_t(name.size()));
    if (fresh) name.push_back(s), succ.emplace_back();
    return it->second;
  }
  void add(const Pairs& edges) {
    for (const auto& [a, b] : edges) {
      const uint32_t u = vertex(a), v = vertex(b);
      succ[u].push_back(v);
    }
  }
  // Strict: u itself only on a cycle.
  std::vector<uint8_t> reach_from(uint32_t u) const {
    std::vector<uint8_t> r(name.size(), 0);
    std::vector<uint32_t> q;
    for (uint32_t w : succ[u])
      if (!r[w]) r[w] = 1, q.push_back(w);
    for (size_t h = 0; h < q.size(); ++h)
      for (uint32_t w : succ[q[h]])
        if (!r[w]) r[w] = 1, q.push_back(w);
    return r;
  }
};

Graph graph_of(const Truth& t) {
  std::vector<Edge> e;
  for (uint32_t u = 0; u < t.succ.size(); ++u)
    for (uint32_t v : t.succ[u]) e.emplace_back(u, v);
  return Graph(t.name.size(), std::move(e), t.name);
}

// Every answer of `index` against the truth: all pairs, and the walks of every vertex.
void expect_same(const LivingIndex& index, const Truth& t, const std::string& when) {
  ASSERT_EQ(index.vertex_count(), t.name.size()) << when;
  LivingQuerier q(index);
  for (uint32_t a = 0; a < t.name.size(); ++a) {
    const auto u = index.find(t.name[a]);
    ASSERT_TRUE(u) << when << ": " << t.name[a];
    const std::vector<uint8_t> r = t.reach_from(a);
    std::vector<std::string> want, got;
    for (uint32_t b = 0; b < t.name.size(); ++b) {
      const auto v = index.find(t.name[b]);
      ASSERT_EQ(q.reaches(*u, *v), bool(r[b])) << when << ": " << t.name[a] << " -> " << t.name[b];
      if (r[b]) want.push_back(t.name[b]);
    }
    for (vertex_t v : q.descendants(*u)) got.push_back(index.label(v));
    std::sort(want.begin(), want.end());
    std::sort(got.begin(), got.end());
    ASSERT_EQ(got, want) << when << ": descendants of " << t.name[a];
  }
  // Ancestors: the transpose of the same truth.
  std::vector<std::vector<std::string>> anc(t.name.size());
  for (uint32_t a = 0; a < t.name.size(); ++a) {
    const std::vector<uint8_t> r = t.reach_from(a);
    for (uint32_t b = 0; b < t.name.size(); ++b)
      if (r[b]) anc[b].push_back(t.name[a]);
  }
  for (uint32_t b = 0; b < t.name.size(); ++b) {
    std::vector<std::string> got;
    for (vertex_t v : q.ancestors(*index.find(t.name[b]))) got.push_back(index.label(v));
    std::sort(got.begin(), got.end());
    std::sort(anc[b].begin(), anc[b].end());
    ASSERT_EQ(got, anc[b]) << when << ": ancestors of " << t.name[b];
  }
}

// A round of appends of one kind over the truth's current vertices.
Pairs round_of(int kind, Truth& t, std::mt19937_64& rng, int round, int count) {
  Pairs out;
  std::uniform_int_distribution<size_t> any(0, t.name.size() - 1);
  std::vector<std::string> fresh;
  for (int i = 0; i < count; ++i)
    fresh.push_back("r" + std::to_string(round) + "_" + std::to_string(kind) + "_" +
                    std::to_string(i));
  for (int i = 0; i < count; ++i) {
    const std::string& old_a = t.name[any(rng)];
    const std::string& old_b = t.name[any(rng)];
    switch (kind) {
      case 0:
        out.emplace_back(fresh[i], old_a), out.emplace_back(fresh[i], old_b);
        break;
      case 1:
        out.emplace_back(fresh[i], fresh[(i + 1) % count]);
        break;  // a ring: a cycle
      case 2:
        out.emplace_back(old_a, old_b);
        break;
      default:
        out.emplace_back(old_a, fresh[i]);
        break;
    }
  }
  return out;
}

class LivingIndexRounds : public ::testing::TestWithParam<std::tuple<int, bool>> {};

TEST_P(LivingIndexRounds, EqualsARebuildAfterEveryRound) {
  const auto [seed, identity] = GetParam();
  std::mt19937_64 rng(uint64_t(seed) * 7919 + 11);
  Truth t;
  // A base of 61 vertices and about 90 edges, cyclic for odd seeds.
  const int n0 = 61;
  for (int v = 0; v < n0; ++v) t.vertex(identity ? std::to_string(v) : "v" + std::to_string(v));
  Pairs base_edges;
  std::uniform_int_distribution<int> pick(0, n0 - 1);
  for (int i = 0; i < 90; ++i) {
    int a = pick(rng), b = pick(rng);
    if (seed % 2 == 0 && a >= b) continue;  // a DAG
    base_edges.emplace_back(t.name[a], t.name[b]);
  }
  t.add(base_edges);
  LivingIndex index(std::make_shared<const ReachIndex>(build_index(graph_of(t))));
  expect_same(index, t, "base");
  AppendOptions options;
  options.merge_minimum = 48;  // so some rounds also merge a grown layer
  for (int round = 0; round < 20; ++round) {
    const int kind = round % 4;
    const Pairs edges = round_of(kind, t, rng, round, 3 + round % 5);
    t.add(edges);
    const AppendReport report = index.add_edges(edges, options);
    const std::string when = "seed " + std::to_string(seed) + " round " + std::to_string(round) +
                             " kind " + std::to_string(kind) +
                             (report.rebuilt ? " (rebuilt)" : " (layer)");
    if (kind == 0 && report.rebuilt) {
      EXPECT_STREQ(report.why_rebuilt, "the layer grew");
    }
    expect_same(index, t, when);
    // The file holds the same answers: base and layer written, read back, checked.
    const std::string path = ::testing::TempDir() + "closure_living_" + std::to_string(seed) +
                             (identity ? "i" : "n") + ".idx";
    index.write(path);
    expect_same(load_living_index(path), t, when + " from the file");
  }
}

INSTANTIATE_TEST_SUITE_P(Seeds, LivingIndexRounds,
                         ::testing::Combine(::testing::Values(1, 2, 3, 4), ::testing::Bool()));

TEST(LivingIndex, ANullBaseIsAUsageError) {
  EXPECT_THROW(LivingIndex(nullptr), UsageError);
}

TEST(LivingIndex, NewToOldEdgesStayInTheLayer) {
  Truth t;
  Pairs chain;
  for (int i = 0; i < 200; ++i)
    chain.emplace_back("c" + std::to_string(i + 1), "c" + std::to_string(i));
  t.add(chain);
  LivingIndex index(std::make_shared<const ReachIndex>(build_index(graph_of(t))));
  Pairs commits;
  for (int i = 200; i < 230; ++i)
    commits.emplace_back("c" + std::to_string(i + 1), "c" + std::to_string(i));
  const AppendReport r = index.add_edges(commits);
  EXPECT_FALSE(r.rebuilt);
  EXPECT_EQ(r.new_vertices, 30u);
  EXPECT_EQ(index.layer().vertex_count(), 30u);
  t.add(commits);
  expect_same(index, t, "commits");
  // An edge an old vertex already implies changes nothing, so nothing is rebuilt.
  const AppendReport implied = index.add_edges({{"c150", "c3"}});
  EXPECT_FALSE(implied.rebuilt);
  EXPECT_EQ(implied.already_implied, 1u);
  // merge() folds the layer: same answers, empty layer.
  index.merge();
  EXPECT_TRUE(index.layer().empty());
  expect_same(index, t, "merged");
}

TEST(LivingIndex, FailedAppendLeavesTheIndexAsItWas) {
  Truth t;
  t.add({{"a", "b"}});
  LivingIndex index(std::make_shared<const ReachIndex>(build_index(graph_of(t))));
  EXPECT_THROW(index.add_edges({{"x", "a"}, {"y", ""}}), UsageError);
  EXPECT_EQ(index.vertex_count(), 2u);
  EXPECT_FALSE(index.find("x"));
  EXPECT_EQ(index.layer().edges, 0u);
}

// Hostile layer sections: every structural lie is an IndexFileError, never a crash.
TEST(LivingIndex, HostileLayersAreRefused) {
  Truth t;
  t.add({{"a", "b"}, {"b", "c"}});
  LivingIndex index(std::make_shared<const ReachIndex>(build_index(graph_of(t))));
  index.add_edges({{"d", "a"}, {"e", "d"}});
  const std::string good = encode_layer(index.layer());
  const auto decode = [&](const std::string& bytes) {
    return decode_layer(reinterpret_cast<const unsigned char*>(bytes.data()), bytes.size(), 3,
                        "x.idx");
  };
  EXPECT_NO_THROW(decode(good));
  auto with = [&](size_t at, uint64_t value, size_t width) {
    std::string b = good;
    std::memcpy(b.data() + at, &value, width);
    return b;
  };
  EXPECT_THROW(decode(good.substr(0, 16)), IndexFileError);             // truncated
  EXPECT_THROW(decode(with(0, uint64_t{1} << 40, 8)), IndexFileError);  // vertex count
  EXPECT_THROW(decode(with(8, 3, 8)), IndexFileError);                  // edge count
  EXPECT_THROW(decode(with(16, 99, 8)), IndexFileError);                // label bytes
  EXPECT_THROW(decode(with(24, 1, 8)), IndexFileError);                 // reserved
  EXPECT_THROW(decode(with(32 + 8, 7, 8)), IndexFileError);             // offsets
  // An offset past the names, before a later one says so: refused before any name is read
  // (a forged checksum's file crashed with SIGBUS reading 64 MiB past its mapping).
  EXPECT_THROW(decode(with(32 + 8, 3, 8)), IndexFileError);
  EXPECT_THROW(decode(with(32 + 8, uint64_t{1} << 26, 8)), IndexFileError);
  const size_t pairs = 32 + 3 * 8;
  EXPECT_THROW(decode(with(pairs, 0, 4)), IndexFileError);       // an edge from a base vertex
  EXPECT_THROW(decode(with(pairs + 4, 99, 4)), IndexFileError);  // a target beyond
  // A layer name that is a base vertex's name: refused where the base is known.
  IndexLayer clash;
  clash.base_vertices = 3;
  clash.add_vertex("a");
  EXPECT_THROW(LivingIndex(index.base_shared(), clash, "x.idx"), IndexFileError);
}

}  // namespace
}  // namespace closure::reach
