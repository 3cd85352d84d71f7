// The distributed run: read, condense, a column range per rank, sum, gather, write.
#include "app/distributed/distributed_run.hpp"

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <exception>

#include "app/distributed/column_slices.hpp"
#include "app/distributed/panel_squaring.hpp"
#include "app/distributed/slice_message.hpp"
#include "closure/algorithms/planner.hpp"
#include "closure/engine/device_propagation.hpp"
#include "closure/graph/input_error.hpp"
#include "closure/io/content_hash.hpp"
#include "closure/util/work_meter.hpp"

namespace closure {
namespace {

double seconds_since(std::chrono::steady_clock::time_point t0) {
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
}

struct RankWork {
  ColumnSlice slice;
  std::string where;  // "host" or the device's name
  double upload_s = 0, compute_s = 0, download_s = 0;
  int rounds = 0;  // products (the dense methods)
};

std::string seconds_text(double s) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "%.3f s", s);
  return buf;
}

// Equal word ranges, in order.
std::vector<WordRange> even_columns(size_t C, size_t parts) {
  const size_t W = words_for_bits(C);
  std::vector<WordRange> out(parts);
  for (size_t r = 0; r < parts; ++r)
    out[r] = {uint32_t(W * r / parts), uint32_t(W * (r + 1) / parts)};
  return out;
}

// Host memory the panel squaring holds on this rank at its peak, in panels of C x |J_r|
// bits: on the host engine the panel, the next one, a received panel and the engine's
// copies of both operands, the broadcast's bytes and the layout changes of a round
// (measured, `/usr/bin/time` under mpirun -np 2, 12,000 and 24,000 components: 9.6-10.8
// panels over the process's own 25 MB); with a device, the host keeps the panel, the
// bytes, a received panel and a round's copies back (counted, not measured).
constexpr double kHostPanelsOnHost = 11, kHostPanelsWithDevice = 6;

// Refused with the sizes before the first round (every rank agrees through collectively()),
// where running out of memory partway had said only "an allocation failed".
void check_panels_fit(const Request& o, Communicator& comm, size_t C,
                      const std::vector<WordRange>& ranges, const ocl::Runtime* rt) {
  size_t widest = 0;
  for (const WordRange& r : ranges) widest = std::max<size_t>(widest, r.words());
  const double panel = double(C) * double(widest) * sizeof(word_t);
  const double need = (rt ? kHostPanelsWithDevice : kHostPanelsOnHost) * panel;
  const double limit = host_limit(o.compute);
  if (need > limit)
    throw OutOfMemoryError("the squaring of " + std::to_string(C) + " components over " +
                               std::to_string(comm.size()) + " ranks needs about " +
                               format_bytes(need) + " of host memory on each rank (panels of " +
                               format_bytes(panel) + "); " + format_bytes(limit) + " is available",
                           Advice::kSparseMethod);
}

// The dense methods: the products on this rank's device if it has one, else the host.
RankWork square_range(const Request& o, Communicator& comm, const CsrDag& dag,
                      std::span<const uint32_t> sizes, const std::vector<WordRange>& ranges) {
  RankWork w;
  ocl::Runtime* rt = o.compute.runtime;
  BooleanParams params;
  collectively(comm, [&] {
    if (!rt && o.compute.lazy_runtime) rt = o.compute.lazy_runtime();
    params = dense_params(o.compute, rt);
    check_panels_fit(o, comm, dag.offsets.size() - 1, ranges, rt);
  });
  w.where = rt ? rt->device().name : "host";
  PanelSquaringStats stats;
  w.slice = square_panels(comm, dag, sizes, ranges, rt, params, &stats);
  w.compute_s = stats.compute_s;
  w.download_s = stats.communicate_s;
  w.rounds = stats.rounds;
  return w;
}

