// closure._closure.descendants, ancestors and transitive_reduction: the library's
// closure::reach functions (src/closure/reach/descendants.hpp) over vertex ids, run
// without the GIL. Labels, networkx's "u never among its own descendants" and the result
// types are closure/__init__.py's.
#include <string>
#include <vector>

#include "bindings.hpp"
#include "closure/reach/descendants.hpp"
#include "interruptible.hpp"

namespace closure::python {
namespace {

void check_vertex(const Graph& g, int64_t v) {
  if (v < 0 || uint64_t(v) >= g.vertex_count())
    throw std::out_of_range("vertex " + std::to_string(v) + " is beyond the " +
                            std::to_string(g.vertex_count()) + " vertices");
}

}  // namespace

void bind_reach(py::module_& m) {
  m.def(
      "descendants",
      [](const Graph& g, int64_t v) {
        check_vertex(g, v);
        return to_numpy(run_interruptible([&] { return reach::descendants(g, vertex_t(v)); }));
      },
      py::arg("graph"), py::arg("v"),
      "Vertex ids reachable from v by one or more edges, ascending (v itself iff on a cycle).");
  m.def(
      "ancestors",
      [](const Graph& g, int64_t v) {
        check_vertex(g, v);
        return to_numpy(run_interruptible([&] { return reach::ancestors(g, vertex_t(v)); }));
      },
      py::arg("graph"), py::arg("v"),
      "Vertex ids that reach v by one or more edges, ascending (v itself iff on a cycle).");
  m.def(
      "transitive_reduction",
      [](const Graph& g) {
        std::vector<vertex_t> us, vs;
        run_interruptible([&] {
          const std::vector<Edge> edges = reach::transitive_reduction(g);
          us.reserve(edges.size());
          vs.reserve(edges.size());
          for (const auto& [u, v] : edges) us.push_back(u), vs.push_back(v);
        });
        return py::make_tuple(to_numpy(std::move(us)), to_numpy(std::move(vs)));
      },
      py::arg("graph"),
      "(sources, targets) uint32 arrays: the fewest edges with the same closure, sorted.");
}

}  // namespace closure::python
