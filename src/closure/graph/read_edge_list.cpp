// Whitespace edge lists (SNAP, KONECT and the like): "source target [weight columns]".
// A mapped file is cut at line ends into one chunk per thread; each chunk is parsed into its
// own label map, then the chunks' labels are merged in file order (so vertex ids are still
// in order of first appearance, exactly as a sequential read gives them) and the edges are
// renumbered in parallel. Gzip and pipes are read in blocks through the same chunk parser.
#include <algorithm>
#include <atomic>
#include <cstdlib>
#include <exception>
#include <string>
#include <vector>

#include "closure/executor.hpp"
#include "closure/graph/edge_list_chunk.hpp"
#include "closure/graph/format_readers.hpp"
#include "closure/graph/huge_pages.hpp"
#include "closure/graph/label_map.hpp"
#include "closure/graph/text_scan.hpp"

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
  // CLOSURE_READ_THREADS pins the count (benchmarks compare 1 thread with all).
  if (const char* env = std::getenv("CLOSURE_READ_THREADS")) {
    const long k = std::strtol(env, nullptr, 10);
    if (k > 0) return static_cast<size_t>(std::min(k, 256L));
  }
  return thread_budget();
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
    auto consider = [&](size_t line, std::string text) {
      if (line != 0 && (problem == 0 || line < problem)) {
        problem = line;
        message = std::move(text);
      }
    };
    const bool first_with_data = first_columns_ == 0 && c.first_data_line != 0;
    if (first_with_data) {
      first_columns_ = c.first_columns;
      first_line_ = line_base + c.first_data_line;
      first_source_ = c.first_source;
      first_target_ = c.first_target;
    } else if (c.first_data_line != 0 && c.first_columns != first_columns_ && !columns_declared_) {
      consider(c.first_data_line, shape_message(c.first_columns));
    }
    if (c.shape_line != 0) consider(c.shape_line, shape_message(c.shape_columns));
    if (problem != 0) src_.fail_at(line_base + problem, message);
    for (size_t k : c.name_lines)
      if (k != 0 && name_lines_ < 2) name_line_[name_lines_++] = line_base + k;

    records_ += c.records;
  }

  // The local -> global id table of `c` (checked, not raw).
  std::vector<vertex_t> merge(EdgeListChunk& c, size_t line_base) {
    std::vector<vertex_t> remap;
    remap.reserve(c.labels.size());
    auto add = [&](vertex_t v) {
      if (v == LabelMap::kFull)
        src_.fail_at(line_base + c.lines,
                     "more than " + std::to_string(kMaxVertices) + " distinct vertices");
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

  // Numbers every chunk's raw values at once: ids in order of first appearance through a flat
  // table indexed by value (`max_value` small enough to be worth it), so no label is hashed.
  // Fills `id_of` (value -> id) and the labels.
  void number_densely(std::vector<EdgeListChunk>& chunks, uint64_t max_value,
                      std::vector<vertex_t>& id_of) {
    constexpr vertex_t kUnset = UINT32_MAX;
    reserve_huge(id_of, max_value + 1);
    id_of.assign(max_value + 1, kUnset);
    size_t tokens = 0;
    for (const EdgeListChunk& c : chunks) tokens += c.values.size();
    reserve_huge(dense_, std::min<size_t>(tokens, max_value + 1));
    for (const EdgeListChunk& c : chunks)
      for (uint32_t x : c.values) {
        vertex_t& id = id_of[x];
        if (id == kUnset) {
          if (dense_.size() == kMaxVertices)
            src_.fail_at(0, "more than " + std::to_string(kMaxVertices) + " distinct vertices");
          id = static_cast<vertex_t>(dense_.size());
          dense_.push_back(x);
        }
      }
  }

  // The checks that need the whole file; then the labels.
  std::vector<std::string> finish(bool columns_declared) {
    if (records_ == 0) src_.fail_at(0, "no edges found (only comments and blank lines)");
    (void)columns_declared;
    if (!dense_.empty()) {
      std::vector<std::string> out;
      reserve_huge(out, dense_.size());
      out.resize(dense_.size());
      for (size_t i = 0; i < dense_.size(); ++i) out[i] = std::to_string(dense_[i]);
      dense_ = {};
      return out;
    }
    // A first line of names above lines of numbers, or of two usual column titles, is a
    // header row: read as an edge it would add two bogus vertices.
    const bool names_only_first = name_lines_ == 1 && name_line_[0] == first_line_ &&
                                  records_ > 1 && !is_number_label(first_source_) &&
                                  !is_number_label(first_target_);
    if (names_only_first || (is_header_word(first_source_) && is_header_word(first_target_)))
      src_.fail_at(first_line_, text::quote(first_source_) + " " + text::quote(first_target_) +
                                    " looks like a header row, not an edge; delete it or start "
                                    "it with '#' to make it a comment");
    return labels_.take_labels();
  }

  void set_columns_declared(bool d) { columns_declared_ = d; }
  size_t records() const { return records_; }
  size_t vertex_count() const { return labels_.size(); }

 private:
  static bool is_number_label(const std::string& s) {
    uint64_t v;
    return !s.empty() && (s.size() == 1 || s[0] != '0') &&
           text::parse_unsigned(s, v) == text::NumberStatus::kOk;
  }
  std::string shape_message(size_t columns) const {
    return std::to_string(columns) + " columns where line " + std::to_string(first_line_) +
           " has " + std::to_string(first_columns_) +
           ": every line of an edge list has the same columns (an adjacency list, one vertex "
           "then its successors? use --input-format adjlist)";
  }

  LineSource& src_;
  LabelMap labels_{true};
  std::vector<uint64_t> dense_;  // labels numbered by number_densely, in id order
  size_t records_ = 0;
  bool columns_declared_ = false;
  size_t first_columns_ = 0, first_line_ = 0;
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

}  // namespace

void set_edge_list_chunking(size_t min_bytes, size_t threads, bool threaded) {
  min_chunk_bytes = min_bytes > 0 ? min_bytes : kMinChunkBytes;
  chosen_threads = threads;
  use_threads = threaded;
}

ReadResult read_edge_list(LineSource& src) {
  const EdgeListDeclarations declared = read_declarations(src, src.peek(64 * 1024));
  Assembler assembler(src);
  assembler.set_columns_declared(declared.columns_declared);
  std::vector<Edge> edges;
  std::string_view all;
  if (src.take_all(all)) {
    const size_t threads = reader_threads();
    const size_t parts = std::max<size_t>(1, std::min(threads, all.size() / min_chunk_bytes));
    const std::vector<std::string_view> pieces = split_lines(all, parts);
    std::vector<EdgeListChunk> chunks(pieces.size());
    run_parallel(pieces.size(), [&](size_t k) {
      chunks[k].meter = src.meter();
      chunks[k].parse(pieces[k], declared);
    });
    size_t line_base = 0, tokens = 0;
    uint64_t max_value = 0;
    bool all_raw = true;
    for (const EdgeListChunk& c : chunks) {
      assembler.check(c, line_base);
      line_base += c.lines;
      all_raw = all_raw && c.raw;
      tokens += c.values.size();
      max_value = std::max(max_value, c.max_value);
    }
    std::vector<size_t> offset(chunks.size() + 1, 0);
    for (size_t k = 0; k < chunks.size(); ++k)
      offset[k + 1] = offset[k] + chunks[k].records +
                      (declared.undirected ? chunks[k].records - chunks[k].loops : 0);
    reserve_huge(edges, offset.back());
    edges.resize(offset.back());
    // Integer labels up to a few times the number of tokens: a flat table, no hashing.
    if (all_raw && max_value < std::max<uint64_t>(uint64_t{1} << 16, 2 * uint64_t(tokens))) {
      std::vector<vertex_t> id_of;
      assembler.number_densely(chunks, max_value, id_of);
      run_parallel(chunks.size(), [&](size_t k) {
        Edge* out = edges.data() + offset[k];
        const std::vector<uint32_t>& x = chunks[k].values;
        for (size_t i = 0; i < x.size(); i += 2) {
          const vertex_t u = id_of[x[i]], v = id_of[x[i + 1]];
          *out++ = {u, v};
          if (declared.undirected && u != v) *out++ = {v, u};
        }
        chunks[k].values = {};
      });
    } else {
      // Each chunk numbers its own labels (in parallel), then the chunks are merged in file
      // order (sequential: it fixes the ids) and their edges renumbered in parallel.
      std::vector<char> full(chunks.size(), 0);
      run_parallel(chunks.size(), [&](size_t k) { full[k] = !chunks[k].to_labels(); });
      std::vector<std::vector<vertex_t>> remaps(chunks.size());
      line_base = 0;
      for (size_t k = 0; k < chunks.size(); ++k) {
        if (full[k])
          src.fail_at(line_base + chunks[k].lines,
                      "more than " + std::to_string(kMaxVertices) + " distinct vertices");
        remaps[k] = assembler.merge(chunks[k], line_base);
        line_base += chunks[k].lines;
      }
      run_parallel(chunks.size(), [&](size_t k) {
        place_edges(chunks[k].edges, remaps[k], declared.undirected, edges.data() + offset[k]);
        chunks[k].edges = {};
      });
    }
  } else {
    std::string_view block;
    size_t line_base = 0;
    while (src.next_block(block, kBlockBytes)) {
      EdgeListChunk chunk;
      chunk.parse(block, declared);
      assembler.check(chunk, line_base);
      if (!chunk.to_labels())
        src.fail_at(line_base + chunk.lines,
                    "more than " + std::to_string(kMaxVertices) + " distinct vertices");
      const std::vector<vertex_t> remap = assembler.merge(chunk, line_base);
      line_base += chunk.lines;
      const size_t at = edges.size();
      edges.resize(at + chunk.edges.size() +
                   (declared.undirected ? chunk.edges.size() - chunk.loops : 0));
      place_edges(chunk.edges, remap, declared.undirected, edges.data() + at);
    }
  }
  const size_t records = assembler.records();
  std::vector<std::string> labels = assembler.finish(declared.columns_declared);
  const size_t n = labels.size();
  return {Graph(n, std::move(edges), std::move(labels)), InputFormat::kEdgeList, records};
}

}  // namespace closure::detail
