// The one input source: peeking never loses the start of a pipe, a file that changes under
// the reader is reported as changed (never SIGBUS), an index file is read, not mapped, and
// one long line from a pipe costs what it holds; every input opened is noted so the output
// guard refuses to write over it.
#include <fcntl.h>
#include <gtest/gtest.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <chrono>
#include <cstdio>
#include <fstream>
#include <random>
#include <string>
#include <thread>

#include "closure/graph/input_source.hpp"
#include "closure/graph/line_source.hpp"
#include "closure/graph/read_graph.hpp"
#include "closure/io/atomic_file.hpp"
#include "closure/reach/index_file.hpp"
#include "closure/reach/reach_index.hpp"
#include "closure/util/input_registry.hpp"

namespace closure {
namespace {

std::string temp_path(const std::string& name) {
  return ::testing::TempDir() + "input_source_" + std::to_string(::getpid()) + "_" + name;
}

void write_file(const std::string& path, const std::string& text) {
  std::ofstream(path, std::ios::binary) << text;
}

// A pipe whose write end a thread fills with `text`; the read end is returned as a path
// (/dev/fd/N), as bash's <(...) gives one.
struct Pipe {
  explicit Pipe(std::string text) {
    int fds[2];
    EXPECT_EQ(::pipe(fds), 0);
    read_fd = fds[0];
    writer = std::thread([fd = fds[1], text = std::move(text)] {
      size_t done = 0;
      while (done < text.size()) {
        const ssize_t k = ::write(fd, text.data() + done, text.size() - done);
        if (k <= 0) break;
        done += size_t(k);
      }
      ::close(fd);
    });
  }
  ~Pipe() {
    writer.join();
    ::close(read_fd);
  }
  std::string path() const { return "/dev/fd/" + std::to_string(read_fd); }
  int read_fd = -1;
  std::thread writer;
};

std::string random_edges(std::mt19937_64& rng, size_t n, size_t m) {
  std::string text;
  std::uniform_int_distribution<size_t> pick(0, n - 1);
  for (size_t i = 0; i < m; ++i)
    text += std::to_string(pick(rng)) + " " + std::to_string(pick(rng)) + "\n";
  return text;
}

TEST(InputSource, PeekDoesNotConsumeAPipe) {
  Pipe pipe("1 2\n2 3\n3 4\n");
  InputSource in(pipe.path());
  EXPECT_FALSE(in.regular());
  EXPECT_EQ(in.peek(8), "1 2\n2 3\n");
  EXPECT_FALSE(reach::is_index(in));
  LineSource src(std::move(in));
  const ReadResult r = read_graph(src);
  EXPECT_EQ(r.graph.vertex_count(), 4u);
  EXPECT_EQ(r.graph.edge_count(), 3u);
}

// Pipe and file give the same graph (same labels, same edges) on random inputs, whatever
// was peeked first.
TEST(InputSource, PipeAndFileReadTheSameGraph) {
  std::mt19937_64 rng(24);
  for (size_t round = 0; round < 12; ++round) {
    const std::string text = random_edges(rng, 1 + round * 37, 1 + round * 211);
    const std::string path = temp_path("same.txt");
    write_file(path, text);
    const ReadResult from_file = read_graph(path);
    Pipe pipe(text);
    InputSource in(pipe.path());
    (void)in.peek(1 + round);  // any peek, as format detection does
    LineSource src(std::move(in));
    const ReadResult from_pipe = read_graph(src);
    ASSERT_EQ(from_pipe.graph.vertex_count(), from_file.graph.vertex_count()) << round;
    ASSERT_EQ(from_pipe.graph.edge_count(), from_file.graph.edge_count()) << round;
    for (vertex_t v = 0; v < from_file.graph.vertex_count(); ++v) {
      ASSERT_EQ(from_pipe.graph.label(v), from_file.graph.label(v));
      const auto a = from_file.graph.successors(v), b = from_pipe.graph.successors(v);
      ASSERT_TRUE(std::equal(a.begin(), a.end(), b.begin(), b.end())) << round << " " << v;
    }
    std::remove(path.c_str());
  }
}

TEST(InputSource, AnIndexFromAPipeLoadsAsFromItsFile) {
  const Graph g(5, {{0, 1}, {1, 2}, {2, 0}, {2, 3}, {4, 4}}, {"a", "bb", "c", "dd", "e"});
  const std::string image = reach::index_image(reach::build_index(g));
  Pipe pipe(image);
  InputSource in(pipe.path());
  ASSERT_TRUE(reach::is_index(in));
  auto index = reach::load_index(std::move(in));
  EXPECT_EQ(index->vertex_count(), 5u);
  // A pipe that ends early, or goes on past the declared size, is refused.
  Pipe short_pipe(image.substr(0, image.size() - 5));
  EXPECT_THROW(reach::load_index(InputSource(short_pipe.path())), reach::IndexFileError);
  Pipe long_pipe(image + "extra");
  EXPECT_THROW(reach::load_index(InputSource(long_pipe.path())), reach::IndexFileError);
}

// Another process truncating the file while it is read: the reader says the file changed
// (exit status 3), it does not die of SIGBUS. Run in a child, so that a SIGBUS would show
// as a signal and not end the test binary.
TEST(InputSource, AFileTruncatedUnderTheMappingIsReportedNotSigbus) {
  const std::string path = temp_path("shrinks.txt");
  std::string text;
  for (int i = 0; i < 200000; ++i) text += std::to_string(i) + " " + std::to_string(i + 1) + "\n";
  write_file(path, text);
  const pid_t child = ::fork();
  ASSERT_GE(child, 0);
  if (child == 0) {
    int code = 10;
    try {
      LineSource src(path);
      std::string_view line;
      ASSERT_TRUE(src.next(line));
      // The file shrinks to a page: every later page of the mapping is gone.
      if (::truncate(path.c_str(), 4096) != 0) ::_exit(11);
      while (src.next(line)) {
      }
      src.check_unchanged();
      code = 12;  // read to the end without noticing
    } catch (const InputError& e) {
      code = std::string(e.what()).find("changed while it was read") != std::string::npos ? 0 : 13;
    } catch (...) {
      code = 14;
    }
    ::_exit(code);
  }
  int status = 0;
  ASSERT_EQ(::waitpid(child, &status, 0), child);
  ASSERT_TRUE(WIFEXITED(status)) << "the child died of signal " << WTERMSIG(status);
  EXPECT_EQ(WEXITSTATUS(status), 0);
  std::remove(path.c_str());
}

TEST(InputSource, AFileRewrittenInPlaceWhileReadIsReported) {
  const std::string path = temp_path("rewritten.txt");
  write_file(path, "1 2\n2 3\n");
  LineSource src(path);
  std::string_view line;
  ASSERT_TRUE(src.next(line));
  std::this_thread::sleep_for(std::chrono::milliseconds(20));
  write_file(path, "1 2\n2 3\n3 4\n");  // in place: same inode, new size and time
  EXPECT_THROW(src.check_unchanged(), InputError);
  std::remove(path.c_str());
}

TEST(InputSource, AnIndexFileTruncatedAfterLoadingStillAnswers) {
  const Graph g(4, {{0, 1}, {1, 2}, {2, 3}});
  const std::string path = temp_path("g.idx");
  reach::write_index(path, reach::build_index(g));
  auto index = reach::load_index(path);
  ASSERT_EQ(::truncate(path.c_str(), 0), 0);
  reach::Querier q(*index);
  EXPECT_TRUE(q.reaches(0, 3));
  EXPECT_FALSE(q.reaches(3, 0));
  EXPECT_EQ(index->label(3), "3");
  std::remove(path.c_str());
}

TEST(InputSource, OneLongLineFromAPipeIsReadWhole) {
  // 8 MB in one line (a vertex name), read through 64 KiB pipe reads: every byte of it
  // arrives, and the graph is right.
  const std::string name(size_t{8} << 20, 'v');
  Pipe pipe(name + " w\nw x\n");
  const ReadResult r = read_graph(pipe.path());
  ASSERT_EQ(r.graph.vertex_count(), 3u);
  EXPECT_EQ(r.graph.label(0), name);
  EXPECT_EQ(r.graph.edge_count(), 2u);
}

TEST(OutputGuard, AnInputOfThisProcessIsNeverAnOutput) {
  const std::string path = temp_path("guarded.txt"), link = temp_path("guarded-link.txt");
  write_file(path, "1 2\n");
  std::remove(link.c_str());
  ASSERT_EQ(::symlink(path.c_str(), link.c_str()), 0);
  {
    const InputScope command;
    EXPECT_NO_THROW(classify_output(path));
    (void)read_graph(path);
    EXPECT_THROW(classify_output(path), UsageError);
    EXPECT_THROW(classify_output(link), UsageError);  // the same file by another name
    EXPECT_THROW(AtomicFile{path}, UsageError);
  }
  EXPECT_NO_THROW(classify_output(path));  // a later command may write it
  std::ifstream in(path);
  std::string text((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  EXPECT_EQ(text, "1 2\n");
  std::remove(link.c_str());
  std::remove(path.c_str());
}

}  // namespace
}  // namespace closure
