// The reachability index against plain BFS on random graphs: DAGs and cyclic graphs, self
// loops, isolated vertices, awkward sizes; reachable, unreachable, same-SCC and self pairs.
#include <gtest/gtest.h>

#include <memory>
#include <random>

#include "bench/generators.hpp"
#include "bench/index_generators.hpp"
#include "closure/reach/descendants.hpp"
#include "closure/reach/index_file.hpp"
#include "closure/reach/reach_index.hpp"

namespace closure::reach {
namespace {

// Strict BFS reference: reach[u] marks v iff a path of >= 1 edges leads from u to v.
std::vector<std::vector<uint8_t>> bfs_all(const Graph& g) {
  const size_t n = g.vertex_count();
  std::vector<std::vector<uint8_t>> reach(n, std::vector<uint8_t>(n, 0));
  std::vector<vertex_t> queue;
  for (vertex_t u = 0; u < n; ++u) {
    auto& r = reach[u];
    queue.clear();
    for (vertex_t w : g.successors(u))
      if (!r[w]) r[w] = 1, queue.push_back(w);
    for (size_t h = 0; h < queue.size(); ++h)
      for (vertex_t w : g.successors(queue[h]))
        if (!r[w]) r[w] = 1, queue.push_back(w);
  }
  return reach;
}

// n vertices, m random edges; `dag` keeps only forward edges of a hidden order; `loops`
// adds a few self-loops; a few vertices stay isolated.
Graph random_graph(size_t n, size_t m, bool dag, bool loops, uint64_t seed) {
  std::mt19937_64 rng(seed);
  std::vector<vertex_t> order(n);
  for (vertex_t i = 0; i < n; ++i) order[i] = i;
  std::shuffle(order.begin(), order.end(), rng);
  std::uniform_int_distribution<size_t> pick(0, n - 1);
  std::vector<Edge> edges;
  for (size_t k = 0; k < m; ++k) {
    size_t a = pick(rng), b = pick(rng);
    if (a == b) continue;
    if (dag && a > b) std::swap(a, b);
    edges.emplace_back(order[a], order[b]);
  }
  if (loops)
    for (size_t k = 0; k < n / 10 + 1; ++k) {
      const vertex_t v = vertex_t(pick(rng));
      edges.emplace_back(v, v);
    }
  return Graph(n, std::move(edges));
}

void expect_matches_bfs(const Graph& g, const ReachIndex& index, const std::string& what) {
  const auto reach = bfs_all(g);
  Querier q(index);
  const size_t n = g.vertex_count();
  for (vertex_t u = 0; u < n; ++u)
    for (vertex_t v = 0; v < n; ++v)
      ASSERT_EQ(q.reaches(u, v), bool(reach[u][v])) << what << ": " << u << " -> " << v;
  // Every pair again as one pipelined batch, in a scrambled order.
  std::vector<vertex_t> us, vs;
  for (vertex_t u = 0; u < n; ++u)
    for (vertex_t v = 0; v < n; ++v) us.push_back(u), vs.push_back(v);
  std::mt19937_64 rng(n);
  for (size_t i = us.size(); i > 1; --i) {
    const size_t j = rng() % i;
    std::swap(us[i - 1], us[j]);
    std::swap(vs[i - 1], vs[j]);
  }
  std::unique_ptr<bool[]> out(new bool[us.size() + 1]);
  q.reaches_many(us.data(), vs.data(), us.size(), out.get());
  for (size_t i = 0; i < us.size(); ++i)
    ASSERT_EQ(out[i], bool(reach[us[i]][vs[i]])) << what << " batch: " << us[i] << " -> " << vs[i];
}

struct Case {
  size_t n;
  double degree;
  bool dag, loops;
};

// The keys' lanes say what the labels' tests say for components cu and cv (u's source half
// against v's target half), with SIMD and without, and kKeyVerdicts answers as they do.
void expect_keys_test_as_labels(const VertexKey& ku, const VertexKey& kv, uint32_t cu, uint32_t cv,
                                const ComponentLabel& a, const ComponentLabel& b) {
  const uint32_t lanes = key_lanes(ku, kv);
  ASSERT_EQ(lanes & 0xBF, key_lanes_plain(ku, kv) & 0xBF);  // lane 6 is ANDed, not compared
  const bool no =
      cu >= cv || b.post_f >= a.post_f || b.post_f < a.reach_low_f || a.post_b >= b.post_b;
  ASSERT_EQ((lanes & 0xF) != 0xF, no) << cu << " -> " << cv;
  const bool tree = b.post_f >= a.tree_low_f || a.post_b >= b.tree_low_b;
  ASSERT_EQ((lanes & 0x30) != 0, tree) << cu << " -> " << cv;
  const bool supportive = (a.sup_bwd & b.sup_fwd) != 0;
  ASSERT_EQ(uint32_t(ku.src[6] & kv.dst[6]) != 0, supportive);
  const bool same_cyclic = cu == cv && (a.bloom_in & kCyclicBit) != 0;
  ASSERT_EQ((lanes & 0x81) == 0x80, same_cyclic) << cu << " -> " << cv;
  const uint32_t expected = no ? uint32_t(same_cyclic) : (tree || supportive) ? 1 : kKeyOpen;
  ASSERT_EQ(kKeyVerdicts[lanes | uint32_t(supportive) << 8], expected) << cu << " -> " << cv;
}

TEST(ReachIndex, EveryPairEqualsBfsOnRandomGraphs) {
  const Case cases[] = {{1, 0, true, false},     {2, 1, true, false},      {7, 2, false, true},
                        {31, 1.5, true, false},  {32, 3, false, false},    {33, 2, false, true},
                        {65, 4, true, true},     {100, 1.2, false, false}, {257, 3, true, false},
                        {300, 1.1, false, true}, {513, 2.5, true, false}};
  uint64_t seed = 1100;
  for (const Case& c : cases)
    for (uint32_t supportive : {0u, 3u, 32u}) {
      const Graph g = random_graph(c.n, size_t(double(c.n) * c.degree), c.dag, c.loops, ++seed);
      BuildOptions o;
      o.supportive = supportive;
      ReachIndex index(build_index(g, o));
      expect_matches_bfs(g, index,
                         "n=" + std::to_string(c.n) + " sup=" + std::to_string(supportive));
    }
}

TEST(ReachIndex, EveryPairEqualsBfsAfterAFileRoundTrip) {
  const Graph g = random_graph(400, 900, false, true, 77);
  const std::string image = index_image(build_index(g));
  auto index = load_index_from_bytes(image);
  expect_matches_bfs(g, *index, "round trip");
}

TEST(ReachIndex, SearchesAreNeededAndStillExact) {
  // Sparse random DAGs defeat the cheap filters on many pairs: the search must run (the
  // test would prove nothing about it otherwise) and agree with BFS.
  const Graph g = random_graph(2000, 5000, true, false, 5);
  BuildOptions o;
  o.supportive = 0;
  ReachIndex index(build_index(g, o));
  const auto reach = bfs_all(g);
  Querier q(index);
  QueryStats st;
  for (vertex_t u = 0; u < 2000; u += 3)
    for (vertex_t v = 0; v < 2000; ++v) {
      ASSERT_EQ(q.reaches(u, v), bool(reach[u][v]));
      q.tally(u, v, st);
    }
  EXPECT_GT(q.stats().searched, 0u);
  EXPECT_EQ(q.stats().searched, st.searched);
  EXPECT_GT(st.positive_cut, 0u);
  EXPECT_GT(st.negative_cut, 0u);
  EXPECT_GT(st.bloom, 0u);  // no supportive bits here: the Bloom filters decide
}

TEST(ReachIndex, GeneratedBenchmarkGraphsAgreeWithBfsOnSampledSources) {
  std::vector<Graph> graphs;
  graphs.push_back(random_dag(3000, 12000, 3));
  graphs.push_back(giant_scc_with_tail(3000, 4, 0.3, 2.0));
  graphs.push_back(deep_chain(5000, 5));
  graphs.push_back(commit_history_dag(6000, 9));  // the tallest-first DFS's spine case
  for (const Graph& g : graphs) {
    ReachIndex index(build_index(g));
    Querier q(index);
    const size_t n = g.vertex_count();
    for (vertex_t u = 0; u < n; u += 97) {
      std::vector<uint8_t> r(n, 0);
      for (vertex_t w : descendants(g, u)) r[w] = 1;
      for (vertex_t v = 0; v < n; ++v) ASSERT_EQ(q.reaches(u, v), bool(r[v])) << u << " " << v;
    }
  }
}

// Pairs nearly all answered by a supportive component (sources through a hub to sinks)
// with a few others among them (reachable along a side chain, and not), then other pairs
// only, then hub pairs to the end; the hub's pairs must be answered by the supportive bits
// (tally()).
struct HubPairs {
  Graph g;
  std::vector<vertex_t> us, vs;
  size_t mostly_hub = 0, others_end = 0;  // where the first hub run and the others end
};
// cyclic_hub: the hub and one more vertex (the last) on a cycle, one component.
HubPairs hub_pairs(bool cyclic_hub = false) {
  const vertex_t sources = 1500, sinks = 1500, side = 400, hub = sources + sinks;
  std::vector<Edge> edges;
  for (vertex_t s = 0; s < sources; ++s) edges.emplace_back(s, hub);
  for (vertex_t t = sources; t < sources + sinks; ++t) edges.emplace_back(hub, t);
  for (vertex_t c = hub + 1; c + 1 < hub + 1 + side; ++c) edges.emplace_back(c, c + 1);
  edges.emplace_back(hub + 1, vertex_t(sources));  // the side chain's head reaches a sink
  const vertex_t twin = hub + 1 + side;
  if (cyclic_hub) edges.emplace_back(hub, twin), edges.emplace_back(twin, hub);
  HubPairs h{Graph(size_t(hub) + 1 + side + cyclic_hub, std::move(edges)), {}, {}};
  std::mt19937_64 rng(606);
  auto& us = h.us;
  auto& vs = h.vs;
  auto any = [&] { return vertex_t(rng() % h.g.vertex_count()); };
  auto hub_pair = [&] {
    us.push_back(vertex_t(rng() % sources)), vs.push_back(vertex_t(sources + rng() % sinks));
  };
  // One pair in 64 is not a source's and a sink's: a random pair, the hub and itself (not
  // reachable unless cyclic_hub, though its own supportive bit is on both sides), or two of
  // the side chain (reachable, not through the hub).
  auto other = [](size_t i) { return i % 64 == 7 || i % 192 == 27 || i % 192 == 123; };
  for (size_t i = 0; i < 6000; ++i) {
    if (i % 64 == 7) {
      us.push_back(any()), vs.push_back(any());
    } else if (i % 192 == 27) {
      us.push_back(hub), vs.push_back(hub);
    } else if (i % 192 == 123) {
      const vertex_t c = hub + 1 + vertex_t(rng() % (side - 1));
      us.push_back(c), vs.push_back(c + 1 + vertex_t(rng() % (hub + side - c)));
    } else {
      hub_pair();
    }
  }
  h.mostly_hub = us.size();
  ReachIndex index(build_index(h.g));
  QueryStats tallied;
  for (size_t i = 0; i < 200; ++i)
    if (!other(i)) Querier(index).tally(us[i], vs[i], tallied);
  EXPECT_EQ(tallied.supportive, tallied.queries);
  for (size_t i = 0; i < 3000; ++i) us.push_back(any()), vs.push_back(any());
  for (vertex_t c = hub + 1; c + 2 < hub + side; c += 3) us.push_back(c), vs.push_back(c + 2);
  h.others_end = us.size();
  for (size_t i = 0; i < 2100; ++i) hub_pair();
  return h;
}

// A batch asks the supportive test first in the blocks after one nearly all answered so,
// falls back to every test for the rest, and turns back on the other pairs' blocks (the last
// hub pairs: the loop's end, past the keys requested ahead); the Querier counts the pairs it
// answered so.
TEST(ReachIndex, BatchesOfHubPairsAskTheSupportiveTestFirst) {
  const HubPairs h = hub_pairs();
  ReachIndex index(build_index(h.g));
  Querier q(index);
  const auto reach = bfs_all(h.g);
  std::unique_ptr<bool[]> out(new bool[h.us.size()]);
  q.reaches_many(h.us.data(), h.vs.data(), h.us.size(), out.get());
  for (size_t i = 0; i < h.us.size(); ++i)
    ASSERT_EQ(out[i], bool(reach[h.us[i]][h.vs[i]])) << i << ": " << h.us[i] << " -> " << h.vs[i];
  // Blocks 2-6 of the first 6,000 pairs and the last one or two of the hub pairs at the end.
  EXPECT_GT(q.stats().supportive_first, uint64_t{5000});
}

// Lone calls learn the same from sampled calls, once the SupportiveKey pays: the hub pairs
// at first ask every test; after about 64 of them a vertex the supportive test first (from
// the SupportiveKey, made then); every test again on the other pairs, and the first again on
// hub pairs; each answer against BFS. Another querier of the index reads the keys made once
// it has asked as often.
TEST(ReachIndex, LoneCallsOnHubPairsAskTheSupportiveTestFirst) {
  const HubPairs h = hub_pairs();
  ReachIndex index(build_index(h.g));
  const auto reach = bfs_all(h.g);
  auto ask = [&](Querier& q, size_t b, size_t e) {
    for (size_t i = b; i < e; ++i)
      ASSERT_EQ(q.reaches(h.us[i], h.vs[i]), bool(reach[h.us[i]][h.vs[i]]))
          << i << ": " << h.us[i] << " -> " << h.vs[i];
  };
  for (Querier q : {Querier(index), Querier(index)}) {
    ask(q, 0, h.mostly_hub);
    EXPECT_FALSE(q.lone_supportive_first());
    for (int round = 0; round < 200 && !q.lone_supportive_first(); ++round)
      ask(q, h.others_end, h.us.size());
    EXPECT_TRUE(q.lone_supportive_first());
    EXPECT_TRUE(q.lone_reads_supportive_keys());
    ask(q, 0, h.mostly_hub);
    EXPECT_TRUE(q.lone_supportive_first());
    ask(q, h.mostly_hub, h.others_end);
    EXPECT_FALSE(q.lone_supportive_first());
    ask(q, h.others_end, h.us.size());
    EXPECT_TRUE(q.lone_supportive_first());
    // Other pairs that are all sampled turn it back too (16 misses with 16 samples had
    // read as 1 miss in 64 calls).
    std::vector<size_t> sampled;
    for (size_t i = h.mostly_hub; i < h.others_end; ++i)
      if (((h.us[i] + h.vs[i]) & 63) == 63) sampled.push_back(i);
    ASSERT_GT(sampled.size(), 20u);
    for (size_t i : sampled) ask(q, i, i + 1);
    EXPECT_FALSE(q.lone_supportive_first());
  }
}

// Asking the supportive test first, a lone call reads no order: a shared bit says yes for two
// different vertices (in one component only when it is the supportive one, then cyclic), never
// for a vertex and itself, which only a cyclic component reaches. With the test still asked
// first and inline (no pair sampled): the hub and itself (alone: no; on a cycle with a twin:
// yes) and the hub and its twin both ways (yes); then every vertex against the hub both ways,
// against BFS, on whichever path the calls take by then (their misses turn the test off).
TEST(ReachIndex, LoneCallsAskingTheSupportiveTestFirstAnswerPairsInsideItsComponent) {
  for (bool cyclic : {false, true}) {
    const HubPairs h = hub_pairs(cyclic);
    ReachIndex index(build_index(h.g));
    const auto reach = bfs_all(h.g);
    Querier q(index);
    for (int round = 0; round < 200 && !q.lone_supportive_first(); ++round)
      for (size_t i = h.others_end; i < h.us.size(); ++i) q.reaches(h.us[i], h.vs[i]);
    ASSERT_TRUE(q.lone_supportive_first());
    const vertex_t hub = 3000, twin = vertex_t(h.g.vertex_count() - 1);
    std::vector<std::pair<vertex_t, vertex_t>> inside = {{hub, hub}};
    if (cyclic) inside.insert(inside.end(), {{hub, twin}, {twin, hub}, {twin, twin}});
    for (const auto& [x, y] : inside) {
      ASSERT_NE((x + y + 1) & 63, 0u) << "a sampled pair is answered out of line";
      ASSERT_EQ(bool(reach[x][y]), cyclic);
      ASSERT_EQ(q.reaches(x, y), cyclic) << cyclic << ": " << x << " -> " << y;
      ASSERT_TRUE(q.lone_supportive_first());
    }
    for (vertex_t w = 0; w < h.g.vertex_count(); ++w) {
      ASSERT_EQ(q.reaches(w, hub), bool(reach[w][hub])) << cyclic << ": " << w << " -> hub";
      ASSERT_EQ(q.reaches(hub, w), bool(reach[hub][w])) << cyclic << ": hub -> " << w;
    }
  }
}

TEST(ReachIndex, BatchesOnIndexesPastTheCacheEqualBfs) {
  // reaches_many requests the keys ahead only past 1,024 vertices (32 KiB of keys): the
  // batches there, on sampled sources' every target in a scrambled order, against BFS (the
  // other tests' graphs are mostly below it).
  std::vector<Graph> graphs;
  graphs.push_back(random_graph(12000, 30000, true, false, 79));
  graphs.push_back(random_graph(12000, 18000, false, true, 80));
  graphs.push_back(giant_scc_with_tail(10000, 6, 0.4, 2.0));
  for (const Graph& g : graphs) {
    ReachIndex index(build_index(g));
    Querier q(index);
    const size_t n = g.vertex_count();
    std::vector<vertex_t> us, vs;
    std::vector<uint8_t> expected;
    for (vertex_t u = 0; u < n; u += 211) {
      std::vector<uint8_t> r(n, 0);
      for (vertex_t w : descendants(g, u)) r[w] = 1;
      for (vertex_t v = 0; v < n; ++v) us.push_back(u), vs.push_back(v), expected.push_back(r[v]);
    }
    std::mt19937_64 rng(n);
    for (size_t i = us.size(); i > 1; --i) {
      const size_t j = rng() % i;
      std::swap(us[i - 1], us[j]);
      std::swap(vs[i - 1], vs[j]);
      std::swap(expected[i - 1], expected[j]);
    }
    std::unique_ptr<bool[]> out(new bool[us.size()]);
    q.reaches_many(us.data(), vs.data(), us.size(), out.get());
    for (size_t i = 0; i < us.size(); ++i)
      ASSERT_EQ(out[i], bool(expected[i])) << us[i] << " -> " << vs[i];
  }
}

TEST(ReachIndex, StrictSemanticsForSelfPairsAndCycles) {
  // 0 -> 1 -> 2 -> 0 (a cycle), 3 -> 3 (a self-loop), 4 alone, 2 -> 5.
  const Graph g(6, {{0, 1}, {1, 2}, {2, 0}, {3, 3}, {2, 5}});
  ReachIndex index(build_index(g));
  Querier q(index);
  EXPECT_TRUE(q.reaches(0, 0));
  EXPECT_TRUE(q.reaches(1, 0));
  EXPECT_TRUE(q.reaches(3, 3));
  EXPECT_FALSE(q.reaches(4, 4));
  EXPECT_FALSE(q.reaches(5, 5));
  EXPECT_TRUE(q.reaches(1, 5));
  EXPECT_FALSE(q.reaches(5, 1));
}

TEST(ReachIndex, LabelsAreFoundByName) {
  const Graph g(3, {{0, 1}, {1, 2}}, {"zeta", "alpha", "mid"});
  ReachIndex index(build_index(g));
  EXPECT_FALSE(index.view().identity_labels);
  EXPECT_EQ(index.find("zeta"), vertex_t(0));
  EXPECT_EQ(index.find("mid"), vertex_t(2));
  EXPECT_EQ(index.find("alph"), std::nullopt);
  EXPECT_EQ(index.find(""), std::nullopt);
  EXPECT_EQ(index.label(1), "alpha");
  const Graph numbered(12, {{0, 11}});
  ReachIndex plain(build_index(numbered));
  EXPECT_TRUE(plain.view().identity_labels);
  EXPECT_EQ(plain.find("11"), vertex_t(11));
  EXPECT_EQ(plain.find("12"), std::nullopt);
  EXPECT_EQ(plain.find("011"), std::nullopt);
  EXPECT_EQ(plain.find("-1"), std::nullopt);
  EXPECT_EQ(plain.find("99999999999999999999"), std::nullopt);
  EXPECT_EQ(plain.find("0"), vertex_t(0));
  // Only canonical decimals: the bytes either side of the digits, signs, spaces, a number
  // past the vertices in 10 digits, a byte past ASCII.
  for (const char* other : {"1/", "1:", "/", ":", "+1", " 1", "1 ", "1a", "4294967296", "\xff\x31"})
    EXPECT_EQ(plain.find(other), std::nullopt) << other;
}

// The inline path (vertex keys, then the labels, then the search) on the graphs where its
// shortcuts are most likely to go wrong: a lone vertex with and without a self-loop, two
// vertices both ways, a cycle through everything, a long chain (deep intervals), a complete
// DAG, a star out and in, and cycles hanging off a chain; every pair, lone, batched and by
// component, against BFS, and the tally's counts adding up.
TEST(ReachIndex, FastPathEqualsBfsOnAwkwardGraphs) {
  std::vector<std::pair<std::string, Graph>> graphs;
  graphs.emplace_back("single", Graph(1, {}));
  graphs.emplace_back("single loop", Graph(1, {{0, 0}}));
  graphs.emplace_back("two cycle", Graph(2, {{0, 1}, {1, 0}}));
  graphs.emplace_back("two one way", Graph(2, {{1, 0}}));
  std::vector<Edge> ring, chain, complete, star, hanging;
  for (vertex_t i = 0; i < 50; ++i) ring.emplace_back(i, (i + 1) % 50);
  for (vertex_t i = 0; i + 1 < 300; ++i) chain.emplace_back(299 - i - 1, 299 - i);
  for (vertex_t i = 0; i < 40; ++i)
    for (vertex_t j = i + 1; j < 40; ++j) complete.emplace_back(j, i);
  for (vertex_t i = 1; i < 60; ++i) star.emplace_back(0, i), star.emplace_back(i, 60);
  for (vertex_t i = 0; i + 1 < 90; ++i) {
    hanging.emplace_back(i, i + 1);
    if (i % 9 == 0) hanging.emplace_back(i + 2, i);  // a back edge: a cycle of three
    if (i % 13 == 0) hanging.emplace_back(i, i);
  }
  graphs.emplace_back("ring", Graph(50, std::move(ring)));
  graphs.emplace_back("chain", Graph(300, std::move(chain)));
  graphs.emplace_back("complete", Graph(40, std::move(complete)));
  graphs.emplace_back("star", Graph(61, std::move(star)));
  graphs.emplace_back("hanging cycles", Graph(90, std::move(hanging)));
  for (const auto& [name, g] : graphs)
    for (uint32_t supportive : {0u, 32u}) {
      BuildOptions o;
      o.supportive = supportive;
      ReachIndex index(build_index(g, o));
      expect_matches_bfs(g, index, name);
      const auto reach = bfs_all(g);
      Querier q(index);
      QueryStats st;
      const IndexView& iv = index.view();
      for (vertex_t u = 0; u < g.vertex_count(); ++u)
        for (vertex_t v = 0; v < g.vertex_count(); ++v) {
          ASSERT_EQ(q.reaches_component(iv.component_of[u], iv.component_of[v]), bool(reach[u][v]))
              << name << ": " << u << " -> " << v;
          q.tally(u, v, st);
          const VertexKey& k = index.keys()[u];
          const ComponentLabel& l = iv.labels[iv.component_of[u]];
          ASSERT_EQ(k.comp(), iv.component_of[u]);
          ASSERT_EQ(k.cyclic(), (l.bloom_in & kCyclicBit) != 0);
          expect_keys_test_as_labels(k, index.keys()[v], iv.component_of[u], iv.component_of[v], l,
                                     iv.labels[iv.component_of[v]]);
        }
      EXPECT_EQ(st.queries, g.vertex_count() * g.vertex_count()) << name;
      EXPECT_EQ(st.same_component + st.negative_cut + st.positive_cut + st.supportive + st.bloom +
                    st.searched,
                st.queries)
          << name;
    }
}

TEST(ReachIndex, KeysHoldLabelsUpToTheLargestKeyedIndex) {
  // Components and post numbers up to 2^30 - 1 (kMaxKeyedComponents): every lane keeps the
  // labels' unsigned order in its signed comparison, at the edges of the range.
  const uint32_t top = uint32_t(kMaxKeyedComponents) - 1;
  const std::vector<uint32_t> values = {0, 1, 2, top / 2, top - 2, top - 1, top};
  std::mt19937 rng(41);
  auto pick = [&] { return values[rng() % values.size()]; };
  for (int i = 0; i < 20000; ++i) {
    ComponentLabel a{}, b{};
    for (ComponentLabel* l : {&a, &b}) {
      l->post_f = pick(), l->tree_low_f = pick(), l->reach_low_f = pick();
      l->post_b = pick(), l->tree_low_b = pick(), l->reach_low_b = pick();
      l->sup_fwd = uint32_t(rng()), l->sup_bwd = uint32_t(rng());
      l->bloom_in = (rng() & 1) ? kCyclicBit : 0;
    }
    const uint32_t cu = pick(), cv = pick();
    if (cu == cv) b.bloom_in = a.bloom_in;  // one component, one label
    const VertexKey ku = make_key(cu, a), kv = make_key(cv, b);
    ASSERT_EQ(ku.comp(), cu);
    ASSERT_EQ(ku.cyclic(), a.bloom_in != 0);
    expect_keys_test_as_labels(ku, kv, cu, cv, a, b);
  }
}

TEST(ReachIndex, KeysOfAForgedLabelAreMadeWithoutOverflow) {
  // A forged index file's label may hold any 32-bit numbers (the loader checks what a query
  // could read outside the file, not the DFS numbers): its key wraps, defined, instead of
  // overflowing a signed negation (the sanitized build runs this under UBSan).
  const uint32_t values[] = {0, 1, 0x7FFFFFFFu, 0x80000000u, 0x80000001u, 0xFFFFFFFFu};
  for (uint32_t x : values) {
    ComponentLabel l{};
    l.post_f = l.post_b = l.tree_low_f = l.tree_low_b = l.reach_low_f = x;
    l.bloom_in = kCyclicBit;
    const VertexKey k = make_key(uint32_t(kMaxKeyedComponents) - 1, l);
    EXPECT_EQ(uint32_t(k.dst[2]), x);
    EXPECT_EQ(uint32_t(k.src[1]), 0u - x);
    EXPECT_EQ(k.comp(), uint32_t(kMaxKeyedComponents) - 1);
    EXPECT_TRUE(k.cyclic());
  }
}

TEST(ReachIndex, KeysAreRebuiltAfterAFileRoundTrip) {
  const Graph g = random_graph(200, 500, false, true, 77);
  auto loaded = load_index_from_bytes(index_image(build_index(g)));
  expect_matches_bfs(g, *loaded, "loaded");
  for (vertex_t v = 0; v < g.vertex_count(); ++v)
    ASSERT_EQ(loaded->keys()[v].comp(), loaded->view().component_of[v]);
}

TEST(ReachIndex, WithoutKeysTheChainAnswersTheSame) {
  // An index of 2^30 components or more has no keys; its queries take vertex -> component
  // -> label, here on indexes whose keys were dropped.
  for (const bool dag : {true, false}) {
    const Graph g = random_graph(300, 700, dag, !dag, 78);
    ReachIndex index(build_index(g));
    index.drop_keys();
    ASSERT_EQ(index.keys(), nullptr);
    expect_matches_bfs(g, index, dag ? "no keys, DAG" : "no keys, cyclic");
  }
}

TEST(ReachIndex, EmptyGraph) {
  ReachIndex index(build_index(Graph(0, {})));
  EXPECT_EQ(index.vertex_count(), 0u);
  Querier q(index);
  q.reaches_many(nullptr, nullptr, 0, nullptr);
  EXPECT_EQ(q.stats().queries, 0u);
  EXPECT_EQ(index.find("0"), std::nullopt);
  auto loaded = load_index_from_bytes(index_image(build_index(Graph(0, {}))));
  EXPECT_EQ(loaded->vertex_count(), 0u);
}

}  // namespace
}  // namespace closure::reach
