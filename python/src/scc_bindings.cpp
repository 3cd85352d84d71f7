// closure._closure.components and condensation: the library's strongly connected
// components (src/closure/algorithms/scc.hpp) over vertex ids, run without the GIL.
// Component ids are the library's: topological order of the condensation (every edge
// between two components goes from a lower id to a higher one). networkx's and scipy's
// shapes (a DAG with `members` and `mapping`, (n_components, labels)) are
// closure/_reach.py's.
#include <cstdint>
#include <vector>

#include "bindings.hpp"
#include "closure/algorithms/scc.hpp"
#include "interruptible.hpp"

namespace closure::python {
namespace {

// Tarjan is O(n + m); a graph below this many vertices + edges takes well under a
// millisecond, less than a worker thread's start.
constexpr size_t kShortWork = 50000;

bool short_work(const Graph& g) {
  return g.vertex_count() + g.edge_count() < kShortWork;
}

}  // namespace

void bind_scc(py::module_& m) {
  m.def(
      "components",
      [](const Graph& g) {
        std::vector<vertex_t> component_of;
        size_t count = 0;
        run_short_or_interruptible(short_work(g), [&] {
          SccResult scc = strongly_connected_components(g);
          count = scc.component_count();
          component_of = std::move(scc.component_of);
        });
        return py::make_tuple(count, to_numpy(std::move(component_of)));
      },
      py::arg("graph"),
      "(component count, uint32 component id of each vertex); ids in topological order of "
      "the condensation.");
  m.def(
      "condensation",
      [](const Graph& g) {
        std::vector<vertex_t> component_of, targets;
        std::vector<uint64_t> offsets;
        run_short_or_interruptible(short_work(g), [&] {
          SccResult scc = strongly_connected_components(g);
          CsrDag dag = condensation_csr(g, scc);
          component_of = std::move(scc.component_of);
          offsets = std::move(dag.offsets);
          targets = std::move(dag.targets);
        });
        return py::make_tuple(to_numpy(std::move(component_of)), to_numpy(std::move(offsets)),
                              to_numpy(std::move(targets)));
      },
      py::arg("graph"),
      "(component_of, offsets, targets): the components and the condensation DAG as CSR "
      "over component ids (edges c -> d with c < d, no duplicates).");
}

}  // namespace closure::python
