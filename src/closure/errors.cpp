// Classification of exceptions into the error kinds, and sizes in messages.
#include "closure/errors.hpp"

#include <cstdio>
#include <new>

namespace closure {

ErrorKind classify(const std::exception& e) {
  if (const auto* error = dynamic_cast<const Error*>(&e)) return error->kind();
  if (dynamic_cast<const std::bad_alloc*>(&e)) return ErrorKind::kResource;
  if (dynamic_cast<const std::logic_error*>(&e)) return ErrorKind::kInternal;
  return ErrorKind::kResource;
}

std::string format_bytes(double bytes) {
  const char* units[] = {"bytes", "KB", "MB", "GB", "TB"};
  int u = 0;
  while (bytes >= 1000 && u < 4) bytes /= 1000, ++u;
  char buf[32];
  std::snprintf(buf, sizeof buf, u == 0 ? "%.0f %s" : "%.3g %s", bytes, units[u]);
  return buf;
}

}  // namespace closure
