// The living index: appends into a layer, rebuilds when an edge leaves an old vertex or the
// layer outgrows its share, and answers over both levels.
#include "closure/reach/living_index.hpp"

#include <algorithm>

#include "closure/errors.hpp"
#include "closure/io/atomic_file.hpp"
#include "closure/reach/index_file.hpp"

namespace closure::reach {

LivingIndex::LivingIndex(std::shared_ptr<const ReachIndex> base, IndexLayer layer,
                         const std::string& file)
    : base_(std::move(base)), layer_(std::move(layer)) {
  if (!base_) throw UsageError("LivingIndex: no base index given (a null pointer)");
  if (layer_.empty()) layer_.base_vertices = base_->vertex_count();
  if (layer_.base_vertices != base_->vertex_count())
    throw IndexFileError(file, "damaged index file: the layer does not fit its base");
  for (const auto& name : layer_.names)
    if (base_->find(name))
      throw IndexFileError(file, "damaged index file: a layer label names a base vertex");
}

std::optional<vertex_t> LivingIndex::find(std::string_view label) const {
  if (auto v = base_->find(label)) return v;
  return layer_.find(label);
}

std::string LivingIndex::label(vertex_t v) const {
  if (layer_.holds(v)) return layer_.names[v - layer_.base_vertices];
  return base_->label(v);
}

const BaseWalk& LivingIndex::walk() const {
  std::call_once(walk_->once, [&] {
    const IndexView& x = base_->view();
    BaseWalk& w = walk_->walk;
    w.member_offsets.assign(x.components + 1, 0);
    for (uint64_t v = 0; v < x.vertices; ++v) ++w.member_offsets[x.component_of[v] + 1];
    for (uint64_t c = 0; c < x.components; ++c) w.member_offsets[c + 1] += w.member_offsets[c];
    w.members.resize(x.vertices);
    std::vector<uint32_t> at(w.member_offsets.begin(), w.member_offsets.end() - 1);
    for (uint64_t v = 0; v < x.vertices; ++v) w.members[at[x.component_of[v]]++] = uint32_t(v);
    w.pred_offsets.assign(x.components + 1, 0);
    for (uint64_t i = 0; i < x.edges; ++i) ++w.pred_offsets[x.targets[i] + 1];
    for (uint64_t c = 0; c < x.components; ++c) w.pred_offsets[c + 1] += w.pred_offsets[c];
    w.preds.resize(x.edges);
    at.assign(w.pred_offsets.begin(), w.pred_offsets.end() - 1);
    for (uint64_t c = 0; c < x.components; ++c)
      for (uint32_t i = x.offsets[c]; i < x.offsets[c + 1]; ++i)
        w.preds[at[x.targets[i]]++] = uint32_t(c);
  });
  return walk_->walk;
}

AppendReport LivingIndex::add_edges(const std::vector<std::pair<std::string, std::string>>& edges,
                                    const AppendOptions& options) {
  AppendReport report;
  report.edges_given = edges.size();
  const uint64_t n = base_->vertex_count();
  const size_t names_before = layer_.names.size();
  const uint64_t edges_before = layer_.edges;
  std::vector<std::pair<vertex_t, size_t>> touched;  // (layer vertex, its row's old size)
  std::vector<Edge> old_edges;
  std::unique_ptr<Querier> querier;  // only when an edge leaves an old vertex
  try {
    auto resolve = [&](const std::string& label) {
      if (label.empty()) throw UsageError("an appended edge has an empty label");
      if (auto v = find(label)) return *v;
      return layer_.add_vertex(label);
    };
    for (const auto& [a, b] : edges) {
      const vertex_t u = resolve(a), v = resolve(b);
      if (layer_.holds(u)) {
        touched.emplace_back(u, layer_.successors_of(u).size());
        if (layer_.add_edge(u, v)) ++report.layer_edges;
        continue;
      }
      if (!layer_.holds(v)) {
        if (!querier) querier = std::make_unique<Querier>(*base_);
        if (querier->reaches(u, v)) {  // changes no answer
          ++report.already_implied;
          continue;
        }
      }
      old_edges.emplace_back(u, v);
    }
    report.new_vertices = layer_.names.size() - names_before;
    const double limit =
        std::max<double>(double(options.merge_minimum), options.merge_fraction * double(n));
    if (!old_edges.empty()) {
      report.why_rebuilt = "an edge from an old vertex";
    } else if (double(layer_.vertex_count() + layer_.edges) > limit) {
      report.why_rebuilt = "the layer grew";
    }
    if (*report.why_rebuilt) {
      querier.reset();
      rebuild(old_edges, options.build);
      report.rebuilt = true;
    }
  } catch (...) {
    // Undo in reverse: rows back to their sizes, then the new vertices.
    for (auto it = touched.rbegin(); it != touched.rend(); ++it)
      if (it->first - layer_.base_vertices < layer_.successors.size())
        layer_.successors[it->first - layer_.base_vertices].resize(it->second);
    while (layer_.names.size() > names_before) {
      layer_.ids.erase(layer_.names.back());
      layer_.names.pop_back();
      layer_.successors.pop_back();
    }
    layer_.edges = edges_before;
    throw;
  }
  return report;
}

void LivingIndex::add_vertices(const std::vector<std::string>& labels) {
  for (const auto& label : labels) {
    if (label.empty()) throw UsageError("an appended vertex has an empty label");
    if (!find(label)) layer_.add_vertex(label);
  }
}

void LivingIndex::merge(const BuildOptions& options) {
  if (!layer_.empty()) rebuild({}, options);
}

void LivingIndex::rebuild(const std::vector<Edge>& old_edges, const BuildOptions& options) {
  const IndexView& x = base_->view();
  const BaseWalk& w = walk();
  const uint64_t n = x.vertices, total = n + layer_.vertex_count();
  // The base's reachability in few edges: a ring per cyclic component (a self-loop for
  // one vertex), one edge between representatives per condensation edge.
  std::vector<Edge> e;
  e.reserve(n + x.edges + layer_.edges + old_edges.size());
  for (uint64_t c = 0; c < x.components; ++c) {
    const uint32_t* m = w.members.data() + w.member_offsets[c];
    const uint32_t size = w.member_offsets[c + 1] - w.member_offsets[c];
    if (x.labels[c].bloom_in & kCyclicBit)
      for (uint32_t i = 0; i < size; ++i) e.emplace_back(m[i], m[(i + 1) % size]);
    for (uint32_t i = x.offsets[c]; i < x.offsets[c + 1]; ++i)
      e.emplace_back(m[0], w.members[w.member_offsets[x.targets[i]]]);
  }
  for (size_t i = 0; i < layer_.successors.size(); ++i)
    for (vertex_t v : layer_.successors[i]) e.emplace_back(vertex_t(n + i), v);
  e.insert(e.end(), old_edges.begin(), old_edges.end());
  std::vector<std::string> labels;
  if (!x.identity_labels || !layer_.empty()) {
    labels.reserve(total);
    for (uint64_t v = 0; v < n; ++v) labels.push_back(base_->label(vertex_t(v)));
    labels.insert(labels.end(), layer_.names.begin(), layer_.names.end());
  }
  const Graph g(total, std::move(e), std::move(labels));
  BuildOptions build = options;
  if (build.supportive == kBaseSupportive) build.supportive = x.supportive;
  auto rebuilt = std::make_shared<const ReachIndex>(build_index(g, build));
  IndexLayer fresh;
  fresh.base_vertices = total;
  // The commit point: nothing above may have changed this object.
  base_ = std::move(rebuilt);
  layer_ = std::move(fresh);
  walk_ = std::make_shared<WalkCache>();
}

uint64_t LivingIndex::write(const std::string& path) const {
  return write_index(path, base_->view(), encode_layer(layer_));
}

LivingQuerier::LivingQuerier(const LivingIndex& index) : index_(&index), base_(index.base()) {}

bool LivingQuerier::rebind(const LivingIndex& next) {
  if (&next.base() != &index_->base()) return false;
  index_ = &next;
  return true;
}

const std::vector<vertex_t>& LivingQuerier::search_layer(vertex_t u) {
  const IndexLayer& layer = index_->layer();
  const uint64_t n = layer.base_vertices;
  if (layer_stamp_.size() < layer.vertex_count()) layer_stamp_.resize(layer.vertex_count(), 0);
  if (++epoch_ == 0) {
    std::fill(layer_stamp_.begin(), layer_stamp_.end(), 0);
    epoch_ = 1;
  }
  exits_.clear();
  stack_.assign(1, u);
  while (!stack_.empty()) {
    const vertex_t x = stack_.back();
    stack_.pop_back();
    for (vertex_t y : layer.successors_of(x)) {
      if (!layer.holds(y)) {
        exits_.push_back(y);
      } else if (layer_stamp_[y - n] != epoch_) {
        layer_stamp_[y - n] = epoch_;
        stack_.push_back(y);
      }
    }
  }
  std::sort(exits_.begin(), exits_.end());
  exits_.erase(std::unique(exits_.begin(), exits_.end()), exits_.end());
  return exits_;
}

bool LivingQuerier::reaches(vertex_t u, vertex_t v) {
  const IndexLayer& layer = index_->layer();
  if (!layer.holds(u)) return !layer.holds(v) && base_.reaches(u, v);
  const auto& exits = search_layer(u);
  if (layer.holds(v)) return layer_stamp_[v - layer.base_vertices] == epoch_;
  for (vertex_t t : exits)
    if (t == v || base_.reaches(t, v)) return true;
  return false;
}

void LivingQuerier::reaches_many(const vertex_t* us, const vertex_t* vs, size_t n, bool* out) {
  const IndexLayer& layer = index_->layer();
  if (layer.empty()) return base_.reaches_many(us, vs, n, out);
  // Pairs of base vertices (most of a batch) keep the base's pipelined batch; the others
  // search the layer one by one.
  std::vector<vertex_t> bu, bv;
  std::vector<size_t> where;
  for (size_t i = 0; i < n; ++i) {
    if (!layer.holds(us[i]) && !layer.holds(vs[i])) {
      bu.push_back(us[i]), bv.push_back(vs[i]), where.push_back(i);
    } else {
      out[i] = reaches(us[i], vs[i]);
    }
  }
  if (where.empty()) return;
  const std::unique_ptr<bool[]> yes(new bool[where.size()]);
  base_.reaches_many(bu.data(), bv.data(), where.size(), yes.get());
  for (size_t k = 0; k < where.size(); ++k) out[where[k]] = yes[k];
}

namespace {

// The base components reached from `start` (each once) along a component CSR (the
// condensation's successors, or its reversed rows), and their member vertices appended to
// `out`: the walk both descendants and ancestors make.
void walk_base(const std::vector<uint32_t>& start, const uint32_t* offsets, const uint32_t* targets,
               const BaseWalk& w, std::vector<uint8_t>& seen, std::vector<vertex_t>& out) {
  std::vector<uint32_t> comps;
  auto reach = [&](uint32_t c) {
    if (!seen[c]) seen[c] = 1, comps.push_back(c);
  };
  for (uint32_t c : start) reach(c);
  for (size_t k = 0; k < comps.size(); ++k)
    for (uint32_t i = offsets[comps[k]]; i < offsets[comps[k] + 1]; ++i) reach(targets[i]);
  for (uint32_t c : comps)
    out.insert(out.end(), w.members.begin() + w.member_offsets[c],
               w.members.begin() + w.member_offsets[c + 1]);
}

}  // namespace

std::vector<vertex_t> LivingQuerier::descendants(vertex_t u) {
  const IndexLayer& layer = index_->layer();
  const IndexView& x = index_->base().view();
  std::vector<vertex_t> out;
  std::vector<uint32_t> start;  // components reached by one edge or more
  if (layer.holds(u)) {
    for (vertex_t t : search_layer(u)) start.push_back(x.component_of[t]);
    for (uint64_t i = 0; i < layer.vertex_count(); ++i)
      if (layer_stamp_[i] == epoch_) out.push_back(vertex_t(layer.base_vertices + i));
  } else {
    const uint32_t c = x.component_of[u];
    if (x.labels[c].bloom_in & kCyclicBit) start.push_back(c);
    start.insert(start.end(), x.targets + x.offsets[c], x.targets + x.offsets[c + 1]);
  }
  std::vector<uint8_t> seen(x.components, 0);
  walk_base(start, x.offsets, x.targets, index_->walk(), seen, out);
  std::sort(out.begin(), out.end());
  return out;
}

std::vector<vertex_t> LivingQuerier::ancestors(vertex_t v) {
  const IndexLayer& layer = index_->layer();
  const IndexView& x = index_->base().view();
  const BaseWalk& w = index_->walk();
  const uint64_t n = layer.base_vertices, k = layer.vertex_count();
  std::vector<vertex_t> out;
  std::vector<uint8_t> seen(x.components, 0);  // the old ancestors' components
  if (!layer.holds(v)) {
    const uint32_t c = x.component_of[v];
    std::vector<uint32_t> start(w.preds.begin() + w.pred_offsets[c],
                                w.preds.begin() + w.pred_offsets[c + 1]);
    if (x.labels[c].bloom_in & kCyclicBit) start.push_back(c);
    walk_base(start, w.pred_offsets.data(), w.preds.data(), w, seen, out);
  }
  if (k > 0) {
    // Layer vertices: those with an edge into v or into an old ancestor, then what reaches
    // them within the layer (reversed layer rows, built per call: the layer is small).
    std::vector<uint8_t> marked(k, 0);
    std::vector<uint32_t> roff(k + 1, 0), rsrc;
    for (uint64_t i = 0; i < k; ++i)
      for (vertex_t t : layer.successors[i])
        if (layer.holds(t)) ++roff[t - n + 1];
    for (uint64_t i = 0; i < k; ++i) roff[i + 1] += roff[i];
    rsrc.resize(roff[k]);
    std::vector<uint32_t> at(roff.begin(), roff.end() - 1);
    std::vector<vertex_t> stack;
    auto mark = [&](uint64_t i) {
      if (!marked[i]) marked[i] = 1, stack.push_back(vertex_t(i));
    };
    for (uint64_t i = 0; i < k; ++i)
      for (vertex_t t : layer.successors[i]) {
        if (layer.holds(t)) {
          rsrc[at[t - n]++] = uint32_t(i);
          if (t == v) mark(i);
        } else if (t == v || seen[x.component_of[t]]) {
          mark(i);
        }
      }
    while (!stack.empty()) {
      const vertex_t i = stack.back();
      stack.pop_back();
      for (uint32_t j = roff[i]; j < roff[i + 1]; ++j) mark(rsrc[j]);
    }
    for (uint64_t i = 0; i < k; ++i)
      if (marked[i]) out.push_back(vertex_t(n + i));
  }
  std::sort(out.begin(), out.end());
  return out;
}

}  // namespace closure::reach
