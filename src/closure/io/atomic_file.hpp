// AtomicFile: where an output goes, and how it gets there without destroying anything.
//
// - "-" is standard output, written as a stream.
// - An existing target that is not a regular file (a FIFO, a pipe such as /dev/fd/63
//   from `-o >(gzip > x.gz)`, a character device such as /dev/null, a socket) is opened
//   and written as a stream: it is never replaced, and never "committed" by a rename.
// - A regular file, or a path that does not exist yet, gets a temporary in the target's
//   folder, is fsync'ed and renamed over the target on commit(). The temporary is an
//   O_TMPFILE (nameless: a SIGKILL leaves nothing behind) linked under an unpredictable
//   name just before the rename; where O_TMPFILE is unsupported, mkstemp (O_EXCL, a
//   random name) and removal on SIGINT/SIGTERM/SIGHUP. A failed or interrupted run never
//   leaves a truncated target.
// - A name of a descriptor this process holds (/dev/stdout, /dev/stderr, /dev/fd/N,
//   /proc/self/fd/N) is that descriptor, written as a stream at its own offset, whatever it
//   is open on: `{ echo x; closure G -o /dev/stdout; } > f` keeps the x, and `>> f`
//   appends (following the link to f and replacing it had lost what the shell wrote).
// - A symbolic link at PATH is followed: its target's real path is replaced, the link
//   stays (a dangling link is refused). A replaced file keeps its permission bits (a 0600
//   file stays 0600) and, where allowed, its owner and group.
// - A file this process opened as an input (util/input_registry.hpp: any path or hard link
//   of it) is refused (UsageError): no command replaces the graph or index it reads.
// - A regular file with more than one hard link is refused (UsageError): replacing it
//   would break the links, and writing it in place could leave it half-written.
#pragma once

#include <cstdint>
#include <stdexcept>
#include <string>
#include <string_view>
#include <vector>

#include "closure/errors.hpp"

namespace closure {

// Thrown when the reader of a stream output went away (EPIPE, e.g. `closure G -o - | head`).
// Its own kind (errors.hpp), whose row has the CLI stop quietly on it (exit 0), as common
// tools do.
class OutputClosedError : public Error {
 public:
  explicit OutputClosedError(const std::string& what) : Error(ErrorKind::kOutputClosed, what) {}
};

// What a path names as an output target.
struct OutputTarget {
  bool stream = false;  // stdout, FIFO, pipe, device: written directly, no size guard
  std::string path;     // the path to write (symlinks resolved for regular files)
  int descriptor = -1;  // a name of this process's open descriptor: that one (a stream)
};
// Classifies `path` without opening it; throws UsageError for "" and for refused targets
// (a dangling symlink, a hard-linked file, a folder).
//
// `within` (not empty) marks a name the command owns in its own folder, as batch owns the
// names in --out: the user named the folder, not the file, so nothing there is followed. The
// path must lie inside `within` once resolved (no link in a folder of the path leads out),
// must not be a symbolic link itself, and must be a regular file or nothing (never a stream).
OutputTarget classify_output(const std::string& path, const std::string& within = "");

// Before any work: notes `input` as an input of this process (as the input source will when
// it opens it) and classifies `output`, so a command refuses to write over its own input
// at once rather than after computing. The guard itself is classify_output's.
void refuse_output_onto_input(const std::string& input, const std::string& output);

class AtomicFile {
 public:
  // `within`: as for classify_output.
  explicit AtomicFile(std::string path, const std::string& within = "");
  ~AtomicFile();  // an uncommitted temporary is discarded
  AtomicFile(const AtomicFile&) = delete;
  AtomicFile& operator=(const AtomicFile&) = delete;

  void write(std::string_view bytes);
  void write(const void* data, size_t size);
  // Flushes and, for a regular file, fsyncs and renames into place. Throws ResourceError
  // on any failure (OutputClosedError when a stream's reader has gone).
  void commit();

  uint64_t bytes_written() const { return written_ + buffer_.size(); }

 private:
  void flush_buffer();
  void write_all(const char* data, size_t size);

  std::string path_;      // as given
  std::string target_;    // the file replaced on commit (symlinks resolved)
  std::string tmp_name_;  // mkstemp fallback: the temporary's name
  int fd_ = -1;
  bool stream_ = false, owns_fd_ = false, anonymous_ = false, committed_ = false;
  bool replace_existing_ = false;
  unsigned mode_ = 0, uid_ = 0, gid_ = 0;  // of the replaced file
  std::vector<char> buffer_;
  uint64_t written_ = 0;
  int slot_ = -1;  // registration for removal on SIGINT/SIGTERM/SIGHUP (mkstemp only)
};

}  // namespace closure
