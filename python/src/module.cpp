// closure._closure: the compiled half of the Python package `closure` (bindings only; the
// logic is the library's, the conveniences are closure/__init__.py's).
#include "bindings.hpp"
#include "closure/version.hpp"

PYBIND11_MODULE(_closure, m) {
  namespace cp = closure::python;
  m.doc() = "Compiled bindings of the closure library; use the `closure` package instead.";
  m.attr("__version__") = CLOSURE_VERSION;
  cp::bind_errors(m);
  cp::bind_graph(m);
  cp::bind_closure(m);
  cp::bind_devices(m);
  cp::bind_reach(m);
  cp::bind_index(m);
  cp::bind_scc(m);
}
