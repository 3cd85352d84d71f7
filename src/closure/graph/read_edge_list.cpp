// Whitespace edge lists (SNAP, KONECT and the like): "source target [weight columns]".
// A mapped file is cut at line ends into one chunk per thread; each chunk is parsed into its
// own label map, then the chunks' labels are merged in file order (so vertex ids are still
// in order of first appearance, exactly as a sequential read gives them) and the edges are
// renumbered in parallel. Gzip and pipes are read in blocks through the same chunk parser.
#include <algorithm>
#include <atomic>
#include <bit>
#include <cstdlib>
#include <exception>
#include <span>
#include <string>
#include <vector>

#include "closure/config.hpp"
#include "closure/executor.hpp"
#include "closure/graph/edge_list_chunk.hpp"
#include "closure/graph/format_readers.hpp"
#include "closure/graph/label_map.hpp"
#include "closure/graph/phase_trace.hpp"
#include "closure/graph/text_scan.hpp"
#include "closure/util/huge_pages.hpp"
#include "closure/util/uninitialized_allocator.hpp"

namespace closure::detail {

namespace {

// Smaller inputs are parsed on the calling thread: starting threads costs more than they save.
constexpr size_t kMinChunkBytes = size_t{4} << 20;
std::atomic<size_t> min_chunk_bytes{kMinChunkBytes};
std::atomic<size_t> chosen_threads{0};
std::atomic<bool> use_threads{true};
// Streamed input (gzip, pipes) is parsed a block at a time.
constexpr size_t kBlockBytes = size_t{8} << 20;

size_t reader_threads() {
  if (chosen_threads > 0) return chosen_threads;
  return thread_budget();  // --threads (benchmarks compare 1 thread with all)
}

// The leading comment block, from the first 64 KiB: KONECT's first line "% sym|asym|bip
// <weights>", SNAP's "# Undirected graph: ...".
EdgeListDeclarations read_declarations(LineSource& src, std::string_view head) {
  EdgeListDeclarations d;
  size_t line = 0;
  for (size_t at = 0; at < head.size();) {
    size_t eol = head.find_first_of("\r\n", at);
    if (eol == std::string_view::npos) break;  // maybe cut at the sniff limit
    const std::string_view t = text::trim(head.substr(at, eol - at));
    ++line;
    if (head[eol] == '\r' && eol + 1 < head.size() && head[eol + 1] == '\n') ++eol;
    at = eol + 1;
    if (t.empty()) continue;
    if (t[0] != '#' && t[0] != '%') break;
    text::Tokens tokens(t.substr(1));
    std::string_view w1, w2;
    tokens.next(w1);
    tokens.next(w2);
    if (line == 1 && t[0] == '%' && !w2.empty() && (w1 == "sym" || w1 == "asym" || w1 == "bip")) {
      if (w1 == "bip")
        src.fail_at(line,
                    "KONECT bipartite graph ('% bip'): its two vertex sets number their ids "
                    "separately, which an edge list cannot say; relabel one side first");
      d.undirected = w1 == "sym";
      d.columns_declared = true;
      continue;
    }
    std::string lower(t);
    for (char& c : lower) c = static_cast<char>(c >= 'A' && c <= 'Z' ? c - 'A' + 'a' : c);
    if (lower.find("undirected graph") != std::string::npos) d.undirected = true;
  }
  return d;
}

// body(k) for k < count as tasks of the executor (closure/executor.hpp); the first error
// in chunk order is the one reported.
template <class F>
void run_parallel(size_t count, F&& body) {
  if (!use_threads) {
    for (size_t k = 0; k < count; ++k) body(k);
    return;
  }
  std::vector<std::exception_ptr> errors(count);
  parallel_limited(count, unsigned(count), [&](size_t k) {
    try {
      body(k);
    } catch (...) {
      errors[k] = std::current_exception();
    }
  });
  for (auto& e : errors)
    if (e) std::rethrow_exception(e);
}

// Takes the chunks in file order: reports the first problem at its absolute line, merges the
// labels, and keeps what the whole-file checks need.
class Assembler {
 public:
  explicit Assembler(LineSource& src) : src_(src) {}

