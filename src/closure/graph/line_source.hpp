// LineSource: the input of every reader: a memory-mapped regular file, a gzip file or a pipe
// read as a stream, or text in memory. Lines end in "\n", "\r\n" or a lone "\r"; binary bytes
// are refused with FILE:LINE, so every format gets the same checks and messages.
#pragma once

#include <cstddef>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "closure/graph/input_error.hpp"
#include "closure/graph/input_source.hpp"
#include "closure/util/sigbus_guard.hpp"
#include "closure/util/work_meter.hpp"

namespace closure {

class LineSource {
 public:
  // Opens `path` ("-" is standard input). A regular uncompressed file is mapped into memory
  // whole; gzip data (every member of a multi-member file) and pipes are streamed.
  // Throws InputError (line 0) when the file cannot be opened.
  explicit LineSource(const std::string& path);
  // The same over an input already opened (and perhaps peeked at): its peeked bytes are read
  // first, so nothing of a pipe is lost.
  explicit LineSource(InputSource&& input);
  // Reads lines out of `text`, which must outlive this object; `name` appears in errors.
  LineSource(std::string_view text, std::string name);
  ~LineSource();
  LineSource(const LineSource&) = delete;
  LineSource& operator=(const LineSource&) = delete;

  // The next line without its terminator; false at the end of input. The view stays valid
  // until the next call. Throws InputError on unreadable data or binary bytes.
  bool next(std::string_view& line);
  // Up to `max_bytes` from the start of the input, without consuming anything; call it before
  // the first next(). Shorter only when the input is shorter.
  std::string_view peek(size_t max_bytes);
  // True once the whole input sits in the buffer (after peek), i.e. peek saw everything.
  bool at_end_of_data() const { return eof_; }

  // The whole unconsumed input when it is in memory already (a mapped file or a string), else
  // an empty optional-like pair (false). Consumes it: next() then returns false. Its bytes were
  // checked for binary data.
  bool take_all(std::string_view& text);
  // Streamed input: the next block of whole lines, about `want` bytes or more (a block always
  // ends at a line end or at the end of input); false at the end. Lines in it are not counted
  // by line_number(): block readers number lines themselves, and tell add_block_lines() how
  // many the block held before asking for the next, so that a binary byte found in the bytes
  // read after it is given its line in the whole input (not in the read it came in).
  bool next_block(std::string_view& block, size_t want);
  void add_block_lines(size_t lines) { block_lines_ += lines; }

  // Throws InputError when a regular file changed while it was read: it shrank under the
  // mapping (the SIGBUS guard saw it) or its size or modification time differ from when it
  // was opened. The readers call it after reading and before reporting any other error.
  void check_unchanged() const;

  // Bytes of (decompressed) input delivered so far, for checks of declared counts.
  size_t bytes_consumed() const { return consumed_base_ + pos_; }
  // The input's size when known in advance (a mapped file or a string), else 0.
  size_t known_size() const { return known_size_; }

  // 1-based number of the line last returned by next(); 0 before the first.
  size_t line_number() const { return line_; }
  const std::string& name() const { return name_; }
  // The work meter of the thread that opened a file (closure/util/work_meter.hpp), started
  // with the file's size; next() adds the bytes it consumes, block readers add their own.
  WorkMeter* meter() const { return meter_; }

  [[noreturn]] void fail(const std::string& message) const { fail_at(line_, message); }
  [[noreturn]] void fail_at(size_t line, const std::string& message, Advice advice = Advice::kNone,
                            const std::string& subject = "") const {
    throw InputError(name_, line, message, advice, subject);
  }

  // The 1-based line and column of the first binary byte in `text`, whose first line is
  // `first_line`; false when there is none. Shared with the parallel edge-list reader.
  static bool find_binary_byte(std::string_view text, size_t& line, size_t& column,
                               unsigned char& byte);
  // Lines in `text` (terminators "\n", "\r\n", lone "\r"; a last line without one counts).
  static size_t count_lines(std::string_view text);

 private:
  class Stream;  // the streamed input: a descriptor, plain or through zlib's inflate
  // The constructor's work on the descriptor `fd` (set to -1 once it is owned elsewhere).
  void open(int& fd, const std::string& prefix, bool gzip, bool stream_ended);
  bool fill();
  // Adds the bytes consumed since the last report to meter_ once they reach `at_least`.
  void meter_consumed(size_t at_least);
  void check_bytes(size_t from, size_t to) const;

  static constexpr size_t kMeterBytes = size_t{1} << 20;
  std::string name_;
  WorkMeter* meter_ = current_work_meter();
  size_t metered_ = 0;  // bytes added to meter_ so far
  std::unique_ptr<Stream> stream_;
  std::unique_ptr<SigbusGuard> guard_;  // over the mapping
  int watch_fd_ = -1;                   // a regular file's descriptor, for check_unchanged
  struct stat opened_ {};               // what it was when opened
  void* map_ = nullptr;
  size_t map_size_ = 0;
  std::vector<char> buf_;
  const char* data_ = nullptr;  // buf_.data(), the mapping, or the caller's text
  size_t pos_ = 0;              // first unconsumed byte
  size_t end_ = 0;              // one past the last valid byte
  size_t consumed_base_ = 0;    // bytes dropped from the front of buf_ so far
  size_t known_size_ = 0;
  bool eof_ = false;
  bool started_ = false;
  bool gzip_ = false;  // inflated from gzip
  size_t line_ = 0;
  size_t block_lines_ = 0;  // lines of the blocks handed out (add_block_lines)
};

}  // namespace closure
