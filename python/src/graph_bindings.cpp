// closure._closure.Graph: the library's Graph (CSR over vertices 0..n-1 with labels), built
// from arrays that the Python side prepared, or read from a file by the library's readers.
#include <pybind11/stl.h>

#include <cstdint>
#include <string>

#include "bindings.hpp"
#include "closure/errors.hpp"
#include "closure/graph/read_graph.hpp"
#include "interruptible.hpp"

namespace closure::python {
namespace {

// (n, sources, targets) -> Graph; ids are checked here, so Python callers get a ValueError
// rather than a crash for an id out of range.
Graph graph_from_edges(size_t n,
                       py::array_t<uint32_t, py::array::c_style | py::array::forcecast> us,
                       py::array_t<uint32_t, py::array::c_style | py::array::forcecast> vs) {
  if (us.ndim() != 1 || vs.ndim() != 1 || us.shape(0) != vs.shape(0))
    throw UsageError("from_edges: sources and targets must be 1-D of equal length");
  if (n > kMaxVertices)
    throw UsageError("from_edges: " + std::to_string(n) + " vertices, more than the " +
                     std::to_string(kMaxVertices) + " supported");
  const uint32_t* u = us.data();
  const uint32_t* v = vs.data();
  const size_t m = size_t(us.shape(0));
  return run_interruptible([&] {
    std::vector<Edge> edges(m);
    for (size_t i = 0; i < m; ++i) {
      if (u[i] >= n || v[i] >= n)
        throw UsageError("from_edges: edge " + std::to_string(i) + " (" + std::to_string(u[i]) +
                         ", " + std::to_string(v[i]) + ") has an endpoint beyond the " +
                         std::to_string(n) + " vertices");
      edges[i] = {u[i], v[i]};
    }
    return Graph(n, std::move(edges));
  });
}

// Labels as integers when every one is a canonical decimal integer (so int -> str gives
// the label back); None otherwise. Unlabelled graphs ("0".."n-1") give 0..n-1.
py::object integer_labels(const Graph& g) {
  const auto& labels = g.labels();
  std::vector<int64_t> out(g.vertex_count());
  if (labels.empty()) {
    for (size_t i = 0; i < out.size(); ++i) out[i] = int64_t(i);
    return to_numpy(std::move(out));
  }
  // Kept as numbers: read as they are, not spelled and parsed back (those past int64 aside).
  if (const VertexLabels::Numbers* numbers = labels.numbers()) {
    for (size_t i = 0; i < numbers->size(); ++i) {
      if ((*numbers)[i] > uint64_t(INT64_MAX)) return py::none();
      out[i] = int64_t((*numbers)[i]);
    }
    return to_numpy(std::move(out));
  }
  for (size_t i = 0; i < labels.size(); ++i)
    if (!canonical_integer(labels[i], out[i])) return py::none();
  return to_numpy(std::move(out));
}

template <class T>
py::array_t<T> copy_to_numpy(std::span<const T> s) {
  return to_numpy(std::vector<T>(s.begin(), s.end()));
}

// networkx's adjacency (a dict of dicts) whose keys are exactly 0..n-1 in order, straight
// into a Graph: walking the dicts in C (PyDict_Next) is several times faster than
// np.fromiter over them from Python. None when the keys are anything else (the caller then maps
// labels in Python). Holds the GIL: it reads Python objects, and takes milliseconds.
py::object graph_from_identity_adjacency(const py::dict& adj) {
  const size_t n = py::len(adj);
  if (n > kMaxVertices) return py::none();
  Py_ssize_t pos = 0;
  PyObject *key = nullptr, *row = nullptr;
  // The dicts are the rows: sized first (growing by doubling re-faults pages), then
  // filled straight into CSR, with no edge list to sort by source.
  std::vector<uint64_t> offsets;
  offsets.reserve(n + 1);
  offsets.push_back(0);
  while (PyDict_Next(adj.ptr(), &pos, &key, &row)) {
    if (!PyDict_Check(row)) return py::none();
    offsets.push_back(offsets.back() + uint64_t(PyDict_Size(row)));
  }
  std::vector<vertex_t> targets(offsets.back());
  pos = 0;
  size_t u = 0;
  // Vertex ids fit one internal digit of an exact int: read without a call (a third of
  // this loop); anything else (bool, numpy ints, ...) falls back or takes the general path.
  auto as_index = [&](PyObject* o, size_t& out) {
    if (!PyLong_CheckExact(o)) return false;
#if PY_VERSION_HEX >= 0x030C0000
    if (PyUnstable_Long_IsCompact(reinterpret_cast<PyLongObject*>(o))) {
      const Py_ssize_t x = PyUnstable_Long_CompactValue(reinterpret_cast<PyLongObject*>(o));
      if (x < 0 || uint64_t(x) >= n) return false;
      out = size_t(x);
      return true;
    }
#else
    if (Py_SIZE(o) == 0 || Py_SIZE(o) == 1) {
      const uint64_t x = Py_SIZE(o) == 0 ? 0 : reinterpret_cast<PyLongObject*>(o)->ob_digit[0];
      if (x >= n) return false;
      out = size_t(x);
      return true;
    }
#endif
    const long long x = PyLong_AsLongLong(o);
    if (x == -1 && PyErr_Occurred()) {
      PyErr_Clear();
      return false;
    }
    if (x < 0 || uint64_t(x) >= n) return false;
    out = size_t(x);
    return true;
  };
  while (PyDict_Next(adj.ptr(), &pos, &key, &row)) {
    size_t k = 0;
    if (!as_index(key, k) || k != u) return py::none();
    Py_ssize_t at = 0;
    PyObject *target = nullptr, *attributes = nullptr;
    uint64_t i = offsets[u];
    while (PyDict_Next(row, &at, &target, &attributes)) {
      size_t v = 0;
      if (!as_index(target, v) || i == offsets[u + 1]) return py::none();
      targets[i++] = vertex_t(v);
    }
    if (i != offsets[u + 1]) return py::none();  // (the GIL is held: rows cannot change)
    ++u;
  }
  return py::cast(Graph::from_rows(std::move(offsets), std::move(targets)));
}

}  // namespace

void bind_graph(py::module_& m) {
  py::class_<Graph>(m, "Graph", "A directed graph: CSR over vertices 0..n-1, with labels.")
      .def_static("from_edges", &graph_from_edges, py::arg("n"), py::arg("sources"),
                  py::arg("targets"),
                  "Graph over vertices 0..n-1 with edges (sources[i], targets[i]); duplicates "
                  "collapse.")
      .def_static(
          "from_rows",
          [](py::array_t<uint64_t, py::array::c_style | py::array::forcecast> offsets,
             py::array_t<uint32_t, py::array::c_style | py::array::forcecast> targets) {
            if (offsets.ndim() != 1 || targets.ndim() != 1 || offsets.shape(0) < 1)
              throw UsageError("from_rows: offsets (n + 1) and targets must be 1-D");
            std::vector<uint64_t> o(offsets.data(), offsets.data() + offsets.shape(0));
            std::vector<vertex_t> t(targets.data(), targets.data() + targets.shape(0));
            return Graph::from_rows(std::move(o), std::move(t));
          },
          py::arg("offsets"), py::arg("targets"),
          "Graph whose vertex u has the successors targets[offsets[u]:offsets[u+1]].")
      .def_static("from_identity_adjacency", &graph_from_identity_adjacency, py::arg("adj"),
                  "Graph from a networkx adjacency dict of dicts whose keys are 0..n-1 in "
                  "order; None when they are not.")
      .def_property_readonly("vertex_count", &Graph::vertex_count)
      .def_property_readonly("edge_count", &Graph::edge_count)
      .def(
          "labels",
          [](const Graph& g) {
            // label_text(): one that is not UTF-8 has its bad bytes as lone surrogates.
            py::list out(g.labels().size());
            for (size_t i = 0; i < g.labels().size(); ++i) out[i] = label_text(g.labels()[i]);
            return out;
          },
          "The input's labels (empty when the vertices are unlabelled 0..n-1).")
      .def_property_readonly(
          "labelled", [](const Graph& g) { return !g.labels().empty(); },
          "Whether the graph carries labels of its own (a file's); else they are 0..n-1.")
      .def("integer_labels", &integer_labels,
           "The labels as an int64 array when all are integers, else None.")
      .def("offsets", [](const Graph& g) { return copy_to_numpy(g.offsets()); })
      .def("targets", [](const Graph& g) { return copy_to_numpy(g.targets()); });

  m.def(
      "read_graph",
      [](const std::string& path, const std::string& format, std::optional<bool> header,
         const std::string& delimiter) {
        ReadOptions o(parse_input_format(format));
        o.header = !header ? HeaderRow::kGuess : *header ? HeaderRow::kPresent : HeaderRow::kAbsent;
        if (!delimiter.empty()) o.delimiter = parse_delimiter(delimiter);
        check_read_options(o);
        ReadResult r = run_interruptible([&] { return read_graph(path, o); });
        return py::make_tuple(std::move(r.graph), std::string(format_name(r.format)),
                              r.edge_records);
      },
      py::arg("path"), py::arg("format") = "auto", py::arg("header") = py::none(),
      py::arg("delimiter") = "",
      "Reads a graph file with the tool's readers: (Graph, format name, edge records).");
}

}  // namespace closure::python