  // Throws the first problem of chunk `c` (whose first line is line_base + 1), given the
  // chunks before it; records what the whole-file checks need.
  void check(const EdgeListChunk& c, size_t line_base) {
    size_t problem = c.error_line;
    std::string message = c.error;
    Advice advice = c.error_advice;
    auto consider = [&](size_t line, std::pair<std::string, Advice> said) {
      if (line != 0 && (problem == 0 || line < problem)) {
        problem = line;
        message = std::move(said.first);
        advice = said.second;
      }
    };
    const bool first_with_data = first_columns_ == 0 && c.first_data_line != 0;
    if (first_with_data) {
      first_columns_ = c.first_columns;
      first_attributes_ = c.first_attributes;
      first_line_ = line_base + c.first_data_line;
      first_source_ = c.first_source;
      first_target_ = c.first_target;
    } else if (c.first_data_line != 0 && c.first_columns != first_columns_ && !columns_declared_) {
      consider(c.first_data_line, shape_message(c.first_columns, c.first_attributes));
    }
    if (c.shape_line != 0)
      consider(c.shape_line, shape_message(c.shape_columns, c.shape_attributes));
    if (problem != 0) src_.fail_at(line_base + problem, message, advice);
    for (size_t k : c.name_lines)
      if (k != 0 && name_lines_ < 2) name_line_[name_lines_++] = line_base + k;

    records_ += c.records;
  }

  // The local -> global id table of `c` (checked, not raw).
  std::vector<vertex_t> merge(EdgeListChunk& c, size_t line_base) {
    std::vector<vertex_t> remap;
    remap.reserve(c.labels.size());
    auto add = [&](vertex_t v) {
      if (v == LabelMap::kFull) src_.fail_at(line_base + c.lines, too_many_vertices());
      remap.push_back(v);
    };
    if (c.labels.numeric()) {
      for (uint64_t x : c.labels.numbers())
        add(labels_.numeric() ? labels_.intern_number(x) : labels_.intern(std::to_string(x)));
    } else {
      for (size_t i = 0; i < c.labels.size(); ++i)
        add(labels_.intern(c.labels.name(static_cast<vertex_t>(i))));
    }
    c.labels = LabelMap(true, true);
    return remap;
  }

