// Block-wise answers to binary `--pairs` from a numbered index (pair_ids.hpp).
#include "app/tool/pair_ids.hpp"

#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <bit>
#include <cstdint>
#include <cstring>
#include <memory>
#include <vector>

#include "closure/errors.hpp"
#include "closure/executor.hpp"
#include "closure/graph/input_error.hpp"

namespace closure::reach {
namespace {

using closure::InputError;

constexpr size_t kPairBytes = 8;
// A read asks for this much: 131,072 pairs at a time from a file.
constexpr size_t kReadBytes = size_t{1} << 20;
// A read of at least this many pairs is cut into pieces answered on threads of their own
// (fewer, as a pipe's trickle, on this thread: starting threads would cost more).
constexpr size_t kParallelPairs = size_t{1} << 15;
constexpr unsigned kMaxPieces = 8;
// Pairs decided at once: the batch's arrays stay in the second-level cache and are the same
// pages from batch to batch (pair_lines.cpp's rule).
constexpr size_t kBatchPairs = 4096;

// One thread's share of a read: its own querier (the caller's, or a twin over the same
// index) and batch arrays.
struct Piece {
  IndexQueries* queries = nullptr;
  std::unique_ptr<IndexQueries> twin;
  std::vector<vertex_t> us = std::vector<vertex_t>(kBatchPairs);
  std::vector<vertex_t> vs = std::vector<vertex_t>(kBatchPairs);
  QueryBatchStats stats;
};

inline vertex_t little_endian_u32(const char* p) {
  uint32_t x;
  std::memcpy(&x, p, sizeof x);
  if constexpr (std::endian::native == std::endian::big) x = __builtin_bswap32(x);
  return x;
}

// The pairs [first, first + n) of `in` answered into answers[0, n).
void answer_piece(Piece& piece, const char* in, size_t n, PairVerdict* answers) {
  const uint64_t vertices = piece.queries->vertex_count();
  for (size_t at = 0; at < n; at += kBatchPairs) {
    const size_t k = std::min(kBatchPairs, n - at);
    const char* p = in + at * kPairBytes;
    for (size_t i = 0; i < k; ++i) {
      const vertex_t u = little_endian_u32(p + i * kPairBytes);
      const vertex_t v = little_endian_u32(p + i * kPairBytes + 4);
      piece.us[i] = u < vertices ? u : IndexQueries::kUnknown;
      piece.vs[i] = v < vertices ? v : IndexQueries::kUnknown;
    }
    piece.queries->decide_ids(piece.us.data(), piece.vs.data(), k, answers + at);
    size_t yes = 0, unknown = 0;
    for (size_t i = 0; i < k; ++i) {
      const auto b = uint8_t(answers[at + i]);
      yes += b == uint8_t(PairVerdict::kYes);
      unknown += b >= uint8_t(PairVerdict::kUnknownFirst);
    }
    piece.stats.answered += k;  // every question, as the lines count them
    piece.stats.reachable += yes;
    piece.stats.unknown += unknown;
  }
}

// A regular file's size is known: one whose bytes left from the descriptor's offset (standard
// input may be a file partly read) are no whole number of pairs is refused before a single
// answer is written (a pipe's is known only at its end).
void check_whole_pairs(int fd, const std::string& name) {
  struct stat st {};
  if (::fstat(fd, &st) != 0 || !S_ISREG(st.st_mode)) return;
  const off_t at = ::lseek(fd, 0, SEEK_CUR);
  const uint64_t left = uint64_t(st.st_size) - uint64_t(at > 0 && at <= st.st_size ? at : 0);
  if (left % kPairBytes != 0)
    throw InputError(name, 0,
                     "is " + std::to_string(left) +
                         " bytes, not a whole number of 8-byte pairs (two little-endian "
                         "unsigned 32-bit vertex numbers each)");
}

}  // namespace

QueryBatchStats answer_pair_ids(IndexQueries& queries, int fd, const std::string& name,
                                std::ostream& out) {
  if (!queries.numbered())
    throw UsageError(
        "binary pairs (--pairs-format u32) name vertices by number, and this index's vertices "
        "have names (or were appended); give the pairs as 'u v' lines instead");
  check_whole_pairs(fd, name);
  std::vector<char> buf(kReadBytes);
  std::vector<PairVerdict> answers(kReadBytes / kPairBytes);
  std::vector<Piece> pieces(1);
  pieces[0].queries = &queries;
  size_t size = 0;  // buf[0, size): read, not yet answered (at most a partial pair)
  for (;;) {
    const size_t got = read_pairs_input(fd, buf.data() + size, buf.size() - size, name);
    if (got == 0) break;
    size += got;
    const size_t n = size / kPairBytes;
    const size_t used = n >= kParallelPairs ? std::min(thread_budget(), kMaxPieces) : 1;
    while (pieces.size() < used) {
      pieces.emplace_back();
      pieces.back().twin = queries.twin();
      pieces.back().queries = pieces.back().twin.get();
    }
    parallel_chunks(used, 1, [&](size_t b, size_t e) {
      for (size_t i = b; i < e; ++i) {
        const size_t first = n * i / used, last = n * (i + 1) / used;
        answer_piece(pieces[i], buf.data() + first * kPairBytes, last - first,
                     answers.data() + first);
      }
    });
    out.write(reinterpret_cast<const char*>(answers.data()), std::streamsize(n));
    out.flush();
    check_answers_written(out);
    std::memmove(buf.data(), buf.data() + n * kPairBytes, size - n * kPairBytes);
    size -= n * kPairBytes;
  }
  QueryBatchStats stats;
  for (Piece& p : pieces) {
    stats += p.stats;
    if (p.twin) queries.absorb_stats(*p.twin);
  }
  if (size != 0)
    throw InputError(name, 0,
                     "ends with " + std::to_string(size) + (size == 1 ? " byte" : " bytes") +
                         " that are not a whole 8-byte pair (after " +
                         std::to_string(stats.answered) + " pairs)");
  return stats;
}

}  // namespace closure::reach
