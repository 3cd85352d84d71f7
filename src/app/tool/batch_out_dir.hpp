// The batch's output folder, guarded: one batch at a time (an flock on DIR/.closure-batch.lock;
// a second batch is refused), and no file there is written over unless a batch wrote it.
// DIR/.closure-batch.owned lists, one per line relative to DIR, the files batches created;
// folders written before that list existed are recognised by content (a record that parses,
// the closure file its record names, summary tables that start as batch writes them).
#pragma once

#include <string>
#include <unordered_set>

namespace closure {

class BatchOutDir {
 public:
  // Creates the folder if needed, takes the lock and reads the list. Throws UsageError
  // when another batch holds the lock, ResourceError when the folder cannot be used.
  explicit BatchOutDir(const std::string& dir);
  ~BatchOutDir();
  BatchOutDir(const BatchOutDir&) = delete;
  BatchOutDir& operator=(const BatchOutDir&) = delete;

  // True when `path` (inside the folder) does not exist or was written by a batch; never for
  // a symbolic link (a batch writes none, and would write through it).
  bool may_write(const std::string& path) const;
  // Throws UsageError naming `path` unless may_write(path).
  void check_may_write(const std::string& path) const;
  // Notes that a batch writes `path` (appended to the list at once, before the file is
  // written, so an interrupted batch still owns what it began to write). A worker process
  // claims through the list descriptor it inherited (appends of one short line each).
  void claim(const std::string& path);
  const std::string& dir() const { return dir_; }

 private:
  std::string relative(const std::string& path) const;
  std::string dir_;
  int lock_fd_ = -1;
  int list_fd_ = -1;
  std::unordered_set<std::string> owned_;
};

}  // namespace closure
