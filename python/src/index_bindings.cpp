// closure._closure.Index, build_index and load_index: the library's reachability index
// (src/closure/reach/reach_index.hpp) and its file (index_file.hpp). Queries take vertex
// ids; names are looked up here only for a loaded index (closure/__init__.py keeps the
// labels of one built in memory).
#include <pybind11/stl.h>

#include <memory>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "bindings.hpp"
#include "closure/errors.hpp"
#include "closure/reach/index_file.hpp"
#include "closure/reach/reach_index.hpp"
#include "closure/util/cancel.hpp"
#include "interruptible.hpp"

namespace closure::python {
namespace {

using IdArray = py::array_t<uint32_t, py::array::c_style | py::array::forcecast>;

// An index and the Querier that answers single queries (under the GIL, so never two at
// once); reaches_many runs on a worker thread with a Querier of its own.
struct PyIndex {
  std::unique_ptr<reach::ReachIndex> index;
  std::unique_ptr<reach::Querier> querier;

  explicit PyIndex(std::unique_ptr<reach::ReachIndex> i)
      : index(std::move(i)), querier(std::make_unique<reach::Querier>(*index)) {}
  const reach::IndexView& view() const { return index->view(); }
  void check(int64_t v) const {
    if (v < 0 || uint64_t(v) >= view().vertices)
      throw std::out_of_range("vertex " + std::to_string(v) + " is beyond the " +
                              std::to_string(view().vertices) + " vertices");
  }
};

// The arrays of an index as write_index takes them, copied from wherever they live (a
// built index's memory or a mapped file).
reach::IndexData data_of(const reach::IndexView& v) {
  reach::IndexData d;
  d.vertices = v.vertices;
  d.supportive = v.supportive;
  d.component_of.assign(v.component_of, v.component_of + v.vertices);
  d.labels.assign(v.labels, v.labels + v.components);
  d.offsets.assign(v.components + 1, 0);
  if (v.offsets) d.offsets.assign(v.offsets, v.offsets + v.components + 1);
  d.targets.assign(v.targets, v.targets + v.edges);
  d.identity_labels = v.identity_labels;
  if (!v.identity_labels) {
    d.label_offsets.assign(v.label_offsets, v.label_offsets + v.vertices + 1);
    d.label_bytes.assign(v.label_bytes, v.label_byte_count);
    d.name_seed = v.name_seed;
    d.name_slots.assign(v.name_slots, v.name_slots + reach::name_slot_count(v.vertices));
  }
  return d;
}

PyIndex build(const Graph& g, std::optional<std::vector<std::string>> names, uint32_t supportive) {
  if (supportive > reach::kMaxSupportive)
    throw UsageError("supportive must be 0.." + std::to_string(reach::kMaxSupportive) + ", not " +
                     std::to_string(supportive));
  if (names && names->size() != g.vertex_count())
    throw std::invalid_argument("build_index: " + std::to_string(names->size()) + " names for " +
                                std::to_string(g.vertex_count()) + " vertices");
  return run_interruptible([&] {
    reach::BuildOptions options;
    options.supportive = supportive;
    if (names && g.labels().empty()) {
      // The names go into the index (and its file): the same graph, labelled.
      const Graph named(g.vertex_count(), g.edges(), std::move(*names));
      return PyIndex(std::make_unique<reach::ReachIndex>(reach::build_index(named, options)));
    }
    return PyIndex(std::make_unique<reach::ReachIndex>(reach::build_index(g, options)));
  });
}

py::array_t<bool> reaches_many(const PyIndex& self, IdArray us, IdArray vs) {
  if (us.ndim() != 1 || vs.ndim() != 1 || us.shape(0) != vs.shape(0))
    throw std::invalid_argument("reaches_many: us and vs must be 1-D of equal length");
  const size_t k = size_t(us.shape(0));
  const uint32_t* a = us.data();
  const uint32_t* b = vs.data();
  const uint64_t n = self.view().vertices;
  py::array_t<bool> out(k);
  bool* o = out.mutable_data();
  run_interruptible([&] {
    const CancelToken* cancel = current_cancel_token();
    reach::Querier querier(*self.index);
    // Checked first, then answered in blocks (the pipelined batch, a cancel check per block).
    for (size_t i = 0; i < k; ++i)
      if (a[i] >= n || b[i] >= n)
        throw std::out_of_range("reaches_many: pair " + std::to_string(i) + " (" +
                                std::to_string(a[i]) + ", " + std::to_string(b[i]) +
                                ") has a vertex beyond the " + std::to_string(n) + " vertices");
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
    return run_interruptible([&] { return reach::write_index(path, data_of(self.view())); });
  } catch (const ResourceError& e) {  // the file system's refusal: an OSError in Python
    PyErr_SetString(PyExc_OSError, e.what());
    throw py::error_already_set();
  }
}

// The names as an int64 array when every one is a canonical integer (0..n-1 for an index
// without names), else None: how read_graph presents a file's labels.
py::object integer_labels(const PyIndex& self) {
  const uint64_t n = self.view().vertices;
  std::vector<int64_t> out(n);
  for (uint64_t v = 0; v < n; ++v)
    if (self.view().identity_labels)
      out[v] = int64_t(v);
    else if (!canonical_integer(self.index->label(vertex_t(v)), out[v]))
      return py::none();
  return to_numpy(std::move(out));
}

// Vertex ids of `labels` (int64; -1 for a name not in the index or an item not a str).
py::array_t<int64_t> find_many(const PyIndex& self, const py::list& labels) {
  std::vector<int64_t> out(labels.size(), -1);
  for (size_t i = 0; i < out.size(); ++i) {
    py::handle item = labels[i];
    if (!py::isinstance<py::str>(item)) continue;
    if (auto v = self.index->find(item.cast<std::string>())) out[i] = int64_t(*v);
  }
  return to_numpy(std::move(out));
}

}  // namespace

void bind_index(py::module_& m) {
  py::class_<PyIndex>(m, "Index", "A reachability index over vertices 0..n-1 (strict).")
      .def_property_readonly("vertex_count", [](const PyIndex& i) { return i.view().vertices; })
      .def_property_readonly("component_count",
                             [](const PyIndex& i) { return i.view().components; })
      .def(
          "reaches",
          [](PyIndex& self, int64_t u, int64_t v) {
            self.check(u);
            self.check(v);
            return self.querier->reaches(vertex_t(u), vertex_t(v));
          },
          py::arg("u"), py::arg("v"), "Whether a path of one or more edges leads from u to v.")
      .def("reaches_many", &reaches_many, py::arg("us"), py::arg("vs"))
      .def("save", &save, py::arg("path"),
           "Writes the index file atomically (temporary + rename); returns its bytes.")
      .def(
          "find",
          [](const PyIndex& self, const std::string& label) -> std::optional<int64_t> {
            if (auto v = self.index->find(label)) return int64_t(*v);
            return std::nullopt;
          },
          py::arg("label"), "The vertex id a name denotes, or None.")
      .def("find_many", &find_many, py::arg("labels"))
      .def("integer_labels", &integer_labels)
      .def(
          "labels",
          [](const PyIndex& self) {
            std::vector<std::string> out(self.view().vertices);
            for (size_t v = 0; v < out.size(); ++v) out[v] = self.index->label(vertex_t(v));
            return out;
          },
          "Every vertex's name, in vertex order.");

  m.def("build_index", &build, py::arg("graph"), py::arg("names") = py::none(),
        py::arg("supportive") = 64,
        "The index of a Graph; names (one str per vertex) are stored when the graph has "
        "no labels of its own.");
  m.def(
      "load_index",
      [](const std::string& path) {
        return PyIndex(run_interruptible([&] { return reach::load_index(path); }));
      },
      py::arg("path"), "Maps and checks an index file; InputError when it is not a sound one.");
}

}  // namespace closure::python