// This rank's columns, on its device when the method wants one and it has one.
RankWork compute_range(const Request& o, const Graph& g, const SccResult& scc, const CsrDag& dag,
                       std::span<const uint32_t> sizes, WordRange range, bool rows_needed) {
  RankWork w;
  w.slice.range = range;
  w.slice.components = scc.component_count();
  const Method m = o.compute.method;
  ocl::Runtime* rt = o.compute.runtime;
  // The planner's first answer: a request, or auto's small graph on the host. Where auto
  // would go on to the cost model, a rank takes its GPU if it has one: the model predicts a
  // whole closure on one device, not a slice of columns on each.
  PlanFacts facts;
  facts.requested = m;
  facts.vertices = g.vertex_count();
  facts.edges = g.edge_count();
  const Plan first = plan(facts);
  const bool wants_device =
      first.need != Plan::Need::kNothing || first.method == Method::kPropagate;
  if (wants_device && !rt && o.compute.lazy_runtime) rt = o.compute.lazy_runtime();
  // auto takes a GPU only: PoCL's propagation is slower than the host's.
  const bool device = rt && (m == Method::kPropagate || rt->device().is_gpu);
  w.where = device ? rt->device().name : "host";
  if (range.words() == 0) return w;
  auto t0 = std::chrono::steady_clock::now();
  if (device) {
    DevicePropagationOptions po = o.compute.propagate;
    po.word_begin = range.begin;
    po.word_end = range.end;
    po.rows_needed = rows_needed;
    DevicePropagationStats stats;
    Closure c = closure_propagate_device(scc, dag, *rt, po, &stats);
    w.slice.cross_pairs = c.resident_reach()->cross_pairs();
    w.upload_s = stats.upload_s;
    w.compute_s = stats.compute_s;
    if (rows_needed) {
      auto td = std::chrono::steady_clock::now();
      // Row-major with no padding: exactly the slice's components x words.
      w.slice.rows = std::move(c.resident_reach()->host_columns(range.begin, range.end).storage());
      w.download_s = stats.download_s + seconds_since(td);
    }
    return w;
  }
  const size_t C = scc.component_count();
  MemoryBudget budget(size_t(host_limit(o.compute)), 0,
                      "the closure's columns " + std::to_string(bits_in_words(range.begin)) + ".." +
                          std::to_string(std::min(C, bits_in_words(range.end)) - 1) + " (" +
                          std::to_string(C) + " rows)");
  w.slice = propagate_columns(dag, sizes, range, rows_needed, &budget);
  w.compute_s = seconds_since(t0);
  return w;
}

}  // namespace

