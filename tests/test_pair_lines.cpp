// `query --pairs` on an index read in blocks (pair_lines.hpp) against the line-by-line
// reader (answer_pairs): the same bytes out for awkward and hostile input, from a file and
// from a pipe.
#include <gtest/gtest.h>
#include <unistd.h>

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <initializer_list>
#include <memory>
#include <sstream>
#include <string>
#include <thread>

#include "app/tool/index_queries.hpp"
#include "app/tool/pair_digits.hpp"
#include "app/tool/pair_lines.hpp"
#include "app/tool/reachability_queries.hpp"
#include "closure/cpu_features.hpp"
#include "closure/executor.hpp"

namespace closure::reach {
namespace {

struct Answers {
  std::string text;
  QueryBatchStats stats;
};

// The reference: the stream reader, one batch of answer_many per 4096 questions.
Answers by_lines(IndexQueries& q, const std::string& input) {
  std::istringstream in(input);
  std::ostringstream out;
  const BatchAnswerer batch = [&](const auto& questions) { return q.answer_many(questions); };
  Answers a;
  a.stats = answer_pairs(batch, 4096, in, "pairs.txt", out);
  a.text = out.str();
  return a;
}

// The block reader over a pipe a thread writes `input` into, `chunk` bytes a write.
Answers by_blocks(IndexQueries& q, const std::string& input, size_t chunk) {
  int fds[2];
  EXPECT_EQ(::pipe(fds), 0);
  std::thread writer([&] {
    for (size_t at = 0; at < input.size(); at += chunk) {
      const size_t n = std::min(chunk, input.size() - at);
      for (size_t done = 0; done < n;) {
        const ssize_t w = ::write(fds[1], input.data() + at + done, n - done);
        if (w <= 0) break;
        done += size_t(w);
      }
    }
    ::close(fds[1]);
  });
  std::ostringstream out;
  Answers a;
  a.stats = answer_pair_lines(q, fds[0], "pairs.txt", out);
  writer.join();
  ::close(fds[0]);
  a.text = out.str();
  return a;
}

// The block reader over a file (reads of a MiB and more: its pieces go to threads), with at
// most `threads` threads.
Answers by_file(IndexQueries& q, const std::string& input, unsigned threads) {
  char path[] = "/tmp/closure-pairs-XXXXXX";
  const int fd = ::mkstemp(path);
  EXPECT_GE(fd, 0);
  EXPECT_EQ(::write(fd, input.data(), input.size()), ssize_t(input.size()));
  EXPECT_EQ(::lseek(fd, 0, SEEK_SET), 0);
  ::unlink(path);
  std::ostringstream out;
  Answers a;
  with_thread_budget(threads, [&] { a.stats = answer_pair_lines(q, fd, "pairs.txt", out); });
  ::close(fd);
  a.text = out.str();
  return a;
}

// Large outputs compared by their first differing line (GoogleTest's diff of two MiB-long
// strings would take longer than the test).
void expect_same_text(const std::string& got, const std::string& want, const std::string& what) {
  if (got == want) return;
  const size_t at = size_t(
      std::mismatch(got.begin(), got.begin() + std::min(got.size(), want.size()), want.begin())
          .first -
      got.begin());
  const size_t line = want.rfind('\n', at == 0 ? 0 : at - 1);
  const size_t from = line == std::string::npos || at == 0 ? 0 : line + 1;
  ADD_FAILURE() << what << ": the answers differ from byte " << at << " (sizes " << got.size()
                << ", " << want.size() << "): got '" << got.substr(from, 60) << "', want '"
                << want.substr(from, 60) << "'";
}

void expect_same_stats(const Answers& got, const Answers& want, const std::string& what) {
  EXPECT_EQ(got.stats.answered, want.stats.answered) << what;
  EXPECT_EQ(got.stats.reachable, want.stats.reachable) << what;
  EXPECT_EQ(got.stats.unknown, want.stats.unknown) << what;
  EXPECT_EQ(got.stats.malformed, want.stats.malformed) << what;
}

void expect_same(IndexQueries& q, const std::string& input, const std::string& what,
                 std::initializer_list<size_t> chunks = {1, 3, 4096, size_t{1} << 22}) {
  const Answers want = by_lines(q, input);
  for (size_t chunk : chunks) {
    const Answers got = by_blocks(q, input, chunk);
    EXPECT_EQ(got.text, want.text) << what << ", written " << chunk << " bytes at a time";
    expect_same_stats(got, want, what);
  }
}

// A file's pieces answered on 1 to 5 threads, as the line reader answers; the querier counts
// as many queries on any number of threads as on one (the twins' counts are added to it).
void expect_same_on_threads(IndexQueries& q, const std::string& input, const std::string& what) {
  const Answers want = by_lines(q, input);
  uint64_t one_thread = 0;
  for (unsigned threads : {1u, 2u, 3u, 5u}) {
    const uint64_t before = q.stats().queries;
    const Answers got = by_file(q, input, threads);
    expect_same_text(got.text, want.text, what + ", " + std::to_string(threads) + " threads");
    expect_same_stats(got, want, what);
    const uint64_t queries = q.stats().queries - before;
    if (threads == 1) one_thread = queries;
    EXPECT_EQ(queries, one_thread) << what << ", " << threads << " threads";
    EXPECT_GT(queries, want.stats.answered / 2) << what;
  }
}

LivingIndex named_index() {
  // a -> b -> c -> a (a cycle), c -> d, e alone, f -> f, '#x' -> d (a name that needs escaping).
  const Graph g(7, {{0, 1}, {1, 2}, {2, 0}, {2, 3}, {5, 5}, {6, 3}},
                {"a", "b", "c", "d", "e", "f", "#x"});
  return LivingIndex(std::make_shared<const ReachIndex>(build_index(g)));
}

TEST(PairLines, AwkwardLinesAnswerAsTheLineReaderDoes) {
  const LivingIndex index = named_index();
  for (bool reflexive : {false, true}) {
    IndexQueries q(index, reflexive);
    expect_same(q, "", "empty input");
    expect_same(q, "a d", "no line end");
    expect_same(q, "a d\nd a\n", "plain");
    expect_same(q, "a d\r\nd a\r\ne e\r\n", "CRLF");
    expect_same(q, "a a\ne e\nf f\nd d\n", "self pairs");
    expect_same(q, "# comment\n\n   \n\ta\t d  # trailing\n", "comments, blanks, tabs");
    expect_same(q, "a\nb c d\n\n#\nc\n", "malformed");
    expect_same(q, "nobody a\na nobody\nnobody nobody\n", "unknown labels");
    expect_same(q, "\\#x d\n\\#x a\n#x d\n\\\\a b\n", "escaped labels");
    expect_same(q, std::string("a\0 d\na d\n", 10), "a NUL byte");
    expect_same(q, "a d\rd a\r", "CR only: one line");
    expect_same(q, "\n\n\n", "only line ends");
  }
}

// A UTF-8 byte order mark before the first line is skipped, as graph readers skip it (it
// had been read as part of the first label: "unknown vertex '\xEF\xBB\xBFa'"); anywhere
// else it is a label's bytes. Both readers, written 1 to 4096 bytes at a time.
TEST(PairLines, AByteOrderMarkBeforeTheFirstLineIsSkipped) {
  const LivingIndex index = named_index();
  IndexQueries q(index, false);
  const std::string bom = "\xEF\xBB\xBF";
  for (const std::string lines : {"a d\nd a\n", "# comment\na d\n", "\\#x d\n", ""}) {
    const Answers plain = by_lines(q, lines);
    expect_same_text(by_lines(q, bom + lines).text, plain.text, "lines, BOM + " + lines);
    for (size_t chunk : {1, 2, 3, 4096})
      expect_same_text(by_blocks(q, bom + lines, chunk).text, plain.text, "blocks, BOM + " + lines);
  }
  const std::string inner = "a d\n" + bom + "a d\n";
  expect_same(q, inner, "a BOM on the second line");
  EXPECT_NE(by_lines(q, inner).text.find("unknown vertex"), std::string::npos);
}

TEST(PairLines, LongLinesAndManyLinesCrossBlocks) {
  const LivingIndex index = named_index();
  IndexQueries q(index, false);
  const std::string huge(3 << 20, 'x');
  expect_same(q, "a d\n" + huge + " a\nb d\n", "a 3 MiB label", {4093, size_t{1} << 22});
  expect_same(q, "a " + huge, "a 3 MiB label without a line end", {65536});
  std::string many;
  const char* names[] = {"a", "b", "c", "d", "e", "f", "\\#x", "zz"};
  for (size_t i = 0; i < 200000; ++i) {
    many += names[i % 8];
    many += i % 997 == 0 ? "\n" : " ";
    many += names[(i / 8) % 8];
    many += '\n';
  }
  expect_same(q, many, "200000 lines", {777, size_t{1} << 22});
}

TEST(PairLines, NumberedIndex) {
  const Graph g(1000, {{0, 999}, {999, 5}, {5, 0}, {7, 8}});
  const LivingIndex index(std::make_shared<const ReachIndex>(build_index(g)));
  IndexQueries q(index, false);
  expect_same(q, "0 5\n5 999\n8 7\n7 8\n007 8\n1000 1\n-1 2\n4294967296 1\n 999 999\n",
              "numbers, leading zeros, out of range");
  // The lines a numbered index reads in one pass (digits, blanks, a line end) beside those
  // it leaves to the general split: each must answer as the line reader does.
  expect_same(q, "0 0\n00 0\n0 00\n5\t\t999\n999  5 \t\r\n7 8\r\n", "blanks, CR, zeros");
  expect_same(q, "7 8 # why\n7 8 9\n7 8\v\n7 8\f\n7\n7 \n 7 8\n\t7 8\n", "comments, extras");
  expect_same(q, "7 8x\n7x 8\n+7 8\n7 +8\n7 \\#8\n#7 8\n7#8 1\n", "not digits");
  expect_same(q, "9999999999 1\n1 9999999999\n99999999999999999999999 1\n0000000000 5\n",
              "ten digits and more");
  expect_same(q, "999 5", "the last line without its end");
  expect_same(q, "999 5 ", "the last line ending in a blank");
  std::string many;
  for (size_t i = 0; i < 100000; ++i) {
    const size_t u = (i * 7919) % 1003, v = (i * 104729) % 1001;  // a few past 999
    many += std::to_string(u);
    many += i % 10 == 0 ? "\t" : " ";
    many += std::to_string(v);
    many += i % 17 == 0 ? " # c\n" : i % 13 == 0 ? "\r\n" : "\n";
  }
  expect_same(q, many, "100000 numbered lines", {1000, size_t{1} << 22});
  IndexQueries reflexive(index, true);
  expect_same(reflexive, many, "100000 numbered lines, reflexive", {size_t{1} << 22});
}

// A block's plain lines are answered in runs that end at its first other line: a malformed
// line (whose message keeps its place), an unknown vertex, a line read as labels (a tab,
// a comment) or a reflexive same-vertex pair; a run may also end at the block's end. Runs of
// every length from 0 to 40 between them, with and without --reflexive.
TEST(PairLines, PlainRunsEndAtEveryOtherKindOfLine) {
  const Graph g(1000, {{0, 999}, {999, 5}, {5, 0}, {7, 8}, {8, 9}});
  const LivingIndex index(std::make_shared<const ReachIndex>(build_index(g)));
  const char* others[] = {"7\n", "1000 5\n", "5 4000\n", "7\t8\n", "7 8 # c\n", "9 9\n", "0 x\n"};
  std::string input;
  for (size_t k = 0, i = 0; k < 3000; ++k) {
    const size_t run = (k * 7) % 41;
    for (size_t j = 0; j < run; ++j, ++i)
      input += std::to_string((i * 7919) % 1000) + " " + std::to_string((i * 104729) % 1000) + "\n";
    input += others[k % std::size(others)];
  }
  IndexQueries q(index, false);
  expect_same(q, input, "plain runs between other lines", {4096, size_t{1} << 22});
  expect_same_on_threads(q, input, "plain runs between other lines");
  IndexQueries reflexive(index, true);
  expect_same(reflexive, input, "plain runs between other lines, reflexive", {size_t{1} << 22});
}

// A numbered line's ids are read eight bytes at a time where eight can be read: ids of 1 to
// 9 digits, each ended by a byte that only looks like a digit in part (':' and '/' share a
// digit's high nibble or sit below '0'; 0xFA carries when 6 is added), or by the input's end.
TEST(PairLines, NumberedIdsReadEightBytesAtATime) {
  const Graph g(1234568, {{54321, 1234567}, {1234567, 1000000}, {1000000, 999999}, {7, 8}});
  const LivingIndex index(std::make_shared<const ReachIndex>(build_index(g)));
  IndexQueries q(index, false);
  expect_same(q, "54321 999999\n1234567 1000000\n999999 54321\n1000000 999999\n7 8\n",
              "one to seven digits");
  expect_same(q, "12345678 1\n123456789 7\n1234567 12345670\n01234567 8\n",
              "eight digits and more");
  expect_same(q, "1234567:1\n7/ 8\n7 8:\n1234567; 8\n", "ended by ':', '/', ';'");
  expect_same(q, std::string("7\xfa 8\n7 8\xfa\n12\x80 7\n7 8\n"), "ended by bytes above 0x7f");
  expect_same(q, "54321 1000000", "the input's end within eight bytes");
  expect_same(q, "54321 1234567", "the input's end at eight bytes and more");
}

// A plain numbered line of at most 16 bytes is read as one vector (digits, one space, the
// line end): every shape near its edges, each followed by enough bytes for that read and
// again as the input's last lines, answers as the line reader does. A wrong mask, shift or
// zero test there names another vertex, or one where the reader names none.
TEST(PairLines, ShortNumberedLinesReadAsOneVector) {
  const Graph g(1234568, {{54321, 1234567}, {1234567, 1000000}, {1000000, 999999}, {7, 8}});
  const LivingIndex index(std::make_shared<const ReachIndex>(build_index(g)));
  const char* lines[] = {"54321 999999\n",
                         "1234567 1000000\n",  // 15 bytes and its end: the widest
                         "12345678 1\n",
                         "1 12345678\n",  // 8 digits: past the last vertex
                         "123456789 7\n",
                         "7 123456789\n",  // 9 digits: the scans
                         "0 0\n",
                         "00 7\n",
                         "7 00\n",
                         "07 8\n",
                         "7 08\n",
                         "7  8\n",
                         "7\t8\n",
                         "7 8\r\n",
                         " 7 8\n",
                         "7 8 \n",
                         "1234567 12345670\n",
                         "12345670 12345671\n",  // no line end in the first 16 bytes
                         "7 8# c\n",
                         "7 #8\n",
                         "x 8\n",
                         "7 8x\n",
                         "\n",
                         "7 8\n",
                         "999999 54321\n",
                         "1000000 999999\n"};
  for (bool reflexive : {false, true}) {
    IndexQueries q(index, reflexive);
    std::string mix;
    for (size_t round = 0; round < 3; ++round)
      for (size_t i = 0; i < std::size(lines); ++i)
        mix += lines[(i * (round + 1)) % std::size(lines)];
    expect_same(q, mix, "short numbered lines", {1, 7, size_t{1} << 22});
    for (const char* line : lines) expect_same(q, std::string("7 8\n") + line, line, {1 << 22});
  }
}

#if defined(__x86_64__)
// The vector conversion of a line's two numbers (pair_digits.hpp) gives the values that
// std::stoul reads, for every pair of lengths 1 to 8 that fits its 16 bytes and digits
// drawn at random (leading zeros included): a wrong shuffle place or multiplier changes some
// digit's weight. The index tests above reach 8-digit ids only past their vertex count.
TEST(PairDigits, EveryShapeConvertsAsStoul) {
  if (!kCpuAvx2) GTEST_SKIP() << "no AVX2 here: pair lines are read by the scalar reader";
  uint64_t state = 42;
  auto digit = [&state] {
    state = state * 6364136223846793005u + 1442695040888963407u;
    return char('0' + (state >> 33) % 10);
  };
  for (unsigned a = 1; a <= 8; ++a)
    for (unsigned b = 1; b <= 8 && a + 1 + b <= 16; ++b)
      for (int round = 0; round < 200; ++round) {
        std::string u, v;
        for (unsigned i = 0; i < a; ++i) u += round == 0 ? '9' : digit();
        for (unsigned i = 0; i < b; ++i) v += round == 1 ? '0' : digit();
        std::string line = u + " " + v + "\n";
        line.resize(32, 'x');  // 16 bytes readable past the line's start
        uint32_t got_u = 0, got_v = 0;
        pair_digit_values(line.data(), a, b, got_u, got_v);
        ASSERT_EQ(got_u, std::stoul(u)) << line.substr(0, a + b + 1);
        ASSERT_EQ(got_v, std::stoul(v)) << line.substr(0, a + b + 1);
      }
}
#endif

TEST(PairLines, PiecesOnThreadsKeepOrderAndLineNumbers) {
  // Several MiB of lines, so that every read is cut into pieces: malformed lines (whose
  // messages name their line) and unknown labels scattered through them, and a last line
  // without its end.
  const LivingIndex named = named_index();
  IndexQueries q(named, false);
  const char* names[] = {"a", "b", "c", "d", "e", "f", "\\#x", "zz"};
  std::string lines;
  for (size_t i = 0; lines.size() < (size_t{5} << 20); ++i) {
    if (i % 4999 == 0) lines += "a b c\n";  // malformed: a third field
    if (i % 7001 == 0) lines += "# a comment\n\n";
    lines += names[i % 8];
    lines += i % 3 == 0 ? "\t" : " ";
    lines += names[(i / 8) % 8];
    lines += '\n';
  }
  expect_same_on_threads(q, lines + "a d", "5 MiB of named lines");
  const Graph g(1000, {{0, 999}, {999, 5}, {5, 0}, {7, 8}});
  const LivingIndex numbered(std::make_shared<const ReachIndex>(build_index(g)));
  IndexQueries n(numbered, true);
  std::string ids;
  for (size_t i = 0; ids.size() < (size_t{3} << 20); ++i) {
    if (i % 9973 == 0) ids += "7\n";  // malformed: one field
    ids += std::to_string((i * 7919) % 1003) + " " + std::to_string((i * 104729) % 1001) + "\n";
  }
  expect_same_on_threads(n, ids, "3 MiB of numbered lines, reflexive");
}

}  // namespace
}  // namespace closure::reach
