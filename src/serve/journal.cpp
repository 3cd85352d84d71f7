// The append journal: records written and fdatasync'ed before an append is acknowledged.
#include "serve/journal.hpp"

#include <fcntl.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>

#include "closure/errors.hpp"
#include "closure/graph/input_error.hpp"
#include "closure/reach/index_file.hpp"

namespace closure::serve {
namespace {

constexpr char kMagic[8] = {'C', 'L', 'O', 'S', 'R', 'J', 'N', 'L'};
constexpr uint32_t kHeaderBytes = 16;

std::string header() {
  std::string h(kMagic, 8);
  const uint32_t fields[2] = {1, kHeaderBytes};
  h.append(reinterpret_cast<const char*>(fields), 8);
  return h;
}

uint64_t checksum(const char* p, size_t n) {
  return reach::index_checksum(p, n, 0x4A524E4Cu);  // the journal's own seed
}

ResourceError io_error(const std::string& what, const std::string& path) {
  return ResourceError(what + " " + path + ": " + std::strerror(errno));
}

void write_all(int fd, const char* p, size_t n, const std::string& path) {
  while (n > 0) {
    const ssize_t k = ::write(fd, p, n);
    if (k < 0 && errno == EINTR) continue;
    if (k < 0) throw io_error("cannot write the journal", path);
    p += k, n -= size_t(k);
  }
}

// Opens the journal at `path` and locks it (flock, exclusive) for as long as this process
// serves it: a second `closure serve` of the index, or an `index --append` in place, would
// fold over appends the first has acknowledged. A fold replaces the file by one locked
// before its rename, so the lock is checked to be on the file the path names now.
int open_journal(const std::string& path) {
  for (;;) {
    const int fd = ::open(path.c_str(), O_RDWR | O_CREAT | O_NOFOLLOW | O_CLOEXEC, 0644);
    if (fd < 0) {
      if (errno == ELOOP)
        throw UsageError("the journal " + path + " is a symbolic link; refusing to follow it");
      throw io_error("cannot open the journal", path);
    }
    struct stat st {
    }, now{};
    if (::fstat(fd, &st) != 0 || !S_ISREG(st.st_mode)) {
      ::close(fd);
      throw UsageError("the journal " + path + " is not a regular file");
    }
    if (::flock(fd, LOCK_EX | LOCK_NB) != 0) {
      const int err = errno;
      ::close(fd);
      if (err == EWOULDBLOCK) throw journal_in_use(path);
      errno = err;
      throw io_error("cannot lock the journal", path);
    }
    if (::stat(path.c_str(), &now) == 0 && now.st_dev == st.st_dev && now.st_ino == st.st_ino)
      return fd;
    ::close(fd);  // replaced by a fold between the open and the lock: the new one
  }
}

void sync_folder_of(const std::string& path) {
  const auto slash = path.rfind('/');
  const std::string dir = slash == std::string::npos ? "." : path.substr(0, slash + 1);
  const int d = ::open(dir.c_str(), O_RDONLY | O_DIRECTORY | O_CLOEXEC);
  if (d >= 0) ::fsync(d), ::close(d);
}

}  // namespace

UsageError journal_in_use(const std::string& journal) {
  return UsageError("the journal " + journal +
                    " is held by another process (a `closure serve` "
                    "of this index): stop it first, or send the edges to it (POST /edges)");
}

void refuse_if_served(const std::string& index_path) {
  const std::string journal = index_path + ".journal";
  const int fd = ::open(journal.c_str(), O_RDONLY | O_NOFOLLOW | O_CLOEXEC);
  if (fd < 0) return;  // none: no service of it has run here
  const bool held = ::flock(fd, LOCK_SH | LOCK_NB) != 0 && errno == EWOULDBLOCK;
  ::close(fd);
  if (held) throw journal_in_use(journal);
}

std::string journal_record(const LabelPairs& edges) {
  std::string payload;
  for (const auto& [a, b] : edges) {
    const uint32_t lengths[2] = {uint32_t(a.size()), uint32_t(b.size())};
    payload.append(reinterpret_cast<const char*>(lengths), 8);
    payload += a;
    payload += b;
  }
  if (payload.size() > kMaxJournalRecordBytes)
    throw UsageError("an append of " + std::to_string(payload.size()) +
                     " bytes is larger than a journal record may be");
  const uint32_t head[2] = {uint32_t(payload.size()), uint32_t(edges.size())};
  const uint64_t sum = checksum(payload.data(), payload.size());
  std::string out(reinterpret_cast<const char*>(head), 8);
  out.append(reinterpret_cast<const char*>(&sum), 8);
  return out + payload;
}

namespace {

// Where `count` edges (u32 lengths, then the labels) end in the `have` bytes at p, or
// UINT64_MAX where they run past them.
uint64_t edges_end(const char* p, uint64_t have, uint32_t count) {
  uint64_t i = 0;
  for (uint32_t e = 0; e < count; ++e) {
    uint32_t len[2];
    if (have - i < 8) return UINT64_MAX;
    std::memcpy(len, p + i, 8);
    i += 8;
    if (have - i < uint64_t(len[0]) + len[1]) return UINT64_MAX;
    i += uint64_t(len[0]) + len[1];
  }
  return i;
}

}  // namespace

JournalReplay parse_journal(const std::string& bytes, const std::string& name) {
  JournalReplay out;
  auto damaged = [&](uint64_t at, const std::string& what) {
    return InputError(name, 0,
                      "damaged journal at byte " + std::to_string(at) + ": " + what +
                          " (it may hold acknowledged appends: move it aside to "
                          "start without them)");
  };
  if (bytes.empty()) return out;
  if (bytes.size() < kHeaderBytes || bytes.compare(0, kHeaderBytes, header()) != 0) {
    if (bytes.size() < kHeaderBytes && header().compare(0, bytes.size(), bytes) == 0) {
      out.torn_tail_bytes = bytes.size();  // the header itself was being written
      return out;
    }
    throw InputError(name, 0, "not a closure journal (no CLOSRJNL header, or another version)");
  }
  size_t at = kHeaderBytes;
  // A write cut short by a crash ends the file; a file system that had extended the file
  // before its data shows zeros there, where a record's last byte (a label's) never is one.
  const bool zero_end = bytes.back() == '\0';
  while (at < bytes.size()) {
    if (zero_end && bytes.find_first_not_of('\0', at) == std::string::npos) {
      out.torn_tail_bytes = bytes.size() - at;  // zeros from a record's start to the end
      break;
    }
    if (bytes.size() - at < 16) {
      out.torn_tail_bytes = bytes.size() - at;
      break;
    }
    uint32_t head[2];
    uint64_t sum;
    std::memcpy(head, bytes.data() + at, 8);
    std::memcpy(&sum, bytes.data() + at + 8, 8);
    const uint64_t payload = head[0];
    if (payload > kMaxJournalRecordBytes) throw damaged(at, "impossible record size");
    const char* p = bytes.data() + at + 16;
    if (bytes.size() - at - 16 < payload) {
      // Cut short: the last write never finished, so its edges run past the end too. Edges
      // that end inside what is there, before the size says, are a damaged size instead,
      // with acknowledged records after it.
      if (!zero_end && edges_end(p, bytes.size() - at - 16, head[1]) < payload)
        throw damaged(at, "the record's size disagrees with its edges");
      out.torn_tail_bytes = bytes.size() - at;
      break;
    }
    if (checksum(p, payload) != sum) {
      // The last record with its bytes not all written (a file system that extends a file
      // before its data shows zeros there; a label never ends in one) is an unfinished write.
      if (at + 16 + payload == bytes.size() && zero_end) {
        out.torn_tail_bytes = bytes.size() - at;
        break;
      }
      throw damaged(at, "checksum mismatch");
    }
    // The edges' bounds are edges_end()'s, checked once: then every read below is inside.
    if (edges_end(p, payload, head[1]) != payload)
      throw damaged(at, "the record's edges disagree with its size");
    LabelPairs edges;
    edges.reserve(head[1]);
    for (uint64_t i = 0, e = 0; e < head[1]; ++e) {
      uint32_t len[2];
      std::memcpy(len, p + i, 8);
      i += 8;
      edges.emplace_back(std::string(p + i, len[0]), std::string(p + i + len[0], len[1]));
      i += uint64_t(len[0]) + len[1];
    }
    out.records.push_back(std::move(edges));
    at += 16 + payload;
  }
  return out;
}

Journal::Journal(const std::string& path, JournalReplay& replay) : path_(path) {
  fd_ = open_journal(path);
  try {
    std::string bytes;
    char buf[1 << 16];
    for (;;) {
      const ssize_t k = ::read(fd_, buf, sizeof buf);
      if (k < 0 && errno == EINTR) continue;
      if (k < 0) throw io_error("cannot read the journal", path);
      if (k == 0) break;
      bytes.append(buf, size_t(k));
    }
    replay = parse_journal(bytes, path);
    uint64_t keep = bytes.size() - replay.torn_tail_bytes;
    if (keep < kHeaderBytes) {  // new, or only a torn header: start it
      if (::ftruncate(fd_, 0) != 0) throw io_error("cannot start the journal", path);
      const std::string h = header();
      if (::pwrite(fd_, h.data(), h.size(), 0) != ssize_t(h.size()) || ::fdatasync(fd_) != 0)
        throw io_error("cannot start the journal", path);
      keep = kHeaderBytes;
      sync_folder_of(path);
    } else if (replay.torn_tail_bytes &&
               (::ftruncate(fd_, off_t(keep)) != 0 || ::fdatasync(fd_) != 0)) {
      throw io_error("cannot cut the journal's torn tail", path);
    }
    if (::lseek(fd_, off_t(keep), SEEK_SET) < 0) throw io_error("cannot seek the journal", path);
    bytes_ = keep;
    records_ = replay.records.size();
  } catch (...) {
    ::close(fd_);
    throw;
  }
}

JournalReplay Journal::read_back() const {
  std::string bytes(bytes_, '\0');
  size_t done = 0;
  while (done < bytes.size()) {
    const ssize_t k = ::pread(fd_, bytes.data() + done, bytes.size() - done, off_t(done));
    if (k < 0 && errno == EINTR) continue;
    if (k <= 0) throw io_error("cannot read the journal", path_);
    done += size_t(k);
  }
  return parse_journal(bytes, path_);
}

Journal::~Journal() {
  if (fd_ >= 0) ::close(fd_);
}

void Journal::append(const LabelPairs& edges) {
  const std::string record = journal_record(edges);
  try {
    write_all(fd_, record.data(), record.size(), path_);
    if (::fdatasync(fd_) != 0) throw io_error("cannot sync the journal", path_);
  } catch (...) {
    // Nothing of an unacknowledged record may stay: a replay would apply it.
    if (::ftruncate(fd_, off_t(bytes_)) == 0) ::fdatasync(fd_);
    ::lseek(fd_, off_t(bytes_), SEEK_SET);
    throw;
  }
  bytes_ += record.size();
  ++records_;
}

void Journal::reset() {
  const std::string fresh = path_ + ".new";
  ::unlink(fresh.c_str());
  const int fd = ::open(fresh.c_str(), O_RDWR | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0644);
  if (fd < 0) throw io_error("cannot start a new journal", fresh);
  (void)::flock(fd, LOCK_EX | LOCK_NB);  // new, so no one else's: held before it is the journal
  const std::string h = header();
  try {
    write_all(fd, h.data(), h.size(), fresh);
    if (::fdatasync(fd) != 0) throw io_error("cannot sync the journal", fresh);
    if (::rename(fresh.c_str(), path_.c_str()) != 0) throw io_error("cannot replace", path_);
  } catch (...) {
    ::close(fd);
    ::unlink(fresh.c_str());
    throw;
  }
  sync_folder_of(path_);
  ::close(fd_);
  fd_ = fd;
  ::lseek(fd_, off_t(h.size()), SEEK_SET);
  bytes_ = h.size();
  records_ = 0;
}

}  // namespace closure::serve
