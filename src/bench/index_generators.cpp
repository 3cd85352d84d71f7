// Power-law and commit-history generators for the index benchmarks.
#include "bench/index_generators.hpp"

#include <algorithm>
#include <cmath>
#include <numeric>
#include <random>
#include <stdexcept>
#include <vector>

#include "bench/generators.hpp"
#include "closure/errors.hpp"

namespace closure {
namespace {

std::vector<vertex_t> permutation(size_t n, std::mt19937_64& rng) {
  std::vector<vertex_t> p(n);
  std::iota(p.begin(), p.end(), vertex_t{0});
  std::shuffle(p.begin(), p.end(), rng);
  return p;
}

}  // namespace

Graph power_law_graph(size_t n, size_t m, double gamma, uint64_t seed) {
  // Self-loops are dropped and redrawn: with fewer than two vertices every draw is one, and
  // the loop below would never end (n = 0: nothing to draw at all).
  if (m > 0 && n < 2) throw UsageError("power_law_graph: edges need 2 vertices");
  // The inverse transform needs a < 1, that is gamma > 2.
  if (!(gamma > 2)) throw UsageError("power_law_graph: gamma must exceed 2");
  std::mt19937_64 rng(seed);
  const std::vector<vertex_t> out_rank = permutation(n, rng), in_rank = permutation(n, rng);
  // Inverse transform of the continuous Zipf density ~ x^-a on [0, n): rank = n U^(1/(1-a)).
  const double a = 1.0 / (gamma - 1.0), e = 1.0 / (1.0 - a);
  std::uniform_real_distribution<double> U(0.0, 1.0);
  auto draw = [&] { return std::min<size_t>(n - 1, size_t(double(n) * std::pow(U(rng), e))); };
  std::vector<Edge> edges;
  edges.reserve(m);
  while (edges.size() < m) {
    const vertex_t u = out_rank[draw()], v = in_rank[draw()];
    if (u != v) edges.emplace_back(u, v);
  }
  return Graph(n, std::move(edges));
}

Graph commit_history_dag(size_t n, uint64_t seed) {
  std::mt19937_64 rng(seed);
  const std::vector<vertex_t> id = permutation(n, rng);
  std::vector<Edge> edges;
  edges.reserve(n + n / 4);
  std::uniform_real_distribution<double> U(0.0, 1.0);
  std::vector<size_t> branches;  // tips of open topic branches (commit numbers)
  std::vector<size_t> main_line{0};
  for (size_t c = 1; c < n; ++c) {
    const double r = U(rng);
    if (r < 0.35) {
      // A main-line commit; sometimes a merge of an open branch.
      const size_t parent = main_line.back();
      edges.emplace_back(id[c], id[parent]);
      if (!branches.empty() && U(rng) < 0.3) {
        const size_t k = std::uniform_int_distribution<size_t>(0, branches.size() - 1)(rng);
        edges.emplace_back(id[c], id[branches[k]]);
        branches[k] = branches.back();
        branches.pop_back();
      }
      main_line.push_back(c);
    } else if (r < 0.45 || branches.empty()) {
      // A new topic branch from one of the last 50 main-line commits.
      const size_t back = std::min<size_t>(main_line.size(), 50);
      const size_t from =
          main_line[main_line.size() - 1 - std::uniform_int_distribution<size_t>(0, back - 1)(rng)];
      edges.emplace_back(id[c], id[from]);
      branches.push_back(c);
    } else {
      // A commit on an open branch (rarely abandoned afterwards: stays unmerged).
      const size_t k = std::uniform_int_distribution<size_t>(0, branches.size() - 1)(rng);
      edges.emplace_back(id[c], id[branches[k]]);
      branches[k] = c;
      if (U(rng) < 0.005) {
        branches[k] = branches.back();
        branches.pop_back();
      }
    }
  }
  return Graph(n, std::move(edges));
}

namespace {

// The kind and sizes of a "kind:N[:M]" spec, checked: UsageError naming the valid ranges.
struct IndexSpec {
  std::string kind;
  size_t n = 0, m = 0;
};

IndexSpec parse_index_spec(const std::string& spec) {
  std::vector<std::string> parts;
  for (size_t start = 0;;) {
    const size_t colon = spec.find(':', start);
    parts.push_back(spec.substr(start, colon - start));
    if (colon == std::string::npos) break;
    start = colon + 1;
  }
  const size_t most = max_generated_vertices();
  IndexSpec s{parts[0]};
  if (s.kind == "random-dag" && parts.size() == 3) {
    s.n = parse_generated_count(parts[1], spec, "N", 1, most);
    s.m = parse_generated_count(parts[2], spec, "M", 0, s.n * (s.n - 1) / 2);
  } else if (s.kind == "power-law" && parts.size() == 3) {
    // Two vertices at least: the generator draws edges between distinct ones. M is bounded
    // by memory (check_generated_memory), not by the pairs there are: its edges may repeat.
    s.n = parse_generated_count(parts[1], spec, "N", 2, most);
    s.m = parse_generated_count(parts[2], spec, "M", 0, size_t{1} << 40);
  } else if (s.kind == "commits" && parts.size() == 2) {
    s.n = parse_generated_count(parts[1], spec, "N", 1, most);
    s.m = s.n + s.n / 4;  // about: one parent a commit, two for merges
  } else {
    throw UsageError("unknown generated graph '" + spec +
                     "' (random-dag:N:M, power-law:N:M, commits:N)");
  }
  return s;
}

}  // namespace

void check_index_bench_spec(const std::string& spec) {
  parse_index_spec(spec);
}

Graph index_bench_graph(const std::string& spec, uint64_t seed) {
  const IndexSpec s = parse_index_spec(spec);
  check_generated_memory(spec, s.n, double(s.m));
  if (s.kind == "random-dag") return random_dag(s.n, s.m, seed);
  if (s.kind == "power-law") return power_law_graph(s.n, s.m, 2.5, seed);
  return commit_history_dag(s.n, seed);
}

}  // namespace closure