namespace {

// Every rank reads the input itself; they must have read the same graph (a file replaced
// while mpirun starts, or `mpirun -np 1 closure A : -np 1 closure B`, would otherwise give
// a count that belongs to neither graph, or hang a dense method). A hash of the CSR and the
// labels, rank 0's sent to all: a mismatch is bad input on that rank, and collectively()
// stops every rank with its message.
void check_same_graph(Communicator& comm, const Graph& g, const std::string& input) {
  ContentHash h(0x636c6f7375726531);
  const uint64_t n = g.vertex_count();
  h.update(&n, sizeof n);
  h.update(g.offsets().data(), g.offsets().size_bytes());
  h.update(g.targets().data(), g.targets().size_bytes());
  for (size_t v = 0; v < g.labels().size(); ++v) {
    const std::string label = g.labels()[v];
    const uint64_t length = label.size();
    h.update(&length, sizeof length);
    h.update(label);
  }
  const std::string mine = hash_hex(h.digest());
  const std::string first = comm.broadcast(mine, 0);
  if (mine != first)
    throw InputError(input, 0,
                     "rank " + std::to_string(comm.rank()) + " read another graph than rank 0 (" +
                         std::to_string(n) + " vertices, " + std::to_string(g.edge_count()) +
                         " edges, hash " + mine + " against " + first +
                         "): every rank must read the same file; was it changed while mpirun "
                         "started?");
}

// Every rank reads the input through the one read stage (read_input: the output target
// checked, the phase on rank 0's progress line) and agrees it read the same graph; the first
// stage of run_graph_distributed, kept apart so the run reads as its stages.
ReadResult read_on_every_rank(const Request& o, Communicator& comm, Progress* progress,
                              RunSummary& s) {
  Request mine = o;
  mine.progress = progress;  // rank 0's line only
  ReadResult read;
  collectively(comm, [&] { read = read_input(mine, s); });
  s.parse_s = comm.max(s.parse_s);
  const Graph& g = read.graph;
  collectively(comm, [&] { check_same_graph(comm, g, o.input); });
  return read;
}

// The condensation with each component's size, which every rank computes for itself.
struct Condensed {
  SccResult scc;
  CsrDag dag;
  std::vector<uint32_t> sizes;
};

// Every rank condenses the graph (the second stage); fills the summary's component facts.
Condensed condense_on_every_rank(Communicator& comm, const Graph& g, Progress* progress,
                                 RunSummary& s) {
  Condensed out;
  double t = 0;
  collectively(comm, [&] {
    if (progress) progress->phase("condensing " + std::to_string(s.vertices) + " vertices");
    auto t0 = std::chrono::steady_clock::now();
    Condensation condensed = condense(g);
    out.scc = std::move(condensed.scc);
    out.dag = std::move(condensed.dag);
    out.sizes = component_sizes(out.scc);
    t = seconds_since(t0);
  });
  s.condense_s = comm.max(t);
  const SccResult& scc = out.scc;
  s.components = scc.component_count();
  s.dag = s.components == s.vertices &&
          std::none_of(scc.cyclic.begin(), scc.cyclic.end(), [](uint8_t f) { return f != 0; });
  return out;
}

// Pairs: the ranks' columns, plus those inside cyclic components (every member reaches
// every member), plus (v,v) for the other vertices when reflexive. Apart because it is the
// one sum every rank must join.
uint64_t count_pairs(Communicator& comm, const Condensed& k, const RankWork& work, bool reflexive) {
  uint64_t within = 0, acyclic_vertices = 0;
  for (size_t c = 0; c < k.scc.component_count(); ++c) {
    if (k.scc.cyclic[c])
      within += uint64_t(k.sizes[c]) * k.sizes[c];
    else
      acyclic_vertices += k.sizes[c];
  }
  return comm.sum(work.slice.cross_pairs) + within + (reflexive ? acyclic_vertices : 0);
}

// What each rank did, for the summary (rank 0 collects the lines), and why the run was
// divided; text only, kept out of the run's control flow.
void describe_ranks(Communicator& comm, size_t C, WordRange mine, const RankWork& work, Method m,
                    bool dense, RunSummary& s) {
  const size_t first = bits_in_words(mine.begin), past = std::min(C, bits_in_words(mine.end));
  const std::string line =
      "rank " + std::to_string(comm.rank()) + " " +
      (first < past ? "columns " + std::to_string(first) + ".." + std::to_string(past - 1)
                    : std::string("no columns")) +
      " on " + work.where + ", " + seconds_text(work.compute_s);
  std::string detail;
  comm.gather_to_root({reinterpret_cast<const uint8_t*>(line.data()), line.size()},
                      [&](int, std::span<const uint8_t> part) {
                        detail +=
                            (detail.empty() ? "" : "; ") +
                            std::string(reinterpret_cast<const char*>(part.data()), part.size());
                      });
  s.ranks_detail = "column slices (" + detail + ")";
  s.reason = (m == Method::kAuto ? "auto" : "requested") +
             std::string("; the closure's columns divided among ") + std::to_string(comm.size()) +
             " MPI ranks" +
             (dense ? "; the condensation squared over column panels (SUMMA on a 1 x " +
                          std::to_string(comm.size()) + " grid)"
                    : "");
}

// Rank 0's matrix for the gathered rows, checked against the memory first, apart, so that
// no rank is left sending to a rank that has given up.
BitMatrix reserve_gathered(const Request& o, Communicator& comm, size_t C) {
  BitMatrix reach;
  collectively(comm, [&] {
    if (comm.rank() != 0) return;
    MemoryBudget budget(size_t(host_limit(o.compute)), 0,
                        "the gathered closure of " + std::to_string(C) + " components on rank 0");
    budget.charge(C * words_for_bits(C) * sizeof(word_t));
    reach = BitMatrix(C, C, {}, WordOrder::kRowMajor);
  });
  return reach;
}

// Every rank's slice into rank 0's matrix; a part that cannot be placed is kept for
// rank 0 to throw after the exchange, so that every part is still received.
std::exception_ptr gather_slices(Communicator& comm, size_t C, const std::vector<WordRange>& ranges,
                                 RankWork& work, BitMatrix& reach) {
  const bool root = comm.rank() == 0;
  std::exception_ptr bad_part;
  // What can fail before the exchange (the message's copy, rank 0's own columns) is
  // agreed on first: a rank that gave up must not leave the others sending or waiting.
  std::vector<uint8_t> bytes;
  collectively(comm, [&] {
    if (!root) bytes = encode_slice(work.slice);
    if (root && !work.slice.rows.empty()) place_slice(work.slice, reach);
  });
  comm.gather_to_root(bytes, [&](int rank, std::span<const uint8_t> part) {
    if (rank == 0 || bad_part) return;  // keep receiving every part, whatever happens
    try {
      place_slice(decode_slice(part, C, ranges[size_t(rank)]), reach);
    } catch (...) {
      bad_part = std::current_exception();
    }
  });
  work.slice.rows = {};
  return bad_part;
}

// Rank 0 assembles the rows, then verifies and writes as one process would: the last
// stage, only when the rows are needed.
void gather_and_write(const Request& o, Communicator& comm, const Graph& g, const Condensed& k,
                      const std::vector<WordRange>& ranges, RankWork& work, Progress* progress,
                      RunSummary& s) {
  const bool root = comm.rank() == 0;
  const size_t C = k.scc.component_count();
  BitMatrix reach = reserve_gathered(o, comm, C);
  auto tg = std::chrono::steady_clock::now();
  if (progress)
    progress->phase("gathering the closure from " + std::to_string(comm.size()) + " ranks");
  const std::exception_ptr bad_part = gather_slices(comm, C, ranges, work, reach);
  Closure closure;
  collectively(comm, [&] {
    if (!root) return;
    if (bad_part) std::rethrow_exception(bad_part);
    closure = Closure::from_dense(k.scc.component_of, k.scc.cyclic, std::move(reach));
    if (closure.pair_count(o.reflexive) != s.pairs)
      throw InternalError("the gathered closure has " +
                          std::to_string(closure.pair_count(o.reflexive)) +
                          " pairs where the ranks counted " + std::to_string(s.pairs));
  });
  s.download_s += comm.max(seconds_since(tg));
  collectively(comm, [&] {
    if (root) verify_and_write(o, g, closure, s);
  });
}

}  // namespace

