// The pieces of the compiled module closure._closure, one file each; module.cpp calls them.
#pragma once

#include <pybind11/numpy.h>
#include <pybind11/pybind11.h>

#include <memory>
#include <vector>

namespace closure::python {

namespace py = pybind11;

void bind_errors(py::module_& m);
void bind_graph(py::module_& m);
void bind_closure(py::module_& m);
void bind_devices(py::module_& m);

// A NumPy array that takes over `v`'s buffer (no copy): the vector lives on the heap and
// a capsule frees it with the array.
template <class T>
py::array_t<T> to_numpy(std::vector<T>&& v) {
  auto* owned = new std::vector<T>(std::move(v));
  py::capsule free_when_done(owned, [](void* p) { delete static_cast<std::vector<T>*>(p); });
  return py::array_t<T>({owned->size()}, {sizeof(T)}, owned->data(), free_when_done);
}

}  // namespace closure::python
