// The files a command has opened as inputs, by device and inode. The input source notes
// every file it opens while a command runs (an InputScope is alive); the output guard
// (io/atomic_file.hpp) refuses to write over any of them, whatever path or hard link names
// it, so no command can replace the graph or index it reads. The CLI holds one scope for
// its one command. The Python module holds none: its calls read or write, never both, and
// a later call may write a file an earlier one read (as with pandas). Thread-safe.
#pragma once

#include <sys/stat.h>

namespace closure {

// While at least one scope lives, inputs are noted; when the last one ends, forgotten.
class InputScope {
 public:
  InputScope();
  ~InputScope();
  InputScope(const InputScope&) = delete;
  InputScope& operator=(const InputScope&) = delete;
};

void note_input(const struct stat& st);  // nothing outside every scope
// An input read whole into memory and meant to be replaced (a living index updated in
// place: `closure index --append G.idx NEW -o G.idx`, the service's fold): no longer
// guarded. Only after it has been read: replacing it then loses nothing.
void forget_input(const char* path);
// True when `st` is a regular file noted as an input.
bool is_noted_input(const struct stat& st);

}  // namespace closure
