// Classification of exceptions into the error kinds.
#include "closure/errors.hpp"

#include <new>

#include "closure/graph/input_error.hpp"
#include "closure/ocl/error.hpp"

namespace closure {

ErrorKind classify(const std::exception& e) {
  if (const auto* error = dynamic_cast<const Error*>(&e)) return error->kind();
  if (dynamic_cast<const InputError*>(&e)) return ErrorKind::kInput;
  if (dynamic_cast<const ocl::Error*>(&e)) return ErrorKind::kDevice;
  if (dynamic_cast<const std::bad_alloc*>(&e)) return ErrorKind::kResource;
  if (dynamic_cast<const std::logic_error*>(&e)) return ErrorKind::kInternal;
  return ErrorKind::kResource;
}

}  // namespace closure
