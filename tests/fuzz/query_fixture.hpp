// The fixed graph the `query --pairs` fuzz targets ask about: a cycle (0 1 2), a DAG part
// (2 -> 3 -> 4, 6 -> 3), a self-loop (5) and an isolated vertex (7), with its closure (the
// reference) and a reachability index over it. Labels given: a named index (its name table);
// none: vertices called 0..7, a numbered index.
#pragma once

#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "closure/algorithms/host_closure.hpp"
#include "closure/reach/living_index.hpp"
#include "closure/reach/reach_index.hpp"

namespace closure::fuzz {

struct QueryFixture {
  explicit QueryFixture(std::vector<std::string> labels)
      : graph(8, {{0, 1}, {1, 2}, {2, 0}, {2, 3}, {3, 4}, {5, 5}, {6, 3}}, std::move(labels)) {}
  Graph graph;
  Closure closure = closure_sparse(graph);
  std::unique_ptr<reach::LivingIndex> index = std::make_unique<reach::LivingIndex>(
      std::make_shared<const reach::ReachIndex>(reach::build_index(graph)));
};

}  // namespace closure::fuzz
