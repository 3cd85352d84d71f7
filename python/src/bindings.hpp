// The pieces of the compiled module closure._closure, one file each; module.cpp calls them.
#pragma once

#include <pybind11/numpy.h>
#include <pybind11/pybind11.h>

#include <charconv>
#include <cstdint>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

namespace closure::python {

namespace py = pybind11;

void bind_errors(py::module_& m);
void bind_graph(py::module_& m);
void bind_closure(py::module_& m);
void bind_devices(py::module_& m);
void bind_reach(py::module_& m);
void bind_index(py::module_& m);
void bind_scc(py::module_& m);

// A NumPy array that takes over `v`'s buffer (no copy): the vector lives on the heap and
// a capsule frees it with the array.
template <class T>
py::array_t<T> to_numpy(std::vector<T>&& v) {
  auto* owned = new std::vector<T>(std::move(v));
  py::capsule free_when_done(owned, [](void* p) { delete static_cast<std::vector<T>*>(p); });
  return py::array_t<T>({owned->size()}, {sizeof(T)}, owned->data(), free_when_done);
}

// Whether `s` is a canonical decimal integer (so int -> str gives `s` back: no sign on 0,
// no leading zeros, no '+'), stored in `out`. How labels are told to be integers.
inline bool canonical_integer(std::string_view s, int64_t& out) {
  const char* last = s.data() + s.size();
  auto [end, ec] = std::from_chars(s.data(), last, out);
  return ec == std::errc() && end == last && std::to_string(out) == s;
}

// Labels cross as bytes. A label's bytes as a Python str: UTF-8, any byte that is not as
// a lone surrogate (PEP 383's surrogateescape, as os.fsdecode does), so distinct labels stay
// distinct where a plain conversion would raise UnicodeDecodeError.
inline py::str label_text(const std::string& bytes) {
  PyObject* text = PyUnicode_DecodeUTF8(bytes.data(), Py_ssize_t(bytes.size()), "surrogateescape");
  if (!text) throw py::error_already_set();
  return py::reinterpret_steal<py::str>(text);
}
// And back: a str encoded with surrogateescape (label_text's inverse, so a name read from a
// file that is not UTF-8 finds its vertex), bytes as they are; TypeError for anything else.
inline std::string label_bytes(py::handle label) {
  if (py::isinstance<py::bytes>(label)) return label.cast<std::string>();
  if (!py::isinstance<py::str>(label))
    throw py::type_error("a label must be a str, not " +
                         std::string(py::str(label.get_type().attr("__name__"))));
  PyObject* bytes = PyUnicode_AsEncodedString(label.ptr(), "utf-8", "surrogateescape");
  if (!bytes) throw py::error_already_set();
  return py::reinterpret_steal<py::bytes>(bytes).cast<std::string>();
}
inline std::vector<std::string> label_bytes_list(const py::sequence& labels) {
  std::vector<std::string> out;
  out.reserve(labels.size());
  for (py::handle l : labels) out.push_back(label_bytes(l));
  return out;
}

}  // namespace closure::python