RunSummary run_graph_distributed(const Request& o, Communicator& comm) {
  const Method m = o.compute.method;
  const bool dense = m == Method::kSquare || m == Method::kCondense || m == Method::kRecursive;
  const bool rows_needed = o.rows_needed();
  Progress* progress = comm.rank() == 0 ? o.progress : nullptr;
  WorkMeterScope metered(progress ? progress->meter() : nullptr);
  RunSummary s;
  s.ranks = comm.size();
  s.input = o.input;
  s.reflexive = o.reflexive;

  const ReadResult read = read_on_every_rank(o, comm, progress, s);
  const Graph& g = read.graph;
  Condensed k = condense_on_every_rank(comm, g, progress, s);
  const size_t C = k.scc.component_count();
  const bool weighted =
      std::any_of(k.sizes.begin(), k.sizes.end(), [](uint32_t z) { return z > 1; });
  const std::span<const uint32_t> weights =
      weighted ? std::span<const uint32_t>(k.sizes) : std::span<const uint32_t>();
  // Propagation's work grows to the right (ids are topological); a product's is even.
  const std::vector<WordRange> ranges =
      dense ? even_columns(C, size_t(comm.size())) : partition_columns(k.dag, size_t(comm.size()));
  const WordRange mine = ranges[size_t(comm.rank())];
  if (progress)
    progress->phase("computing the closure's columns on " + std::to_string(comm.size()) + " ranks");
  RankWork work;
  if (dense) {
    work = square_range(o, comm, k.dag, weights, ranges);
    s.rounds = work.rounds;
  } else {
    collectively(comm,
                 [&] { work = compute_range(o, g, k.scc, k.dag, weights, mine, rows_needed); });
  }
  s.upload_s = comm.max(work.upload_s);
  s.compute_s = comm.max(work.compute_s);
  s.download_s = comm.max(work.download_s);
  const bool any_device = comm.min(work.where == "host" ? 1 : 0) == 0;
  s.method = dense ? std::string(method_name(m)) : any_device ? "propagate" : "sparse";
  s.device = work.where;
  s.pairs = count_pairs(comm, k, work, o.reflexive);
  describe_ranks(comm, C, mine, work, m, dense, s);
  if (rows_needed) gather_and_write(o, comm, g, k, ranges, work, progress, s);
  return s;
}

}  // namespace closure
