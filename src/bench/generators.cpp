// Synthetic benchmark graphs: random DAG, giant SCC + tail, deep chain, road grid, dense DAG.
#include "bench/generators.hpp"

#include <algorithm>
#include <cctype>
#include <cmath>
#include <numeric>
#include <random>
#include <stdexcept>
#include <string_view>

#include "closure/errors.hpp"
#include "closure/graph/read_graph.hpp"
#include "closure/util/available_memory.hpp"

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
  if (m > all_pairs) throw UsageError("random_dag: more edges than forward pairs");
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
  if (n == 0) return Graph(0, {});  // the core's chords below need a vertex
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
  if (!(density > 0) || n < 2) return Graph(n, {});  // NaN too: no geometric gap for it
  edges.reserve(size_t(density * double(n) * double(n - 1) / 2 * 1.01) + 16);
  // Geometric gaps between chosen pairs: one random draw per edge, not per pair.
  const bool all = density >= 1.0;
  std::geometric_distribution<uint64_t> gap(all ? 0.5 : density);
  for (size_t i = 0; i + 1 < n; ++i)
    for (uint64_t j = i + 1 + (all ? 0 : gap(rng)); j < n; j += 1 + (all ? 0 : gap(rng)))
      edges.emplace_back(perm[i], perm[j]);
  return Graph(n, std::move(edges));
}

Graph road_grid(size_t n, uint64_t seed, double keep, double against) {
  const size_t side = size_t(std::llround(std::sqrt(double(n))));
  std::mt19937_64 rng(seed);
  const std::vector<vertex_t> perm = shuffled_ids(side * side, rng);
  std::uniform_real_distribution<double> uniform(0, 1);
  std::vector<Edge> edges;
  edges.reserve(size_t(2 * keep * double(side * side)) + 16);
  for (size_t y = 0; y < side; ++y)
    for (size_t x = 0; x < side; ++x) {
      const size_t v = y * side + x;
      // The segment to the right, then the one below.
      for (const size_t w : {x + 1 < side ? v + 1 : v, y + 1 < side ? v + side : v}) {
        if (w == v || uniform(rng) >= keep) continue;
        if (uniform(rng) < against)
          edges.emplace_back(perm[w], perm[v]);
        else
          edges.emplace_back(perm[v], perm[w]);
      }
    }
  return Graph(side * side, std::move(edges));
}

namespace {

// The issue-4 graphs: the one table that --help, "all" and the parser read.
enum class Shape { kRandomDag, kGiantScc, kChain, kRoadGrid, kDenseDag };
struct Issue4Row {
  const char* name;   // as tables print it
  const char* alias;  // the short name --generated takes as well
  Shape shape;
  double n, m;  // vertices and (about) edges at scale 1
};
constexpr double kDenseDensity = 0.10;
constexpr Issue4Row kIssue4Graphs[] = {
    {"random_dag_100k_1M", "random-dag", Shape::kRandomDag, 1e5, 1e6},
    {"giant_scc_200k_tail", "giant-scc", Shape::kGiantScc, 2e5, 1e6},
    {"chain_1M", "chain", Shape::kChain, 1e6, 1e6},
    {"road_grid_130k", "road", Shape::kRoadGrid, 129600, 2.07e5},
    {"dense_dag_20k_10pct", "dense-dag", Shape::kDenseDag, 2e4, 2e7},
};

const Issue4Row* find_issue4(const std::string& name) {
  for (const auto& row : kIssue4Graphs)
    if (name == row.name || name == row.alias) return &row;
  return nullptr;
}

uint64_t forward_pairs(size_t n) {
  return n < 2 ? 0 : uint64_t(n) * (n - 1) / 2;
}

size_t scaled(double x, double scale) {
  return std::max<size_t>(2, size_t(std::llround(x * scale)));
}

NamedGraph build_issue4(const Issue4Row& row, double scale) {
  const size_t n = scaled(row.n, scale);
  // The dense DAG's edges grow with n^2; the others' with n.
  check_generated_memory(
      row.name, n,
      row.shape == Shape::kDenseDag ? kDenseDensity * double(forward_pairs(n)) : row.m * scale);
  switch (row.shape) {
    case Shape::kRandomDag:  // at tiny scales m would exceed the forward pairs there are
      return {row.name,
              random_dag(n, std::min<uint64_t>(scaled(row.m, scale), forward_pairs(n)), 4001)};
    case Shape::kGiantScc:
      return {row.name, giant_scc_with_tail(n, 4002)};
    case Shape::kChain:
      return {row.name, deep_chain(n, 4003)};
    case Shape::kRoadGrid:
      return {row.name, road_grid(n, 4005)};
    case Shape::kDenseDag:
      return {row.name, dense_dag(n, kDenseDensity, 4004)};
  }
  throw InternalError("issue4_graph: a shape without a generator");
}

constexpr std::string_view kRandomDagPrefix = "random-dag:";

// N and M of "random-dag:N:M", checked (M at most the forward pairs of N vertices).
std::pair<size_t, size_t> random_dag_sizes(const std::string& spec) {
  const std::string rest = spec.substr(kRandomDagPrefix.size());
  const size_t colon = rest.find(':');
  if (colon == std::string::npos)
    throw UsageError("'" + spec + "': random-dag:N:M needs both N and M");
  const size_t n =
      parse_generated_count(rest.substr(0, colon), spec, "N", 1, max_generated_vertices());
  return {n, parse_generated_count(rest.substr(colon + 1), spec, "M", 0, forward_pairs(n))};
}

}  // namespace