  // merge() of every chunk at once, on the executor's threads, when all chunks hold labels of
  // one kind (all names or all numbers; false, nothing done, otherwise). The labels are cut
  // into shards by hash; each shard finds, in chunk order, where each of its labels first
  // appears (chunk, local id); ids then follow (chunk, local id) order, which is file order,
  // so the ids are those of merging the chunks one after another. That sequential merge
  // interned every chunk's labels into one table: most of reading path labels on 16 cores.
  bool merge_in_parallel(std::vector<EdgeListChunk>& chunks, std::span<const size_t> line_base,
                         std::vector<std::vector<vertex_t>>& remaps) {
    const size_t K = chunks.size();
    const bool numbers = chunks[0].labels.numeric();
    for (const EdgeListChunk& c : chunks)
      if (c.labels.numeric() != numbers) return false;
    // A label's key: its number, or its hash (the same seed in every map of the process).
    std::vector<std::vector<uint64_t>> keys(K);
    const size_t S = std::clamp<size_t>(4 * thread_budget(), 1, 256);
    const uint64_t shard_seed = label_hash_seed() ^ 0x5bd1e9955bd1e995ULL;
    // members[k * S + s]: chunk k's local ids whose labels fall in shard s, ascending.
    std::vector<std::vector<vertex_t>> members(K * S);
    run_parallel(K, [&](size_t k) {
      const LabelMap& m = chunks[k].labels;
      keys[k] = numbers ? m.numbers() : m.hashes_by_id();
      for (size_t i = 0; i < keys[k].size(); ++i)
        members[k * S + mix_key(keys[k][i], shard_seed) % S].push_back(vertex_t(i));
    });
    // first[k][i]: (chunk << 32 | local id) of the first appearance of chunk k's label i.
    std::vector<std::vector<uint64_t>> first(K);
    for (size_t k = 0; k < K; ++k) first[k].resize(keys[k].size());
    std::atomic<bool> full{false};
    run_parallel(S, [&](size_t s) {
      LabelMap shard(numbers, true);
      std::vector<uint64_t> origin;  // shard id -> (chunk, local id)
      for (size_t k = 0; k < K; ++k) {
        const LabelMap& m = chunks[k].labels;
        for (vertex_t i : members[k * S + s]) {
          const vertex_t id =
              numbers ? shard.intern_number(keys[k][i]) : shard.intern_name(m.name(i), keys[k][i]);
          if (id == LabelMap::kFull) {  // one shard alone holds too many labels
            full = true;
            return;
          }
          if (id == origin.size()) origin.push_back(uint64_t(k) << 32 | i);
          first[k][i] = origin[id];
        }
      }
    });
    // One shard alone too full: the merge chunk by chunk (nothing here has changed yet)
    // reports it at the chunk where the count passes the limit.
    if (full) return false;
    // Ids: the labels that appear first in chunk k follow those of the chunks before it.
    std::vector<size_t> base(K + 1, 0);
    run_parallel(K, [&](size_t k) {
      size_t fresh = 0;
      for (size_t i = 0; i < first[k].size(); ++i) fresh += first[k][i] == (uint64_t(k) << 32 | i);
      base[k + 1] = fresh;
    });
    for (size_t k = 0; k < K; ++k) {
      base[k + 1] += base[k];
      if (base[k + 1] > kMaxVertices)
        src_.fail_at(line_base[k] + chunks[k].lines, too_many_vertices());
    }
    merged_.resize(base[K]);
    for (size_t k = 0; k < K; ++k) remaps[k].assign(first[k].size(), 0);
    run_parallel(K, [&](size_t k) {
      vertex_t next = vertex_t(base[k]);
      const LabelMap& m = chunks[k].labels;
      for (size_t i = 0; i < first[k].size(); ++i) {
        if (first[k][i] != (uint64_t(k) << 32 | i)) continue;
        remaps[k][i] = next;
        merged_[next++] =
            numbers ? std::to_string(m.numbers()[i]) : std::string(m.name(vertex_t(i)));
      }
    });
    // A label seen before chunk k takes the id its first chunk gave it.
    run_parallel(K, [&](size_t k) {
      for (size_t i = 0; i < first[k].size(); ++i)
        if (const uint64_t f = first[k][i]; f >> 32 != k)
          remaps[k][i] = remaps[f >> 32][f & 0xffffffffu];
    });
    run_parallel(K, [&](size_t k) { chunks[k].labels = LabelMap(true, true); });
    merged_in_parallel_ = true;
    return true;
  }

  // Numbers every chunk's raw values at once: ids in order of first appearance through a flat
  // table indexed by value (`max_value` small enough to be worth it), so no label is hashed.
  // Fills `id_of` (value -> id) and the labels.
  void number_densely(std::vector<EdgeListChunk>& chunks, uint64_t max_value,
                      std::vector<vertex_t>& id_of) {
    PhaseTrace trace(2, "  number: ");
    constexpr vertex_t kUnset = UINT32_MAX;
    size_t tokens = 0;
    for (const EdgeListChunk& c : chunks) tokens += c.values.size();
    id_of = huge_filled<vertex_t>(max_value + 1, kUnset);
    trace.mark("table");
    // Several chunks (at most 256, the owner of a value is a byte) with bitmaps of the
    // values no bigger than the tokens themselves: numbered in parallel.
    if (chunks.size() > 1 && chunks.size() <= 256 &&
        chunks.size() * (max_value / 8) <= 4 * tokens) {
      number_in_parallel(chunks, max_value, id_of);
      return;
    }
    reserve_huge(dense_, std::min<size_t>(tokens, max_value + 1));
    for (const EdgeListChunk& c : chunks)
      for (uint32_t x : c.values) {
        vertex_t& id = id_of[x];
        if (id == kUnset) {
          if (dense_.size() == kMaxVertices) src_.fail_at(0, too_many_vertices());
          id = static_cast<vertex_t>(dense_.size());
          dense_.push_back(x);
        }
      }
  }

