// Generators for the reachability-index benchmarks, beside random_dag from
// generators.hpp: a power-law graph with cycles and a commit-history-like DAG.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>

#include "closure/graph/graph.hpp"

namespace closure {

// m edges whose sources and targets are drawn independently from Zipf-like weights
// (vertex of rank i has weight ~ (i+1)^(-1/(gamma-1)); separate random rankings for out-
// and in-degree), self-loops dropped: hubs reach each other, so a giant SCC forms, with
// a long tail of small components around it. Needs n >= 2 when m > 0 (self-loops are
// redrawn) and gamma > 2; throws std::invalid_argument otherwise.
Graph power_law_graph(size_t n, size_t m, double gamma, uint64_t seed);

// A git-like history of n commits, edges child -> parent (u reaches v: v is an ancestor
// of u). A first-parent main line; topic branches fork from a recent main-line commit,
// grow for a while and are merged back by a two-parent merge commit; a few branches are
// never merged.
Graph commit_history_dag(size_t n, uint64_t seed);

// The index benchmark's graphs by name: "random-dag:N:M", "power-law:N:M",
// "commits:N" (N, M may use a k/M suffix: 1M = 1,000,000). check_index_bench_spec throws
// UsageError, naming the valid forms and ranges, for a spec index_bench_graph refuses;
// index_bench_graph also refuses (OutOfMemoryError) a graph that would not fit in memory.
void check_index_bench_spec(const std::string& spec);
Graph index_bench_graph(const std::string& spec, uint64_t seed = 11);

}  // namespace closure