std::vector<std::string> issue4_graph_names() {
  std::vector<std::string> names;
  for (const auto& row : kIssue4Graphs) names.push_back(row.name);
  return names;
}

std::string issue4_graph_help() {
  std::string out;
  for (const auto& row : kIssue4Graphs)
    out += std::string(out.empty() ? "" : ", ") + row.alias + " (" + row.name + ")";
  return out;
}

NamedGraph issue4_graph(const std::string& name, double scale) {
  const Issue4Row* row = find_issue4(name);
  if (!row) throw UsageError("unknown generated graph '" + name + "'");
  return build_issue4(*row, scale);
}

size_t max_generated_vertices() {
  return kMaxVertices;
}

size_t parse_generated_count(const std::string& text, const std::string& spec, const char* what,
                             size_t lo, size_t hi) {
  const std::string range = "a whole number in [" + std::to_string(lo) + ", " + std::to_string(hi) +
                            "] (k, M, G: 10^3, 10^6, 10^9)";
  const std::string bad = "'" + spec + "': " + what + " is '" + text + "'; it must be " + range;
  // A digit first: stod would take "-1", "inf" and "nan" as well.
  if (text.empty() || !std::isdigit(static_cast<unsigned char>(text[0]))) throw UsageError(bad);
  size_t pos = 0;
  double x = 0;
  try {
    x = std::stod(text, &pos);
  } catch (const std::exception&) {
    throw UsageError(bad);
  }
  double unit = 1;
  if (pos < text.size()) {
    const char s = text[pos];
    unit = s == 'k' || s == 'K' ? 1e3 : s == 'M' || s == 'm' ? 1e6 : s == 'G' ? 1e9 : 0;
    if (unit == 0 || pos + 1 != text.size()) throw UsageError(bad);
  }
  const double value = x * unit;
  if (!(value <= double(hi)) || value < double(lo) || std::floor(value) != value)
    throw UsageError(bad);
  return size_t(value);
}

void check_generated_memory(const std::string& spec, size_t n, double edges) {
  // Per vertex: ids, the permutation, CSR offsets; per edge: the edge list, the random
  // DAG's keys, the CSR targets.
  const double bytes = 16.0 * double(n) + 24.0 * edges;
  const size_t available = available_host_memory();
  if (bytes > double(available))
    throw OutOfMemoryError("generated graph " + spec + " (" + std::to_string(n) +
                           " vertices, about " + std::to_string(uint64_t(edges)) +
                           " edges) needs about " + format_bytes(bytes) + " of host memory; " +
                           format_bytes(double(available)) + " is available");
}

void check_generated_spec(const std::string& spec) {
  if (spec == "all" || find_issue4(spec)) return;
  if (spec.rfind(kRandomDagPrefix, 0) != 0)
    throw UsageError("unknown generated graph '" + spec + "' (all, " + issue4_graph_help() +
                     ", or random-dag:N:M)");
  random_dag_sizes(spec);
}

std::vector<std::string> expand_generated_specs(const std::vector<std::string>& specs) {
  std::vector<std::string> out;
  for (const auto& spec : specs)
    if (spec == "all")
      for (const auto& row : kIssue4Graphs) out.push_back(row.name);
    else
      out.push_back(spec);
  return out;
}

NamedGraph generated_graph(const std::string& spec, double scale) {
  check_generated_spec(spec);
  if (const Issue4Row* row = find_issue4(spec)) return build_issue4(*row, scale);
  // --scale applies to the sizes it states too (at least one vertex; at most every pair).
  const auto [stated_n, stated_m] = random_dag_sizes(spec);
  const size_t n = std::max<size_t>(1, size_t(std::llround(double(stated_n) * scale)));
  const size_t m =
      std::min<size_t>(forward_pairs(n), size_t(std::llround(double(stated_m) * scale)));
  check_generated_memory(spec, n, double(m));
  return {spec, random_dag(n, m, 1)};
}

}  // namespace closure