  // The checks that need the whole file; then the labels.
  VertexLabels finish(bool columns_declared) {
    if (records_ == 0) src_.fail_at(0, "no edges found (only comments and blank lines)");
    (void)columns_declared;
    if (!dense_.empty()) return VertexLabels::from_numbers(std::move(dense_));
    // A first line of names above lines of numbers, or of two usual column titles, is a
    // header row: read as an edge it would add two bogus vertices.
    const bool names_only_first = name_lines_ == 1 && name_line_[0] == first_line_ &&
                                  records_ > 1 && !is_number_label(first_source_) &&
                                  !is_number_label(first_target_);
    if (header_ == HeaderRow::kGuess &&
        (names_only_first || (is_header_word(first_source_) && is_header_word(first_target_))))
      src_.fail_at(first_line_,
                   text::quote(first_source_) + " " + text::quote(first_target_) +
                       " looks like a header row, not an edge (delete it or start it with '#' to "
                       "make it a comment)",
                   Advice::kHeaderRow);
    if (merged_in_parallel_) return VertexLabels(std::move(merged_));
    return labels_.take_labels();
  }

  void set_columns_declared(bool d) { columns_declared_ = d; }
  // kGuess refuses a first line that looks like a header; the others were said.
  void set_header(HeaderRow header) { header_ = header; }
  size_t records() const { return records_; }
  size_t vertex_count() const { return labels_.size(); }

 private:
  static bool is_number_label(const std::string& s) { return edge_list_number(s); }
  // With attributes on either line (networkx's dict, a weight such as 0.5), the
  // adjacency-list reader would make them vertices: the hint names what to fix instead.
  std::pair<std::string, Advice> shape_message(size_t columns, uint8_t attributes) const {
    const uint8_t both = attributes | first_attributes_;
    return {std::to_string(columns) + " columns where line " + std::to_string(first_line_) +
                " has " + std::to_string(first_columns_) +
                ": every line of an edge list has the same columns " +
                (both & kDictColumn
                     ? "(an attribute dict '{...}' ends every line or none, as networkx's "
                       "write_edgelist writes them)"
                 : both & kFractionColumn
                     ? "(a weight on some lines only? give every line one, or none)"
                     : "(an adjacency list, one vertex then its successors?)"),
            both & (kDictColumn | kFractionColumn) ? Advice::kNone : Advice::kAdjlistFormat};
  }

  // number_densely on the executor's threads, without atomics: each chunk marks the values
  // it holds in its own bitmap; a value belongs to the first chunk that marks it; each chunk
  // numbers the values it owns in the order they first appear in it; ids then follow chunk
  // order. An atomic minimum of first positions instead had every core write the same
  // table lines, a third of a whole read on many cores.
  void number_in_parallel(std::vector<EdgeListChunk>& chunks, uint64_t max_value,
                          std::vector<vertex_t>& id_of) {
    PhaseTrace trace(2, "  number: ");
    constexpr vertex_t kUnset = UINT32_MAX;
    const size_t K = chunks.size(), words = max_value / 64 + 1;
    std::vector<uint64_t> marks = huge_filled<uint64_t>(K * words, 0);
    trace.mark("bitmaps");
    run_parallel(K, [&](size_t k) {
      uint64_t* mine = marks.data() + k * words;
      for (uint32_t x : chunks[k].values) mine[x / 64] |= uint64_t{1} << (x % 64);
    });
    trace.mark("mark");
    std::vector<uint8_t> owner = huge_filled<uint8_t>(max_value + 1, 0);
    trace.mark("owners");
    parallel_chunks(words, 1024, [&](size_t w0, size_t w1) {
      for (size_t w = w0; w < w1; ++w) {
        uint64_t taken = 0;
        for (size_t k = 0; k < K; ++k) {
          // Chunk k's bitmap keeps only the values it owns, so its own pass below needs
          // no owner lookup (a cache miss per value in a table of max_value bytes).
          uint64_t& mine = marks[k * words + w];
          const uint64_t fresh = mine & ~taken;
          mine = fresh;
          taken |= fresh;
          for (uint64_t b = fresh; b; b &= b - 1)
            owner[w * 64 + size_t(std::countr_zero(b))] = uint8_t(k);
        }
      }
    });
    trace.mark("owner");
    std::vector<uint64_t> base(K + 1, 0);
    run_parallel(K, [&](size_t k) {
      // The chunk's bitmap of the values it owns, cleared as it goes, finds each one's
      // first appearance in the chunk from cache.
      uint64_t* mine = marks.data() + k * words;
      size_t next = 0;  // only chunk k writes the ids of the values it owns
      for (uint32_t x : chunks[k].values) {
        const uint64_t bit = uint64_t{1} << (x % 64);
        if (!(mine[x / 64] & bit)) continue;
        mine[x / 64] &= ~bit;
        // Past kMaxVertices the ids are never used: the total is checked below.
        id_of[x] = static_cast<vertex_t>(std::min<size_t>(next++, kMaxVertices));
      }
      base[k + 1] = next;
    });
    trace.mark("own");
    for (size_t k = 0; k < K; ++k) base[k + 1] += base[k];
    if (base[K] > kMaxVertices) src_.fail_at(0, too_many_vertices());
    // On huge pages, as the serial numbering's: 10M labels' 80 MB had been 19.5k page
    // faults on the threads below.
    reserve_huge(dense_, base[K]);
    dense_.resize(base[K]);
    trace.mark("dense");
    parallel_chunks(id_of.size(), size_t{1} << 16, [&](size_t a, size_t b) {
      for (size_t x = a; x < b; ++x) {
        if (id_of[x] == kUnset) continue;
        id_of[x] += static_cast<vertex_t>(base[owner[x]]);
        dense_[id_of[x]] = x;
      }
    });
    trace.mark("ids");
  }

