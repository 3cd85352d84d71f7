// Output targets: streams written directly, regular files through a temporary + rename.
#include "closure/io/atomic_file.hpp"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <atomic>
#include <cerrno>
#include <climits>
#include <csignal>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fstream>

#include "closure/util/input_registry.hpp"
#include "closure/util/random_bits.hpp"

namespace closure {
namespace {

// Temporaries with a name (the mkstemp fallback only) still open, so that Ctrl-C or a kill
// removes them too (destructors do not run then). Fixed slots, because the signal handler
// may only read and unlink: a slot is claimed, its path written, then marked ready.
constexpr int kSlots = 64;
constexpr size_t kPathMax = 4096;
char g_paths[kSlots][kPathMax];
std::atomic<bool> g_claimed[kSlots];
std::atomic<bool> g_ready[kSlots];

extern "C" void remove_temporaries_and_reraise(int sig) {
  for (int i = 0; i < kSlots; ++i)
    if (g_ready[i].load(std::memory_order_acquire)) ::unlink(g_paths[i]);
  std::signal(sig, SIG_DFL);
  std::raise(sig);
}

// Installs the handler for SIGINT, SIGTERM and SIGHUP, except where the signal is
// ignored (under nohup, SIGHUP must stay ignored).
void install_handler_once() {
  static const bool installed = [] {
    for (int sig : {SIGINT, SIGTERM, SIGHUP}) {
      struct sigaction old {};
      if (::sigaction(sig, nullptr, &old) == 0 && old.sa_handler == SIG_IGN) continue;
      struct sigaction action {};
      action.sa_handler = remove_temporaries_and_reraise;
      sigemptyset(&action.sa_mask);
      ::sigaction(sig, &action, nullptr);
    }
    return true;
  }();
  (void)installed;
}

int register_temporary(const std::string& path) {
  install_handler_once();
  if (path.size() >= kPathMax) return -1;
  for (int i = 0; i < kSlots; ++i) {
    bool expected = false;
    if (!g_claimed[i].compare_exchange_strong(expected, true)) continue;
    std::memcpy(g_paths[i], path.c_str(), path.size() + 1);
    g_ready[i].store(true, std::memory_order_release);
    return i;
  }
  return -1;  // more than kSlots outputs at once: only the destructor cleans this one up
}

void unregister_temporary(int slot) {
  if (slot < 0) return;
  g_ready[slot].store(false, std::memory_order_release);
  g_claimed[slot].store(false, std::memory_order_release);
}

FileSystemError io_error(const std::string& what, const std::string& path, int err = errno) {
  return FileSystemError(what + " " + path + ": " + std::strerror(err), err, path);
}

std::string folder_of(const std::string& path) {
  const auto slash = path.find_last_of('/');
  if (slash == std::string::npos) return ".";
  if (slash == 0) return "/";
  return path.substr(0, slash);
}

std::string base_of(const std::string& path) {
  const auto slash = path.find_last_of('/');
  return slash == std::string::npos ? path : path.substr(slash + 1);
}

// A name nobody can guess, for the moment between linkat and rename.
std::string random_suffix() {
  static std::atomic<uint64_t> counter{0};
  const uint64_t x = random_u64() + counter.fetch_add(1);
  char buf[24];
  std::snprintf(buf, sizeof buf, "%016llx", static_cast<unsigned long long>(x));
  return buf;
}

// The temporary beside `target`: "." + its name + ".tmp-" + `suffix`, its name cut short
// where the whole would pass the longest name a folder holds (NAME_MAX, 255 bytes), so that
// every name the file system takes can be written.
std::string temporary_name(const std::string& target, const std::string& suffix) {
  constexpr size_t kNameMax = 255;
  const std::string tail = ".tmp-" + suffix;
  const std::string base = base_of(target).substr(0, kNameMax - 1 - tail.size());
  return folder_of(target) + "/." + base + tail;
}

// The process's umask without changing it (umask(2) would race with other threads):
// Linux reports it in /proc/self/status; 022 where it does not.
mode_t current_umask() {
  std::ifstream status("/proc/self/status");
  for (std::string line; std::getline(status, line);)
    if (line.rfind("Umask:", 0) == 0) return mode_t(std::strtoul(line.c_str() + 6, nullptr, 8));
  return 022;
}

constexpr size_t kBufferBytes = size_t{1} << 20;

}  // namespace

// The regular files an output never replaces: an input of this command, a hard-linked file.
static void refuse_replacing(const std::string& path, const struct stat& st) {
  if (is_noted_input(st))
    throw UsageError("output " + path +
                     " is an input of this command; writing it would replace what is being "
                     "read (choose another output)");
  if (st.st_nlink > 1)
    throw UsageError("output " + path + " has " + std::to_string(st.st_nlink) +
                     " hard links; replacing it would break them and writing it in place "
                     "would not be atomic: remove it first or write elsewhere");
}

// classify_output for a name a command owns inside `within` (see the header).
static OutputTarget classify_owned_output(const std::string& path, const std::string& within) {
  struct stat link {};
  if (::lstat(path.c_str(), &link) == 0) {
    if (S_ISLNK(link.st_mode))
      throw UsageError(path + " is a symbolic link; a name this command owns in " + within +
                       " is never written through a link (remove the link)");
    if (!S_ISREG(link.st_mode))
      throw UsageError(path + " exists and is not a regular file; it is left alone (move it)");
    refuse_replacing(path, link);
  }
  char folder[PATH_MAX], root[PATH_MAX];
  if (!::realpath(folder_of(path).c_str(), folder))
    throw io_error("cannot resolve", folder_of(path));
  if (!::realpath(within.c_str(), root)) throw io_error("cannot resolve", within);
  const std::string f = folder, r = root;
  const bool inside = f == r || (f.size() > r.size() && f.compare(0, r.size(), r) == 0 &&
                                 (r == "/" || f[r.size()] == '/'));
  if (!inside)
    throw UsageError(path + " leads out of " + within + " through a symbolic link (to " + f +
                     "); nothing is written there");
  return {false, f + "/" + base_of(path)};
}

namespace {

// The descriptor a resolved path spells (/dev/stdin, /dev/stdout, /dev/stderr, or
// /proc/PID/fd/N and /proc/PID/task/TID/fd/N with this process's PID, which /dev/fd/N,
// /proc/self/fd/N and /proc/thread-self/fd/N resolve to); else -1.
int spelt_descriptor(const std::string& path) {
  // This process as /proc names it (what /proc/self resolves to: in a PID namespace that
  // shares the outer /proc, not getpid()).
  static const std::string own = [] {
    std::error_code ec;
    const std::filesystem::path self = std::filesystem::canonical("/proc/self", ec);
    return (ec ? "/proc/" + std::to_string(::getpid()) : self.string()) + "/";
  }();
  if (path == "/dev/stdin") return STDIN_FILENO;
  if (path == "/dev/stdout") return STDOUT_FILENO;
  if (path == "/dev/stderr") return STDERR_FILENO;
  if (!path.starts_with(own)) return -1;
  std::string_view rest = std::string_view(path).substr(own.size());
  if (rest.starts_with("task/")) {  // task/TID/fd/N
    const size_t slash = rest.find('/', 5);
    if (slash == std::string_view::npos || slash == 5 ||
        rest.substr(5, slash - 5).find_first_not_of("0123456789") != std::string_view::npos)
      return -1;
    rest.remove_prefix(slash + 1);
  }
  // Digits as the kernel names a descriptor: no leading zero (/dev/fd/01 is no file).
  if (!rest.starts_with("fd/") || rest.size() == 3 || rest.size() > 12 ||
      rest.find_first_not_of("0123456789", 3) != std::string_view::npos ||
      (rest[3] == '0' && rest.size() > 4))
    return -1;
  return std::stoi(std::string(rest.substr(3)));
}

// The descriptor `path` names, however spelt (//dev/stdout, /dev/./stdout, /dev/fd/N, a
// linked folder, a link to such a name), resolved as the kernel does up to the name: each
// folder made canonical, each link's target taken from its own folder; else -1. A link
// from /dev/stdout on is the descriptor's own file (replaced, it lost what the shell had
// written there). A name of a descriptor this process does not hold is refused.
int named_descriptor(const std::string& path) {
  namespace fs = std::filesystem;
  std::error_code ec;
  fs::path p = fs::absolute(path, ec);
  for (int hop = 0; !ec && hop < 40; ++hop) {
    const fs::path name = p.filename();
    if (name.empty() || name == "." || name == "..") return -1;
    const fs::path folder = fs::canonical(p.parent_path(), ec);
    if (ec) return -1;
    p = folder / name;
    if (const int fd = spelt_descriptor(p.string()); fd >= 0) {
      if (::fcntl(fd, F_GETFD) < 0)
        throw UsageError("output " + path + " names descriptor " + std::to_string(fd) +
                         ", which this process does not hold open");
      return fd;
    }
    if (!fs::is_symlink(p, ec)) return -1;
    const fs::path to = fs::read_symlink(p, ec);
    p = to.is_absolute() ? to : folder / to;
  }
  return -1;
}

}  // namespace

OutputTarget classify_output(const std::string& path, const std::string& within) {
  if (path.empty()) throw UsageError("the output path is empty (use - for standard output)");
  if (!within.empty()) return classify_owned_output(path, within);
  if (path == "-") return {true, path};
  if (const int fd = named_descriptor(path); fd >= 0) return {true, path, fd};
  struct stat st {};
  if (::stat(path.c_str(), &st) != 0) {
    struct stat link {};
    if (::lstat(path.c_str(), &link) == 0 && S_ISLNK(link.st_mode))
      throw UsageError("output " + path +
                       " is a symbolic link to nothing; remove it or name "
                       "the file itself");
    return {false, path};  // a new file (a missing folder fails when it is created)
  }
  if (S_ISDIR(st.st_mode)) throw UsageError("output " + path + " is a folder");
  if (!S_ISREG(st.st_mode)) return {true, path};
  refuse_replacing(path, st);
  char real[PATH_MAX];
  if (!::realpath(path.c_str(), real)) throw io_error("cannot resolve", path);
  return {false, real};
}

void refuse_output_onto_input(const std::string& input, const std::string& output) {
  struct stat st {};
  if (input.empty() || input == "-" || ::stat(input.c_str(), &st) != 0) return;
  note_input(st);  // what the input source will note when it opens it
  struct stat out {};
  if (!output.empty() && output != "-" && ::stat(output.c_str(), &out) == 0 &&
      S_ISREG(st.st_mode) && out.st_dev == st.st_dev && out.st_ino == st.st_ino)
    throw UsageError("output " + output + " is an input of this command (" + input +
                     "); writing it would replace what is being read (choose another output)");
  if (!output.empty()) classify_output(output);
}

AtomicFile::AtomicFile(std::string path, const std::string& within) : path_(std::move(path)) {
  const OutputTarget target = classify_output(path_, within);
  stream_ = target.stream;
  target_ = target.path;
  if (path_ == "-") {
    fd_ = STDOUT_FILENO;
  } else if (target.descriptor >= 0) {
    fd_ = ::fcntl(target.descriptor, F_DUPFD_CLOEXEC, 0);  // its offset and flags, shared
    if (fd_ < 0) throw io_error("cannot write to", path_);
    owns_fd_ = true;
  } else if (stream_) {
    fd_ = ::open(path_.c_str(), O_WRONLY | O_NOCTTY | O_CLOEXEC);
    if (fd_ < 0) throw io_error("cannot open", path_);
    owns_fd_ = true;
  } else {
    struct stat st {};
    if (::stat(target_.c_str(), &st) == 0) {
      replace_existing_ = true;
      mode_ = st.st_mode & 07777;
      uid_ = st.st_uid;
      gid_ = st.st_gid;
    }
    const std::string folder = folder_of(target_);
#ifdef O_TMPFILE
    fd_ = ::open(folder.c_str(), O_TMPFILE | O_WRONLY | O_CLOEXEC, 0666);
    anonymous_ = fd_ >= 0;
#endif
    if (fd_ < 0) {
      // No O_TMPFILE here (an old kernel, or a file system without it): a named temporary,
      // O_EXCL with a random name (mkstemp), removed on failure and on SIGINT/TERM/HUP.
      tmp_name_ = temporary_name(target_, "XXXXXX");
      fd_ = ::mkstemp(tmp_name_.data());
      if (fd_ < 0) throw io_error("cannot create a temporary file in", folder);
      ::fchmod(fd_, 0666 & ~current_umask());  // mkstemp makes 0600; a new file gets 0666-umask
      slot_ = register_temporary(tmp_name_);
    }
    owns_fd_ = true;
  }
  buffer_.reserve(kBufferBytes);
}

AtomicFile::~AtomicFile() {
  if (owns_fd_ && fd_ >= 0) ::close(fd_);
  if (!committed_ && !tmp_name_.empty()) ::unlink(tmp_name_.c_str());
  unregister_temporary(slot_);
}

void AtomicFile::write_all(const char* data, size_t size) {
  while (size > 0) {
    const ssize_t n = ::write(fd_, data, size);
    if (n < 0) {
      if (errno == EINTR) continue;
      if (errno == EPIPE) throw OutputClosedError("the reader of " + path_ + " has gone");
      throw io_error("cannot write", path_);
    }
    data += n;
    size -= size_t(n);
    written_ += uint64_t(n);
  }
}

void AtomicFile::flush_buffer() {
  write_all(buffer_.data(), buffer_.size());
  buffer_.clear();
}

void AtomicFile::write(const void* data, size_t size) {
  const char* p = static_cast<const char*>(data);
  if (buffer_.size() + size > kBufferBytes) flush_buffer();
  if (size >= kBufferBytes) {
    write_all(p, size);
  } else {
    buffer_.insert(buffer_.end(), p, p + size);
  }
}

void AtomicFile::write(std::string_view bytes) {
  write(bytes.data(), bytes.size());
}

void AtomicFile::commit() {
  flush_buffer();
  if (stream_) {
    committed_ = true;
    return;
  }
  if (::fsync(fd_) != 0) throw io_error("cannot write", path_);
  if (replace_existing_) {
    // Keep the replaced file's owner (allowed for root, or a group we belong to) and mode.
    if (::fchown(fd_, uid_, gid_) != 0 && ::fchown(fd_, uid_t(-1), gid_) != 0) {
      // Not ours to give away: the new file is the writer's, as with any editor's save.
    }
    if (::fchmod(fd_, mode_t(mode_)) != 0) throw io_error("cannot set the mode of", path_);
  }
  if (anonymous_) {
    // Give the nameless file an unguessable name beside the target, then rename it over.
    tmp_name_ = temporary_name(target_, random_suffix());
    const std::string self = "/proc/self/fd/" + std::to_string(fd_);
    if (::linkat(AT_FDCWD, self.c_str(), AT_FDCWD, tmp_name_.c_str(), AT_SYMLINK_FOLLOW) != 0) {
      const int err = errno;
      tmp_name_.clear();
      throw io_error("cannot link the output into", folder_of(target_), err);
    }
  }
  const int fd = fd_;
  fd_ = -1;
  if (::close(fd) != 0) throw io_error("cannot write", path_);
  if (::rename(tmp_name_.c_str(), target_.c_str()) != 0)
    throw io_error("cannot rename into", path_);
  committed_ = true;
  tmp_name_.clear();
  unregister_temporary(slot_);
  slot_ = -1;
  // The rename itself is durable once the folder is synced.
  const int dir = ::open(folder_of(target_).c_str(), O_RDONLY | O_DIRECTORY | O_CLOEXEC);
  if (dir >= 0) {
    ::fsync(dir);
    ::close(dir);
  }
}

}  // namespace closure
