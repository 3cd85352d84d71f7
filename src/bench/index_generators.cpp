// Power-law and commit-history generators for the index benchmarks.
#include "bench/index_generators.hpp"

#include <algorithm>
#include <cmath>
#include <numeric>
#include <random>
#include <stdexcept>
#include <vector>

#include "bench/generators.hpp"

namespace closure {
namespace {

std::vector<vertex_t> permutation(size_t n, std::mt19937_64& rng) {
  std::vector<vertex_t> p(n);
  std::iota(p.begin(), p.end(), vertex_t{0});
  std::shuffle(p.begin(), p.end(), rng);
  return p;
}

size_t parse_count(const std::string& text) {
  size_t pos = 0;
  const double x = std::stod(text, &pos);
  double scale = 1;
  if (pos < text.size()) {
    const char s = text[pos];
    scale = s == 'k' || s == 'K' ? 1e3 : s == 'M' || s == 'm' ? 1e6 : s == 'G' ? 1e9 : 0;
    if (scale == 0 || pos + 1 != text.size())
      throw std::invalid_argument("bad count '" + text + "' (use e.g. 1000, 10k, 3M)");
  }
  return size_t(std::llround(x * scale));
}

}  // namespace

Graph power_law_graph(size_t n, size_t m, double gamma, uint64_t seed) {
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

Graph index_bench_graph(const std::string& spec, uint64_t seed) {
  std::vector<std::string> parts;
  for (size_t start = 0;;) {
    const size_t colon = spec.find(':', start);
    parts.push_back(spec.substr(start, colon - start));
    if (colon == std::string::npos) break;
    start = colon + 1;
  }
  if (parts[0] == "random-dag" && parts.size() == 3)
    return random_dag(parse_count(parts[1]), parse_count(parts[2]), seed);
  if (parts[0] == "power-law" && parts.size() == 3)
    return power_law_graph(parse_count(parts[1]), parse_count(parts[2]), 2.5, seed);
  if (parts[0] == "commits" && parts.size() == 2)
    return commit_history_dag(parse_count(parts[1]), seed);
  throw std::invalid_argument("unknown graph '" + spec +
                              "' (random-dag:N:M, power-law:N:M, commits:N)");
}

}  // namespace closure
