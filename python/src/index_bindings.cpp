// closure._closure.Index, build_index and load_index: the library's living reachability
// index (src/closure/reach/living_index.hpp: a base ReachIndex and a layer of appended
// vertices and edges) and its file (index_file.hpp). Queries take vertex ids; names are
// looked up here only for a loaded index (closure/_reach.py keeps the labels of one built
// in memory).
#include <pybind11/stl.h>

#include <memory>
#include <mutex>
#include <optional>
#include <shared_mutex>
#include <string>
#include <utility>
#include <vector>

#include "bindings.hpp"
#include "closure/algorithms/scc.hpp"
#include "closure/errors.hpp"
#include "closure/reach/index_file.hpp"
#include "closure/reach/living_index.hpp"
#include "closure/reach/reach_index.hpp"
#include "closure/util/cancel.hpp"
#include "interruptible.hpp"

namespace closure::python {
namespace {

using IdArray = py::array_t<uint32_t, py::array::c_style | py::array::forcecast>;

// A living index and the LivingQuerier that answers single queries (under the GIL, so
// never two at once); reaches_many runs on a worker thread with a querier of its own. A
// LivingQuerier is valid only while its index does not change, so add_edges makes a new
// one. The lock keeps readers that run without the GIL (reaches_many, save) and add_edges
// (which may rebuild the base on a worker thread) apart; calls under the GIL take it too,
// releasing the GIL while they wait.
struct PyIndex {
  std::unique_ptr<reach::LivingIndex> index;
  std::unique_ptr<reach::LivingQuerier> querier;
  mutable std::shared_mutex mutex;
  // The strongly connected components of the layer alone (-1: not counted since the last
  // change). No base vertex reaches a layer vertex, so the index's components are the
  // base's and these.
  mutable int64_t layer_components = -1;

