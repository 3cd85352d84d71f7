// Shared test fixtures: the OpenCL runtime the kernel tests run on (CLOSURE_DEVICE or the
// default device: PoCL in CI), and fixed-seed random inputs.
#pragma once

#include <gtest/gtest.h>

#include <algorithm>
#include <memory>
#include <numeric>
#include <random>
#include <utility>
#include <vector>

#include "closure/graph/graph.hpp"
#include "closure/ocl/device.hpp"
#include "closure/ocl/runtime.hpp"

namespace closure::testing {

// One runtime for the whole test binary (programs stay cached across tests); null when
// the machine has no OpenCL device at all.
inline ocl::Runtime* test_runtime() {
  static std::unique_ptr<ocl::Runtime> runtime = [] {
    auto device = ocl::choose_device("");
    return device ? std::make_unique<ocl::Runtime>(*device) : nullptr;
  }();
  return runtime.get();
}

#define CLOSURE_REQUIRE_DEVICE() \
  if (!::closure::testing::test_runtime()) GTEST_SKIP() << "no OpenCL device"

// The H200's description as the OpenCL driver gives it (what tuning rows and the cost model
// read), for tests that need a GPU's facts without one.
inline ocl::DeviceInfo h200_description() {
  ocl::DeviceInfo d;
  d.name = "NVIDIA H200";
  d.vendor = "NVIDIA Corporation";
  d.is_gpu = true;
  d.compute_units = 132;
  d.max_work_group = 1024;
  d.local_mem_bytes = 48 * 1024;
  d.global_mem_bytes = size_t{140} << 30;
  d.max_alloc_bytes = size_t{35} << 30;
  return d;
}

// The awkward sizes every kernel is checked on.
inline constexpr size_t kAwkwardSizes[] = {1, 7, 31, 32, 33, 63, 65, 100, 257, 1000};

// Random graphs with cycles: a DAG part over a hidden order plus back edges (so SCCs of
// several sizes), self-loops now and then, isolated vertices.
inline Graph random_cyclic_graph(std::mt19937_64& rng, size_t n) {
  std::vector<Edge> edges;
  std::uniform_int_distribution<vertex_t> pick(0, vertex_t(n - 1));
  const double degree = std::uniform_real_distribution<double>(0.3, 4.0)(rng);
  const double back = std::uniform_real_distribution<double>(0.0, 0.15)(rng);
  for (size_t i = 0; i < size_t(degree * double(n)); ++i) {
    vertex_t u = pick(rng), v = pick(rng);
    if (u > v && std::uniform_real_distribution<double>(0, 1)(rng) >= back) std::swap(u, v);
    edges.emplace_back(u, v);
  }
  std::vector<vertex_t> perm(n);
  std::iota(perm.begin(), perm.end(), 0);
  std::shuffle(perm.begin(), perm.end(), rng);
  for (auto& [u, v] : edges) u = perm[u], v = perm[v];
  return Graph(n, std::move(edges));
}

// seen[t] = 1 for every t reached from s by a path of one or more edges (seen is resized
// and cleared): the reference that closures are checked against.
inline void reached_from(const Graph& g, vertex_t s, std::vector<uint8_t>& seen) {
  seen.assign(g.vertex_count(), 0);
  std::vector<vertex_t> stack(g.successors(s).begin(), g.successors(s).end());
  while (!stack.empty()) {
    const vertex_t x = stack.back();
    stack.pop_back();
    if (seen[x]) continue;
    seen[x] = 1;
    for (vertex_t y : g.successors(x)) stack.push_back(y);
  }
}

}  // namespace closure::testing
