// SigbusGuard: reading a file mapping that another process truncates raises SIGBUS, which
// would end the process (exit 135) with no message. While a guard is alive, a SIGBUS inside
// its range maps a page of zeros over the faulting page and marks the guard; the reader
// goes on over zeros and its owner, seeing faulted(), reports "changed while reading"
// instead of whatever the zeros made the parser say. Outside every guarded range the
// previous disposition applies. Up to 64 guards at once; a 65th guards nothing.
#pragma once

#include <cstddef>

namespace closure {

class SigbusGuard {
 public:
  SigbusGuard(const void* base, size_t size);
  ~SigbusGuard();
  SigbusGuard(const SigbusGuard&) = delete;
  SigbusGuard& operator=(const SigbusGuard&) = delete;

  // True once a page of the range could not be read (the file shrank under it).
  bool faulted() const;

 private:
  int slot_ = -1;
};

}  // namespace closure
