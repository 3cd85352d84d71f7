// closure._closure.Searcher (descendants and ancestors of one vertex, at the cost of what
// the search visits) and transitive_reduction (the library's closure::reach function,
// src/closure/reach/descendants.hpp), over vertex ids. Labels and the result types are
// closure/_reach.py's.
#include <algorithm>
#include <mutex>
#include <string>
#include <vector>

#include "bindings.hpp"
#include "closure/errors.hpp"
#include "closure/reach/descendants.hpp"
#include "interruptible.hpp"

namespace closure::python {
namespace {

void check_vertex(const Graph& g, int64_t v) {
  if (v < 0 || uint64_t(v) >= g.vertex_count())
    throw UsageError("vertex " + std::to_string(v) + " is beyond the " +
                     std::to_string(g.vertex_count()) + " vertices");
}

// Descendants and ancestors of one vertex at a cost proportional to what the search
// visits, not to n: the visited set is an array of stamps kept between calls (a vertex is
// visited iff its stamp is the current search's epoch), so a search only touches the
// vertices and edges it reaches (plus sorting its answer). The reverse graph, for
// ancestors, is built on the first ancestors call. The state is this object's; a search
// that finds it in use by another thread (they run without the GIL) uses a fresh array.
class Searcher {
 public:
  explicit Searcher(const Graph& g) : g_(g) {}

  // The vertices reachable from v by one or more edges (reverse: that reach v), v
  // excluded, ascending.
  py::array_t<vertex_t> search(int64_t v, bool reverse) {
    check_vertex(g_, v);
    std::unique_lock<std::mutex> lock(mutex_, std::try_to_lock);
    if (!lock.owns_lock()) {  // another thread's search holds the state: a fresh one
      Searcher alone(g_);
      return alone.search(v, reverse);
    }
    if (reverse && !reversed_) {
      run_short_or_interruptible(g_.edge_count() < kInlineEdges, [&] { build_reverse(); });
      reversed_ = true;
    }
    const size_t n = g_.vertex_count();
    if (stamp_.size() != n) stamp_.assign(n, 0), epoch_ = 0;
    if (++epoch_ == 0) std::fill(stamp_.begin(), stamp_.end(), 0), epoch_ = 1;
    queue_.clear();
    head_ = 0;
    const vertex_t start = vertex_t(v);
    stamp_[start] = epoch_;
    const uint64_t* offsets = reverse ? roff_.data() : g_.offsets().data();
    const vertex_t* targets = reverse ? rtar_.data() : g_.targets().data();
    enqueue_successors(offsets, targets, start);
    // The first kInlineEdges edges on the calling thread (a worker's start would cost
    // more than a small answer), the rest on a worker that Ctrl-C can stop, in slices of
    // kInlineEdges between polls of the cancellation flag.
    bool done;
    {
      py::gil_scoped_release unlocked;
      done = bfs(offsets, targets, kInlineEdges, nullptr);
    }
    if (!done)
      run_interruptible([&] {
        const CancelToken* token = current_cancel_token();
        while (!bfs(offsets, targets, kInlineEdges, token)) {
        }
      });
    // In vertex order: a small answer sorted, a large one (where sorting would cost more
    // than a pass over the stamps) read off the stamps in order.
    std::vector<vertex_t> found;
    if (queue_.size() < n / 32) {
      found.assign(queue_.begin(), queue_.end());
      std::sort(found.begin(), found.end());
    } else {
      found.reserve(queue_.size());
      for (vertex_t x = 0; x < n; ++x)
        if (stamp_[x] == epoch_ && x != start) found.push_back(x);
    }
    if (queue_.capacity() > 4 * kInlineEdges) std::vector<vertex_t>().swap(queue_);
    return to_numpy(std::move(found));
  }

 private:
  // About a million edges: a few milliseconds, less than a worker thread may take to be
  // scheduled on a busy machine; Ctrl-C waits for them.
  static constexpr uint64_t kInlineEdges = uint64_t(1) << 20;

  void enqueue_successors(const uint64_t* offsets, const vertex_t* targets, vertex_t x) {
    for (uint64_t i = offsets[x]; i < offsets[x + 1]; ++i)
      if (stamp_[targets[i]] != epoch_) stamp_[targets[i]] = epoch_, queue_.push_back(targets[i]);
  }

  // Goes on with the search for about `budget` edges; true when it is complete.
  bool bfs(const uint64_t* offsets, const vertex_t* targets, uint64_t budget,
           const CancelToken* token) {
    throw_if_cancelled(token);
    uint64_t scanned = 0;
    while (head_ < queue_.size()) {
      const vertex_t x = queue_[head_++];
      scanned += offsets[x + 1] - offsets[x];
      enqueue_successors(offsets, targets, x);
      if (scanned >= budget) return head_ == queue_.size();
    }
    return true;
  }

  void build_reverse() {
    const size_t n = g_.vertex_count();
    roff_.assign(n + 1, 0);
    for (vertex_t t : g_.targets()) ++roff_[t + 1];
    for (size_t i = 0; i < n; ++i) roff_[i + 1] += roff_[i];
    rtar_.resize(g_.edge_count());
    std::vector<uint64_t> fill(roff_.begin(), roff_.end() - 1);
    for (vertex_t u = 0; u < n; ++u)
      for (vertex_t w : g_.successors(u)) rtar_[fill[w]++] = u;
  }

  const Graph& g_;
  std::mutex mutex_;
  std::vector<uint32_t> stamp_;
  uint32_t epoch_ = 0;
  std::vector<vertex_t> queue_;
  size_t head_ = 0;
  bool reversed_ = false;
  std::vector<uint64_t> roff_;
  std::vector<vertex_t> rtar_;
};

}  // namespace

void bind_reach(py::module_& m) {
  py::class_<Searcher>(m, "Searcher",
                       "Descendants and ancestors of one graph, each search costing what it "
                       "visits (stamped visited set and reverse graph kept between calls).")
      .def(py::init<const Graph&>(), py::arg("graph"), py::keep_alive<1, 2>())
      .def(
          "descendants", [](Searcher& s, int64_t v) { return s.search(v, false); }, py::arg("v"),
          "Vertex ids reachable from v by one or more edges, v excluded, ascending.")
      .def(
          "ancestors", [](Searcher& s, int64_t v) { return s.search(v, true); }, py::arg("v"),
          "Vertex ids that reach v by one or more edges, v excluded, ascending.");
  m.def(
      "transitive_reduction",
      [](const Graph& g) {
        std::vector<vertex_t> us, vs;
        run_interruptible([&] {
          const std::vector<Edge> edges = reach::transitive_reduction(g);
          us.reserve(edges.size());
          vs.reserve(edges.size());
          for (const auto& [u, v] : edges) us.push_back(u), vs.push_back(v);
        });
        return py::make_tuple(to_numpy(std::move(us)), to_numpy(std::move(vs)));
      },
      py::arg("graph"),
      "(sources, targets) uint32 arrays: the fewest edges with the same closure, sorted.");
}

}  // namespace closure::python
