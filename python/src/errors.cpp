// C++ exceptions as Python exceptions, with the CLI's messages. The exception classes are
// defined in Python (closure/_errors.py) so that they have proper constructors and
// attributes; they are looked up when the first error is translated.
#include "closure/errors.hpp"

#include <pybind11/pybind11.h>

#include <string>

#include "bindings.hpp"
#include "closure/graph/input_error.hpp"
#include "closure/util/resource_failure.hpp"

namespace closure::python {
namespace {

py::object error_class(const char* name) {
  return py::module_::import("closure._errors").attr(name);
}

// Python's reader gets the advice in Python's terms (method='sparse', not --method sparse).
void raise(const char* name, const std::string& message) {
  py::object type = error_class(name);
  py::object error = type(message);
  PyErr_SetObject(type.ptr(), error.ptr());
}
void raise(const char* name, const std::exception& e) {
  raise(name, said_to(e, Audience::kPython));
}

}  // namespace

void bind_errors(py::module_&) {
  py::register_exception_translator([](std::exception_ptr p) {
    try {
      if (p) std::rethrow_exception(p);
    } catch (const InputError& e) {
      py::object type = error_class("InputError");
      py::object line = e.line() > 0 ? py::object(py::int_(e.line())) : py::object(py::none());
      py::object error = type(e.message() + e.advice_said_to(Audience::kPython), e.file(), line);
      PyErr_SetObject(type.ptr(), error.ptr());
    } catch (const OutOfMemoryError& e) {
      raise("OutOfMemoryError", e);
    } catch (const Error& e) {  // every other kind through the one table (errors.hpp)
      raise(info_of(e.kind()).python_class, e);
    } catch (const std::exception& e) {
      // An allocation that failed, a thread that could not start (std::thread's EAGAIN, TBB's
      // own words): a MemoryError with the CLI's text, in Python's terms.
      const ResourceFailure f = resource_failure_of(e);
      if (f == ResourceFailure::kNone) throw;
      char text[640];
      raise("OutOfMemoryError", resource_failure_text(e, f, Audience::kPython, text, sizeof text));
    }
    // Everything else: pybind11's defaults (py::value_error, py::index_error and KeyError
    // from the bindings; a standard exception from a dependency by its type).
  });
}

}  // namespace closure::python
