// InputSource: the one way every command opens an input (a graph or an index file). It opens
// the path once ("-" is standard input) and lets the caller look at the first bytes without
// consuming them, for files, pipes, FIFOs and stdin alike, so that format detection (an
// index header, gzip) never loses the start of a stream. Whatever is opened through it is
// also noted as an input of this process (util/input_registry.hpp), so the output guard can
// refuse to write over it. A LineSource (text) or the index loader (binary) then takes it.
#pragma once

#include <sys/stat.h>

#include <string>
#include <string_view>

namespace closure {

// An input that could not be opened: the file's fault (missing, unreadable: InputError, exit
// 3), or the process's where it ran out of descriptors or memory (EMFILE, ENFILE, ENOMEM:
// ResourceError, exit 4, as other resource failures). Either names the file and the reason.
[[noreturn]] void throw_cannot_open(const std::string& name, int error);

class InputSource {
 public:
  // Throws InputError (line 0) when the path cannot be opened or is a folder.
  explicit InputSource(const std::string& path);
  ~InputSource();
  InputSource(InputSource&& other) noexcept;
  InputSource& operator=(InputSource&&) = delete;
  InputSource(const InputSource&) = delete;

  const std::string& path() const { return path_; }
  // The name errors use: the path, or "<stdin>".
  const std::string& name() const { return name_; }
  // A regular file (size known, can be mapped); anything else is read as a stream.
  bool regular() const { return S_ISREG(stat_.st_mode); }
  const struct stat& status() const { return stat_; }

  // Up to `n` bytes from the start of the input; nothing is consumed. Shorter only when the
  // input is shorter. Raw bytes: no check for binary data.
  std::string_view peek(size_t n);

  // A stream whose end the peek already met.
  bool stream_ended() const { return stream_eof_; }

  // Hands over the descriptor (positioned after the peeked bytes for a stream, untouched for
  // a regular file) and the peeked bytes of a stream, which the new owner must read first.
  int release(std::string& stream_prefix);

 private:
  std::string path_, name_;
  int fd_ = -1;
  struct stat stat_ {};
  std::string prefix_;  // bytes already read from a stream
  bool stream_eof_ = false;
};

}  // namespace closure
