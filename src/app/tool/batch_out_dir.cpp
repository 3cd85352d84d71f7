// BatchOutDir: the lock, the ownership list and the recognition of older batch folders.
#include "app/tool/batch_out_dir.hpp"

#include <fcntl.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <filesystem>

#include "app/tool/batch_record.hpp"
#include "closure/errors.hpp"
#include "closure/util/small_file.hpp"

namespace closure {
namespace fs = std::filesystem;

namespace {

constexpr size_t kMaxListBytes = size_t{256} << 20;
constexpr const char* kCsvHeader = "file,vertices,edges,components,dag,pairs,";

// The first bytes of a regular file (opened without blocking: a FIFO is not waited on).
std::string first_bytes(const std::string& path, size_t n) {
  const int fd = ::open(path.c_str(), O_RDONLY | O_NONBLOCK | O_CLOEXEC);
  if (fd < 0) return {};
  struct stat st {};
  std::string out;
  if (::fstat(fd, &st) == 0 && S_ISREG(st.st_mode)) {
    out.resize(n);
    const ssize_t got = ::pread(fd, out.data(), n, 0);
    out.resize(got > 0 ? size_t(got) : 0);
  }
  ::close(fd);
  return out;
}

// A file a batch of an older version wrote, recognised by what it holds: summary tables by
// their first bytes (they may be large), records by parsing them whole.
bool written_by_a_batch(const std::string& path) {
  const std::string name = fs::path(path).filename().string();
  if (name == "summary.csv") return first_bytes(path, 64).rfind(kCsvHeader, 0) == 0;
  if (name == "summary.json") return first_bytes(path, 16).rfind("[\n  {\"file\":", 0) == 0;
  std::string text;
  if (read_small_file(path, kMaxRecordBytes, text) != SmallFileStatus::kOk) return false;
  return name.ends_with(".summary.json") && parse_record(text).has_value();
}

}  // namespace

BatchOutDir::BatchOutDir(const std::string& dir) : dir_(dir) {
  std::error_code ec;
  // --out naming something that is not a folder (the input itself, say, or a path through
  // a file: `afile/`) is the user's to change, as `-o` onto the input is: a usage error (2),
  // not a failure to create (4).
  struct stat st {};
  if (dir.empty()) throw UsageError("batch: --out is empty; name a folder to write into");
  if (::stat(dir.c_str(), &st) == 0 ? !S_ISDIR(st.st_mode) : errno == ENOTDIR)
    throw UsageError("batch: --out " + dir + " is not a folder; name a folder to write into");
  fs::create_directories(dir, ec);
  if (ec)
    throw ResourceError("batch: cannot create the output folder " + dir + ": " + ec.message());
  const std::string lock = (fs::path(dir) / ".closure-batch.lock").string();
  lock_fd_ = ::open(lock.c_str(), O_RDWR | O_CREAT | O_CLOEXEC, 0644);
  if (lock_fd_ < 0) throw ResourceError("batch: cannot open " + lock + ": " + std::strerror(errno));
  if (::flock(lock_fd_, LOCK_EX | LOCK_NB) != 0) {
    const int e = errno;
    ::close(lock_fd_);
    if (e == EWOULDBLOCK)
      throw UsageError("batch: another `closure batch` is writing into " + dir +
                       "; wait for it to finish or choose another --out");
    throw ResourceError("batch: cannot lock " + lock + ": " + std::strerror(e));
  }
  const std::string list = (fs::path(dir) / ".closure-batch.owned").string();
  std::string text;
  int error = 0;
  const SmallFileStatus status = read_small_file(list, kMaxListBytes, text, &error);
  if (status != SmallFileStatus::kOk && status != SmallFileStatus::kMissing)
    throw ResourceError("batch: the ownership list " + list + " " +
                        describe(status, kMaxListBytes, error));
  for (size_t at = 0; at < text.size();) {
    size_t end = text.find('\n', at);
    if (end == std::string::npos) end = text.size();
    if (end > at) owned_.emplace(text.substr(at, end - at));
    at = end + 1;
  }
  list_fd_ = ::open(list.c_str(), O_WRONLY | O_CREAT | O_APPEND | O_CLOEXEC, 0644);
  if (list_fd_ < 0)
    throw ResourceError("batch: cannot write " + list + ": " + std::strerror(errno));
}

BatchOutDir::~BatchOutDir() {
  if (list_fd_ >= 0) ::close(list_fd_);
  if (lock_fd_ >= 0) ::close(lock_fd_);  // releases the lock
}

std::string BatchOutDir::relative(const std::string& path) const {
  return fs::path(path).lexically_relative(dir_).generic_string();
}

bool BatchOutDir::may_write(const std::string& path) const {
  std::error_code ec;
  const fs::file_status status = fs::symlink_status(path, ec);
  if (!fs::exists(status)) return true;
  if (fs::is_symlink(status)) return false;  // placed by someone else: a batch writes no link
  if (owned_.count(relative(path))) return true;
  if (written_by_a_batch(path)) return true;
  // A closure file that an older batch's record names.
  const std::string name = fs::path(path).filename().string();
  const size_t closure = name.rfind(".closure.");
  if (closure == std::string::npos) return false;
  const std::string record =
      (fs::path(path).parent_path() / (name.substr(0, closure) + ".summary.json")).string();
  std::string text;
  if (read_small_file(record, kMaxRecordBytes, text) != SmallFileStatus::kOk) return false;
  const auto parsed = parse_record(text);
  return parsed && parsed->output_name == name;
}

void BatchOutDir::check_may_write(const std::string& path) const {
  if (!may_write(path))
    throw UsageError("batch: " + path +
                     " exists and was not written by closure batch; it is left alone (move it, "
                     "or choose another --out)");
}

void BatchOutDir::claim(const std::string& path) {
  std::string rel = relative(path);
  if (rel.find('\n') != std::string::npos) return;  // one name a line: such a name cannot be listed
  if (owned_.count(rel)) return;
  rel.push_back('\n');
  // One write of one short line in O_APPEND mode, before the file is written: where it
  // fails (a full disk), the file is not written, for a file the list does not name would be
  // refused as the user's by every later run.
  const ssize_t n = ::write(list_fd_, rel.data(), rel.size());
  if (n != ssize_t(rel.size())) {
    const std::string why = n < 0 ? std::strerror(errno) : "a short write";
    if (n > 0) (void)!::write(list_fd_, "\n", 1);  // end the partial line: it names no file
    throw ResourceError("batch: cannot note " + path + " as the batch's own in " +
                        (fs::path(dir_) / ".closure-batch.owned").string() + ": " + why);
  }
  rel.pop_back();
  owned_.insert(rel);
}

}  // namespace closure