  LineSource& src_;
  LabelMap labels_{true};
  // Labels numbered by number_densely, in id order (the parallel numbering writes each).
  std::vector<uint64_t, UninitializedAllocator<uint64_t>> dense_;
  std::vector<std::string> merged_;  // labels merged by merge_in_parallel, in id order
  bool merged_in_parallel_ = false;
  size_t records_ = 0;
  bool columns_declared_ = false;
  HeaderRow header_ = HeaderRow::kGuess;
  size_t first_columns_ = 0, first_line_ = 0;
  uint8_t first_attributes_ = 0;
  std::string first_source_, first_target_;
  size_t name_line_[2] = {0, 0};
  size_t name_lines_ = 0;
};

// Cuts `text` into about `parts` pieces, each ending at a line end ("\r\n" kept whole).
std::vector<std::string_view> split_lines(std::string_view text, size_t parts) {
  std::vector<std::string_view> out;
  size_t start = 0;
  for (size_t k = 1; k <= parts && start < text.size(); ++k) {
    size_t cut = k == parts ? text.size() : std::max(start + 1, text.size() / parts * k);
    while (cut < text.size() && text[cut - 1] != '\n' &&
           !(text[cut - 1] == '\r' && text[cut] != '\n'))
      ++cut;
    if (cut > start) out.push_back(text.substr(start, cut - start));
    start = cut;
  }
  return out;
}

// Writes chunk edges through `remap` to out[0..), adding the reverse of each non-loop edge
// when undirected.
void place_edges(const std::vector<Edge>& local, const std::vector<vertex_t>& remap,
                 bool undirected, Edge* out) {
  for (const auto& [a, b] : local) {
    const vertex_t u = remap[a], v = remap[b];
    *out++ = {u, v};
    if (undirected && u != v) *out++ = {v, u};
  }
}

// Consumes lines through the first that is not blank or a comment ('#', '%'): the header row
// the caller said is there. Returns the lines consumed.
size_t skip_header_line(LineSource& src) {
  std::string_view line;
  while (src.next(line)) {
    const std::string_view t = text::trim(line);
    if (!t.empty() && t[0] != '#' && t[0] != '%') return src.line_number();
  }
  src.fail_at(0, "no edges found (only a header, comments and blank lines)");
}

// What every stage of reading an edge list needs.
struct ReadContext {
  LineSource& src;
  const EdgeListDeclarations& declared;
  Assembler& assembler;
  size_t header_lines;  // the header row said to be there, consumed before the chunks
  PhaseTrace& trace;
};

// What the reader hands the graph: its edges or, for integer labels of a directed graph, the
// chunks' values renumbered in place (one block of pairs per chunk).
struct ReadEdges {
  std::vector<Edge> edges;
  std::vector<EdgeListChunk> chunks;
  std::vector<std::span<const vertex_t>> pair_blocks;
};

// What the parsed chunks of a mapped input add up to.
struct ChunkTotals {
  std::vector<size_t> offset;  // where each chunk's edges start, reverses included
  size_t tokens = 0;           // raw values
  uint64_t max_value = 0;
  bool all_raw = true;
};

// The mapped input cut into chunks parsed in parallel, then checked in file order.
ChunkTotals parse_chunks(const ReadContext& cx, std::string_view all,
                         std::vector<EdgeListChunk>& chunks) {
  const size_t threads = reader_threads();
  const size_t parts = std::max<size_t>(1, std::min(threads, all.size() / min_chunk_bytes));
  const std::vector<std::string_view> pieces = split_lines(all, parts);
  chunks.resize(pieces.size());
  run_parallel(pieces.size(), [&](size_t k) {
    chunks[k].meter = cx.src.meter();
    chunks[k].parse(pieces[k], cx.declared);
  });
  cx.trace.mark("parse");
  ChunkTotals t;
  size_t line_base = cx.header_lines;
  for (const EdgeListChunk& c : chunks) {
    cx.assembler.check(c, line_base);
    line_base += c.lines;
    t.all_raw = t.all_raw && c.raw;
    t.tokens += c.values.size();
    t.max_value = std::max(t.max_value, c.max_value);
  }
  t.offset.assign(chunks.size() + 1, 0);
  for (size_t k = 0; k < chunks.size(); ++k)
    t.offset[k + 1] = t.offset[k] + chunks[k].records +
                      (cx.declared.undirected ? chunks[k].records - chunks[k].loops : 0);
  return t;
}

// Integer labels numbered through a flat table (no hashing), then placed.
void place_numbered(const ReadContext& cx, const ChunkTotals& t, ReadEdges& out) {
  std::vector<EdgeListChunk>& chunks = out.chunks;
  std::vector<vertex_t> id_of;
  cx.assembler.number_densely(chunks, t.max_value, id_of);
  cx.trace.mark("number");
  if (!cx.declared.undirected) {
    // Each chunk's values become vertex ids where they are, and the graph is built from
    // the chunks (Graph::from_pair_blocks): no array of all the edges to fill and zero.
    run_parallel(chunks.size(), [&](size_t k) {
      for (uint32_t& x : chunks[k].values) x = id_of[x];
    });
    for (const EdgeListChunk& c : chunks) out.pair_blocks.emplace_back(c.values);
    return;
  }
  resize_huge(out.edges, t.offset.back());
  run_parallel(chunks.size(), [&](size_t k) {
    Edge* e = out.edges.data() + t.offset[k];
    const std::vector<uint32_t>& x = chunks[k].values;
    for (size_t i = 0; i < x.size(); i += 2) {
      const vertex_t u = id_of[x[i]], v = id_of[x[i + 1]];
      *e++ = {u, v};
      if (u != v) *e++ = {v, u};  // undirected: the reverse too
    }
    chunks[k].values = {};
  });
}

// Each chunk numbers its own labels (in parallel), then the chunks' labels are merged (ids
// in file order) and their edges renumbered in parallel.
void place_labelled(const ReadContext& cx, const ChunkTotals& t, ReadEdges& out) {
  std::vector<EdgeListChunk>& chunks = out.chunks;
  resize_huge(out.edges, t.offset.back());
  std::vector<char> full(chunks.size(), 0);
  run_parallel(chunks.size(), [&](size_t k) { full[k] = !chunks[k].to_labels(); });
  cx.trace.mark("labels");
  std::vector<std::vector<vertex_t>> remaps(chunks.size());
  std::vector<size_t> bases(chunks.size(), 0);
  size_t line_base = cx.header_lines;
  for (size_t k = 0; k < chunks.size(); ++k) {
    if (full[k]) cx.src.fail_at(line_base + chunks[k].lines, too_many_vertices());
    bases[k] = line_base;
    line_base += chunks[k].lines;
  }
  if (chunks.size() < 2 || !cx.assembler.merge_in_parallel(chunks, bases, remaps)) {
    for (size_t k = 0; k < chunks.size(); ++k) remaps[k] = cx.assembler.merge(chunks[k], bases[k]);
  }
  cx.trace.mark("merge");
  run_parallel(chunks.size(), [&](size_t k) {
    place_edges(chunks[k].edges, remaps[k], cx.declared.undirected, out.edges.data() + t.offset[k]);
    chunks[k].edges = {};
  });
}

// A mapped input: its chunks parsed in parallel, then numbered and placed.
void read_mapped(const ReadContext& cx, std::string_view all, ReadEdges& out) {
  const ChunkTotals t = parse_chunks(cx, all, out.chunks);
  // Integer labels up to a few times the number of tokens: a flat table, no hashing.
  if (t.all_raw && t.max_value < std::max<uint64_t>(uint64_t{1} << 16, 2 * uint64_t(t.tokens)))
    place_numbered(cx, t, out);
  else
    place_labelled(cx, t, out);
}

// Gzip and pipes: a block at a time through the same chunk parser, merged as they come.
void read_streamed(const ReadContext& cx, std::vector<Edge>& edges) {
  std::string_view block;
  size_t line_base = cx.header_lines;
  while (cx.src.next_block(block, kBlockBytes)) {
    EdgeListChunk chunk;
    chunk.parse(block, cx.declared);
    cx.assembler.check(chunk, line_base);
    if (!chunk.to_labels()) cx.src.fail_at(line_base + chunk.lines, too_many_vertices());
    const std::vector<vertex_t> remap = cx.assembler.merge(chunk, line_base);
    line_base += chunk.lines;
    cx.src.add_block_lines(chunk.lines);
    const size_t at = edges.size();
    edges.resize(at + chunk.edges.size() +
                 (cx.declared.undirected ? chunk.edges.size() - chunk.loops : 0));
    place_edges(chunk.edges, remap, cx.declared.undirected, edges.data() + at);
  }
}

}  // namespace

void set_edge_list_chunking(size_t min_bytes, size_t threads, bool threaded) {
  min_chunk_bytes = min_bytes > 0 ? min_bytes : kMinChunkBytes;
  chosen_threads = threads;
  use_threads = threaded;
}

ReadResult read_edge_list(LineSource& src, HeaderRow header) {
  PhaseTrace trace;
  const EdgeListDeclarations declared = read_declarations(src, src.peek(64 * 1024));
  Assembler assembler(src);
  assembler.set_columns_declared(declared.columns_declared);
  assembler.set_header(header);
  // A header said to be there: its line (the first that is not blank or a comment) is
  // consumed here, and the chunks number their lines after it.
  const size_t header_lines = header == HeaderRow::kPresent ? skip_header_line(src) : 0;
  const ReadContext cx{src, declared, assembler, header_lines, trace};
  ReadEdges out;
  std::string_view all;
  if (src.take_all(all)) {
    trace.mark("map");
    read_mapped(cx, all, out);
  } else {
    read_streamed(cx, out.edges);
  }
  trace.mark("place");
  const size_t records = assembler.records();
  VertexLabels labels = assembler.finish(declared.columns_declared);
  trace.mark("finish");
  const size_t n = labels.size();
  // The chunks are freed as soon as the build has moved their edges.
  Graph graph = out.pair_blocks.empty()
                    ? Graph(n, std::move(out.edges), std::move(labels))
                    : Graph::from_pair_blocks(n, out.pair_blocks, std::move(labels), [&] {
                        for (EdgeListChunk& c : out.chunks) c.values = {};
                      });
  trace.mark("csr");
  return {std::move(graph), InputFormat::kEdgeList, records};
}

bool is_header_word(std::string_view w) {
  static constexpr std::string_view kWords[] = {
      "source",    "target",    "src",     "dst",   "from",  "to",  "fromnodeid", "tonodeid",
      "node1",     "node2",     "head",    "tail",  "start", "end", "parent",     "child",
      "source_id", "target_id", "from_id", "to_id", "u",     "v",   "id1",        "id2"};
  for (std::string_view k : kWords)
    if (text::iequals(w, k)) return true;
  return false;
}

}  // namespace closure::detail