  explicit PyIndex(reach::LivingIndex i)
      : index(std::make_unique<reach::LivingIndex>(std::move(i))),
        querier(std::make_unique<reach::LivingQuerier>(*index)) {}
  uint64_t vertex_count() const { return index->vertex_count(); }
  void check(int64_t v) const {
    if (v < 0 || uint64_t(v) >= vertex_count())
      throw UsageError("vertex " + std::to_string(v) + " is beyond the " +
                       std::to_string(vertex_count()) + " vertices");
  }
};

// A shared lock on `self`, taken with the GIL held: without waiting when no append runs,
// else with the GIL released while it waits (an append's worker never needs the GIL).
std::shared_lock<std::shared_mutex> read_lock(const PyIndex& self) {
  std::shared_lock<std::shared_mutex> lock(self.mutex, std::try_to_lock);
  if (!lock.owns_lock()) {
    py::gil_scoped_release unlocked;
    lock.lock();
  }
  return lock;
}

uint64_t component_count(const PyIndex& self) {
  auto lock = read_lock(self);
  const reach::IndexLayer& layer = self.index->layer();
  if (self.layer_components < 0) {
    std::vector<Edge> edges;
    for (uint64_t i = 0; i < layer.vertex_count(); ++i)
      for (vertex_t v : layer.successors[i])
        if (layer.holds(v)) edges.emplace_back(vertex_t(i), vertex_t(v - layer.base_vertices));
    const Graph g(layer.vertex_count(), std::move(edges));
    self.layer_components = int64_t(strongly_connected_components(g).component_count());
  }
  return self.index->base().view().components + uint64_t(self.layer_components);
}

std::unique_ptr<PyIndex> build(const Graph& g, std::optional<py::sequence> name_list,
                               uint32_t supportive) {
  std::optional<std::vector<std::string>> names;
  if (name_list) names = label_bytes_list(*name_list);
  if (supportive > reach::kMaxSupportive)
    throw UsageError("supportive must be 0.." + std::to_string(reach::kMaxSupportive) + ", not " +
                     std::to_string(supportive));
  if (names && names->size() != g.vertex_count())
    throw UsageError("build_index: " + std::to_string(names->size()) + " names for " +
                     std::to_string(g.vertex_count()) + " vertices");
  auto base = run_interruptible([&] {
    reach::BuildOptions options;
    options.supportive = supportive;
    if (names && g.labels().empty()) {
      // The names go into the index (and its file): the same graph, labelled.
      const Graph named(g.vertex_count(), g.edges(), std::move(*names));
      return std::make_shared<const reach::ReachIndex>(reach::build_index(named, options));
    }
    return std::make_shared<const reach::ReachIndex>(reach::build_index(g, options));
  });
  return std::make_unique<PyIndex>(reach::LivingIndex(std::move(base)));
}

py::array_t<bool> reaches_many(const PyIndex& self, IdArray us, IdArray vs) {
  if (us.ndim() != 1 || vs.ndim() != 1 || us.shape(0) != vs.shape(0))
    throw UsageError("reaches_many: us and vs must be 1-D of equal length");
  const size_t k = size_t(us.shape(0));
  const uint32_t* a = us.data();
  const uint32_t* b = vs.data();
  py::array_t<bool> out(k);
  bool* o = out.mutable_data();
  run_interruptible([&] {
    std::shared_lock<std::shared_mutex> lock(self.mutex);
    const CancelToken* cancel = current_cancel_token();
    const uint64_t n = self.vertex_count();
    // Checked first, then answered in blocks (the pipelined batch, a cancel check per block).
    for (size_t i = 0; i < k; ++i)
      if (a[i] >= n || b[i] >= n)
        throw UsageError("reaches_many: pair " + std::to_string(i) + " (" + std::to_string(a[i]) +
                         ", " + std::to_string(b[i]) + ") has a vertex beyond the " +
                         std::to_string(n) + " vertices");
    reach::LivingQuerier querier(*self.index);
    constexpr size_t kBlock = 4096;
    for (size_t i = 0; i < k; i += kBlock) {
      if (cancel && cancel->cancelled()) throw Cancelled();
      querier.reaches_many(a + i, b + i, std::min(kBlock, k - i), o + i);
    }
  });
  return out;
}

uint64_t save(const PyIndex& self, const std::string& path) {
  try {
    return run_interruptible([&] {
      std::shared_lock<std::shared_mutex> lock(self.mutex);
      return self.index->write(path);  // base + layer (a plain index without a layer)
    });
  } catch (const FileSystemError& e) {
    // OSError(errno, message, path): Python picks the subclass (FileNotFoundError, ...).
    PyErr_SetObject(PyExc_OSError, py::make_tuple(e.error_number(), e.what(), e.path()).ptr());
    throw py::error_already_set();
  } catch (const ResourceError& e) {  // the file system's refusal: an OSError in Python
    PyErr_SetString(PyExc_OSError, e.what());
    throw py::error_already_set();
  }
}

// Adds the edges us[i] -> vs[i] by label (unknown labels become new vertices): all or
// nothing. Rebuilds keep the base's supportive components.
py::dict add_edges(PyIndex& self, const py::sequence& us_given, const py::sequence& vs_given) {
  const std::vector<std::string> us = label_bytes_list(us_given), vs = label_bytes_list(vs_given);
  if (us.size() != vs.size()) throw UsageError("add_edges: us and vs must be of equal length");
  std::vector<std::pair<std::string, std::string>> edges;
  edges.reserve(us.size());
  for (size_t i = 0; i < us.size(); ++i) edges.emplace_back(us[i], vs[i]);
  const reach::AppendReport report = run_interruptible([&] {
    std::unique_lock<std::shared_mutex> lock(self.mutex);
    const reach::AppendReport r = self.index->add_edges(edges);  // keeps the base's supportive
    // The old querier refers to the index as it was (a rebuilt base, a longer layer).
    self.querier = std::make_unique<reach::LivingQuerier>(*self.index);
    self.layer_components = -1;
    return r;
  });
  py::dict out;
  out["edges_given"] = report.edges_given;
  out["new_vertices"] = report.new_vertices;
  out["layer_edges"] = report.layer_edges;
  out["already_implied"] = report.already_implied;
  out["rebuilt"] = report.rebuilt;
  out["why_rebuilt"] = std::string(report.why_rebuilt);
  return out;
}

// The names as an int64 array when every one is a canonical integer (0..n-1 for an index
// without names), else None: how read_graph presents a file's labels.
py::object integer_labels(const PyIndex& self) {
  auto lock = read_lock(self);
  const reach::LivingIndex& index = *self.index;
  const uint64_t n = index.vertex_count();
  const bool identity = index.base().view().identity_labels;
  const uint64_t base_n = index.base().vertex_count();
  std::vector<int64_t> out(n);
  for (uint64_t v = 0; v < n; ++v)
    if (identity && v < base_n)
      out[v] = int64_t(v);
    else if (!canonical_integer(index.label(vertex_t(v)), out[v]))
      return py::none();
  return to_numpy(std::move(out));
}

// Vertex ids of `labels` (int64; -1 for a name not in the index or an item not a str).
py::array_t<int64_t> find_many(const PyIndex& self, const py::list& labels) {
  auto lock = read_lock(self);
  std::vector<int64_t> out(labels.size(), -1);
  for (size_t i = 0; i < out.size(); ++i) {
    py::handle item = labels[i];
    if (!py::isinstance<py::str>(item)) continue;
    if (auto v = self.index->find(label_bytes(item))) out[i] = int64_t(*v);
  }
  return to_numpy(std::move(out));
}

}  // namespace

void bind_index(py::module_& m) {
  py::class_<PyIndex>(m, "Index",
                      "A living reachability index over vertices 0..n-1 (strict): a base and "
                      "a layer of appended vertices and edges.")
      .def_property_readonly("vertex_count",
                             [](const PyIndex& i) {
                               auto lock = read_lock(i);
                               return i.vertex_count();
                             })
      .def_property_readonly("component_count", &component_count)
      .def_property_readonly("layer_vertex_count",
                             [](const PyIndex& i) {
                               auto lock = read_lock(i);
                               return i.index->layer().vertex_count();
                             })
      .def_property_readonly("layer_edge_count",
                             [](const PyIndex& i) {
                               auto lock = read_lock(i);
                               return i.index->edge_count_in_layer();
                             })
      .def(
          "reaches",
          [](PyIndex& self, int64_t u, int64_t v) {
            auto lock = read_lock(self);
            self.check(u);
            self.check(v);
            return self.querier->reaches(vertex_t(u), vertex_t(v));
          },
          py::arg("u"), py::arg("v"), "Whether a path of one or more edges leads from u to v.")
      .def("reaches_many", &reaches_many, py::arg("us"), py::arg("vs"))
      .def("add_edges", &add_edges, py::arg("us"), py::arg("vs"),
           "Adds the edges us[i] -> vs[i] by name (unknown names become new vertices, numbered "
           "from vertex_count on in order of appearance); all or nothing. Returns the report.")
      .def("save", &save, py::arg("path"),
           "Writes the index file (base + layer) atomically (temporary + rename); returns its "
           "bytes.")
      .def(
          "find",
          [](const PyIndex& self, const py::str& label) -> std::optional<int64_t> {
            const std::string name = label_bytes(label);
            auto lock = read_lock(self);
            if (auto v = self.index->find(name)) return int64_t(*v);
            return std::nullopt;
          },
          py::arg("label"), "The vertex id a name denotes, or None.")
      .def("find_many", &find_many, py::arg("labels"))
      .def("integer_labels", &integer_labels)
      .def(
          "label",
          [](const PyIndex& self, int64_t v) {
            auto lock = read_lock(self);
            self.check(v);
            return label_text(self.index->label(vertex_t(v)));
          },
          py::arg("v"), "Vertex v's name.")
      .def(
          "labels",
          [](const PyIndex& self) {
            auto lock = read_lock(self);
            py::list out(self.vertex_count());
            for (size_t v = 0; v < self.vertex_count(); ++v)
              out[v] = label_text(self.index->label(vertex_t(v)));
            return out;
          },
          "Every vertex's name, in vertex order.");

  m.def("build_index", &build, py::arg("graph"), py::arg("names") = py::none(),
        py::arg("supportive") = reach::kMaxSupportive,
        "The index of a Graph; names (one str per vertex) are stored when the graph has "
        "no labels of its own.");
  m.def(
      "load_index",
      [](const std::string& path) {
        return std::make_unique<PyIndex>(
            run_interruptible([&] { return reach::load_living_index(path); }));
      },
      py::arg("path"),
      "Reads and checks an index file, with the layer of appended vertices and edges it may "
      "hold; InputError when it is not a sound one.");
}

}  // namespace closure::python
