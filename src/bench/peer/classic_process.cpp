// closure-classic: the classic method as a process of its own, the peer that whole-process
// benchmarks time `closure G` against (docs/benchmarks-startup.md, "A process's fixed cost"): the
// same reader, then one thread of SCC condensation and a bitset per component in reverse
// topological order, and the pair count on stdout. It loads neither OpenCL nor the CLI, so
// what separates the two processes is closure's own start-up and its method.
//   closure-classic GRAPH
#include <cstdio>
#include <exception>

#include "closure/algorithms/host_closure.hpp"
#include "closure/graph/read_graph.hpp"

int main(int argc, char** argv) {
  if (argc != 2) {
    std::fprintf(stderr, "usage: closure-classic GRAPH\n");
    return 2;
  }
  try {
    const closure::ReadResult read = closure::read_graph(argv[1]);
    const closure::Closure c = closure::closure_classic(read.graph);
    std::printf("%llu\n", (unsigned long long)c.pair_count());
  } catch (const std::exception& e) {
    std::fprintf(stderr, "closure-classic: %s\n", e.what());
    return 4;
  }
  return 0;
}
