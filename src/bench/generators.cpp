// Synthetic benchmark graphs of issue 4: random DAG, giant SCC + tail, deep chain, dense DAG.
#include "bench/generators.hpp"

#include <algorithm>
#include <cmath>
#include <numeric>
#include <random>
#include <stdexcept>

namespace closure {

namespace {

std::vector<vertex_t> shuffled_ids(size_t n, std::mt19937_64& rng) {
  std::vector<vertex_t> perm(n);
  std::iota(perm.begin(), perm.end(), vertex_t{0});
  std::shuffle(perm.begin(), perm.end(), rng);
  return perm;
}

}  // namespace

Graph random_dag(size_t n, size_t m, uint64_t seed) {
  const uint64_t all_pairs = n < 2 ? 0 : uint64_t(n) * (n - 1) / 2;
  if (m > all_pairs) throw std::invalid_argument("random_dag: more edges than forward pairs");
  if (m * 2 > all_pairs) return dense_dag(n, double(m) / double(all_pairs), seed);
  std::mt19937_64 rng(seed);
  const std::vector<vertex_t> perm = shuffled_ids(n, rng);
  // Draw position pairs (i < j) until m distinct ones exist; then drop random extras.
  std::uniform_int_distribution<uint64_t> pick(0, n - 1);
  std::vector<uint64_t> keys;
  keys.reserve(m + m / 8 + 16);
  while (keys.size() < m) {
    const size_t want = (m - keys.size()) + (m - keys.size()) / 16 + 16;
    for (size_t k = 0; k < want; ++k) {
      uint64_t i = pick(rng), j = pick(rng);
      if (i == j) continue;
      if (i > j) std::swap(i, j);
      keys.push_back(i * n + j);
    }
    std::sort(keys.begin(), keys.end());
    keys.erase(std::unique(keys.begin(), keys.end()), keys.end());
  }
  std::shuffle(keys.begin(), keys.end(), rng);
  keys.resize(m);
  std::vector<Edge> edges;
  edges.reserve(m);
  for (uint64_t key : keys) edges.emplace_back(perm[key / n], perm[key % n]);
  return Graph(n, std::move(edges));
}

Graph giant_scc_with_tail(size_t n, uint64_t seed, double core_fraction, double degree) {
  std::mt19937_64 rng(seed);
  const std::vector<vertex_t> perm = shuffled_ids(n, rng);
  const size_t core =
      std::clamp<size_t>(size_t(double(n) * core_fraction), 1, std::max<size_t>(n, 1));
  std::vector<Edge> edges;
  edges.reserve(size_t(double(n) * degree) + n);
  // Core: a Hamiltonian cycle makes it one SCC; random chords make it a realistic one.
  std::uniform_int_distribution<size_t> in_core(0, core - 1);
  for (size_t i = 0; i < core && core > 1; ++i) edges.emplace_back(perm[i], perm[(i + 1) % core]);
  const size_t chords = size_t(double(core) * std::max(0.0, degree - 1));
  for (size_t k = 0; k < chords; ++k) edges.emplace_back(perm[in_core(rng)], perm[in_core(rng)]);
  // Tail: each vertex hangs off a random earlier one (so the core reaches it), plus
  // random forward edges inside the tail.
  for (size_t t = core; t < n; ++t) {
    std::uniform_int_distribution<size_t> earlier(0, t - 1);
    edges.emplace_back(perm[earlier(rng)], perm[t]);
  }
  if (n - core >= 2) {
    std::uniform_int_distribution<size_t> in_tail(core, n - 1);
    const size_t forward = size_t(double(n - core) * std::max(0.0, degree - 1));
    for (size_t k = 0; k < forward; ++k) {
      size_t a = in_tail(rng), b = in_tail(rng);
      if (a == b) continue;
      if (a > b) std::swap(a, b);
      edges.emplace_back(perm[a], perm[b]);
    }
  }
  return Graph(n, std::move(edges));
}

Graph deep_chain(size_t n, uint64_t seed) {
  std::mt19937_64 rng(seed);
  const std::vector<vertex_t> perm = shuffled_ids(n, rng);
  std::vector<Edge> edges;
  edges.reserve(n);
  for (size_t i = 0; i + 1 < n; ++i) edges.emplace_back(perm[i], perm[i + 1]);
  return Graph(n, std::move(edges));
}

Graph dense_dag(size_t n, double density, uint64_t seed) {
  std::mt19937_64 rng(seed);
  const std::vector<vertex_t> perm = shuffled_ids(n, rng);
  std::vector<Edge> edges;
  if (density <= 0 || n < 2) return Graph(n, {});
  edges.reserve(size_t(density * double(n) * double(n - 1) / 2 * 1.01) + 16);
  // Geometric gaps between chosen pairs: one random draw per edge, not per pair.
  const bool all = density >= 1.0;
  std::geometric_distribution<uint64_t> gap(all ? 0.5 : density);
  for (size_t i = 0; i + 1 < n; ++i)
    for (uint64_t j = i + 1 + (all ? 0 : gap(rng)); j < n; j += 1 + (all ? 0 : gap(rng)))
      edges.emplace_back(perm[i], perm[j]);
  return Graph(n, std::move(edges));
}

std::vector<std::string> issue4_graph_names() {
  return {"random_dag_100k_1M", "giant_scc_200k_tail", "chain_1M", "dense_dag_20k_10pct"};
}

NamedGraph issue4_graph(const std::string& name, double scale) {
  auto scaled = [&](double x) { return std::max<size_t>(2, size_t(std::llround(x * scale))); };
  if (name == "random_dag_100k_1M") return {name, random_dag(scaled(1e5), scaled(1e6), 4001)};
  if (name == "giant_scc_200k_tail") return {name, giant_scc_with_tail(scaled(2e5), 4002)};
  if (name == "chain_1M") return {name, deep_chain(scaled(1e6), 4003)};
  if (name == "dense_dag_20k_10pct") return {name, dense_dag(scaled(2e4), 0.10, 4004)};
  throw std::invalid_argument("unknown generated graph '" + name + "'");
}

}  // namespace closure
