// The service's state and routes.
#include "serve/service.hpp"

#include <chrono>
#include <cstdio>
#include <new>

#include "app/tool/index_queries.hpp"
#include "app/tool/run_graph.hpp"
#include "closure/errors.hpp"
#include "closure/io/json_text.hpp"
#include "closure/reach/index_file.hpp"
#include "closure/util/input_registry.hpp"
#include "serve/request_text.hpp"

namespace closure::serve {
namespace {

HttpResponse json_error(int status, const std::string& message) {
  return error_response(status, message);
}

HttpResponse json_ok(std::string body) {
  HttpResponse r;
  r.body = std::move(body);
  return r;
}

// POST /edges' answer: what was appended and the snapshot it made (or kept).
std::string append_answer(size_t appended, const reach::AppendReport& report, const Snapshot& now) {
  return "{\"appended\":" + std::to_string(appended) +
         ",\"new_vertices\":" + std::to_string(report.new_vertices) +
         ",\"rebuilt\":" + (report.rebuilt ? "true" : "false") +
         ",\"generation\":" + std::to_string(now.generation) +
         ",\"vertices\":" + std::to_string(now.index.vertex_count()) + "}";
}

// The queriers of one thread over one snapshot: rebuilt only when the snapshot changes,
// so a request allocates no per-component scratch space. Holding the snapshot keeps it
// alive while this thread may still use it.
reach::IndexQueries& queries_for(const std::shared_ptr<const Snapshot>& s) {
  struct Cache {
    std::shared_ptr<const Snapshot> snapshot;
    std::unique_ptr<reach::IndexQueries> queries;
  };
  thread_local Cache cache;
  if (cache.snapshot != s) {
    // An append into the layer keeps the base: the queriers move over, scratch and all.
    if (!cache.queries || !cache.queries->rebind(s->index)) {
      cache.queries.reset();
      cache.queries = std::make_unique<reach::IndexQueries>(s->index, false);
    }
    cache.snapshot = s;
  }
  return *cache.queries;
}

void append_answers(std::string& out, const LabelPairs& pairs,
                    const std::vector<reach::PairVerdict>& verdicts, uint64_t& unknown) {
  out += "{\"answers\":[";
  for (size_t i = 0; i < verdicts.size(); ++i) {
    if (i) out += ',';
    out += verdicts[i] == reach::PairVerdict::kYes  ? "true"
           : verdicts[i] == reach::PairVerdict::kNo ? "false"
                                                    : "null";
  }
  out += "],\"unknown\":[";
  bool first = true;
  for (size_t i = 0; i < verdicts.size(); ++i) {
    if (verdicts[i] != reach::PairVerdict::kUnknownFirst &&
        verdicts[i] != reach::PairVerdict::kUnknownSecond)
      continue;
    ++unknown;
    out += first ? "" : ",";
    first = false;
    out += "{\"at\":" + std::to_string(i) + ",\"label\":";
    append_json_string(
        out, verdicts[i] == reach::PairVerdict::kUnknownFirst ? pairs[i].first : pairs[i].second);
    out += '}';
  }
  out += "]}";
}

// A known endpoint asked with the wrong method: 405.
class MethodNotAllowed : public UsageError {
 public:
  using UsageError::UsageError;
};

std::string required(const Target& t, const char* key) {
  auto v = t.get(key);
  if (!v) throw UsageError(std::string("missing parameter '") + key + "'");
  check_label(*v, std::string("'") + key + "'");
  return *v;
}

// GET /metrics: the counters in Prometheus's text format, with the snapshot's gauges.
HttpResponse metrics_page(const Snapshot& s, const ServiceMetrics& metrics,
                          const TransportCounters& transport, uint64_t journal_records) {
  std::string gauges = "# TYPE closure_vertices gauge\nclosure_vertices " +
                       std::to_string(s.index.vertex_count()) +
                       "\n# TYPE closure_layer_vertices gauge\n" + "closure_layer_vertices " +
                       std::to_string(s.index.layer().vertex_count()) +
                       "\n# TYPE closure_journal_records gauge\nclosure_journal_records " +
                       std::to_string(journal_records) + "\n";
  HttpResponse r = json_ok(prometheus_text(metrics, transport, gauges));
  r.content_type = "text/plain; version=0.0.4";
  return r;
}

// GET /facts: what is served, as one JSON object.
HttpResponse facts_page(const Snapshot& s, const std::string& source, bool appends,
                        uint64_t journal_records) {
  const reach::IndexView& v = s.index.base().view();
  std::string out = "{\"source\":";
  append_json_string(out, source);
  out += ",\"vertices\":" + std::to_string(s.index.vertex_count()) +
         ",\"base_vertices\":" + std::to_string(v.vertices) +
         ",\"components\":" + std::to_string(v.components) +
         ",\"condensation_edges\":" + std::to_string(v.edges) +
         ",\"layer_vertices\":" + std::to_string(s.index.layer().vertex_count()) +
         ",\"layer_edges\":" + std::to_string(s.index.layer().edges) +
         ",\"generation\":" + std::to_string(s.generation) +
         ",\"appends\":" + (appends ? "true" : "false") +
         ",\"journal_records\":" + std::to_string(journal_records) + "}";
  return json_ok(std::move(out));
}

// GET /reaches?from=U&to=V: one pair, answered as one object rather than a list.
HttpResponse one_pair(const Target& target, reach::IndexQueries& q, ServiceMetrics& metrics) {
  const LabelPairs pair{{required(target, "from"), required(target, "to")}};
  const auto verdict = q.decide_many(pair);
  metrics.pair_answers.fetch_add(1, std::memory_order_relaxed);
  std::string out = "{\"from\":";
  append_json_string(out, pair[0].first);
  out += ",\"to\":";
  append_json_string(out, pair[0].second);
  out += ",\"reaches\":";
  if (verdict[0] == reach::PairVerdict::kYes || verdict[0] == reach::PairVerdict::kNo) {
    out += verdict[0] == reach::PairVerdict::kYes ? "true}" : "false}";
  } else {
    metrics.unknown_labels.fetch_add(1, std::memory_order_relaxed);
    out += "null,\"unknown\":";
    append_json_string(
        out, verdict[0] == reach::PairVerdict::kUnknownFirst ? pair[0].first : pair[0].second);
    out += '}';
  }
  return json_ok(std::move(out));
}

// POST /reaches: a batch of pairs from the body, answered in order.
HttpResponse pair_batch(const HttpRequest& request, size_t max_pairs, reach::IndexQueries& q,
                        ServiceMetrics& metrics) {
  const LabelPairs pairs = parse_pairs(request.body, request.content_type, max_pairs);
  const auto verdicts = q.decide_many(pairs);
  std::string out;
  out.reserve(pairs.size() * 7 + 32);
  uint64_t unknown = 0;
  append_answers(out, pairs, verdicts, unknown);
  metrics.pair_answers.fetch_add(pairs.size(), std::memory_order_relaxed);
  metrics.unknown_labels.fetch_add(unknown, std::memory_order_relaxed);
  return json_ok(std::move(out));
}

// GET /descendants?of=U or /ancestors?of=V: the vertices one walk finds, up to the limit.
// The snapshot is taken after the parameters are checked, as a bad request needs none.
HttpResponse walk(const Target& target, bool down, const ServiceOptions& options,
                  const std::atomic<std::shared_ptr<const Snapshot>>& current,
                  ServiceMetrics& metrics) {
  const std::string of = required(target, "of");
  const auto limit_text = target.get("limit");
  const size_t limit =
      limit_text ? parse_count(*limit_text, "limit", options.max_limit) : options.default_limit;
  const auto s = current.load();
  std::string out = "{\"of\":";
  append_json_string(out, of);
  const auto v = s->index.find(of);
  if (!v) {
    metrics.unknown_labels.fetch_add(1, std::memory_order_relaxed);
    out += ",\"count\":null,\"unknown\":";
    append_json_string(out, of);
    return json_ok(out + "}");
  }
  reach::LivingQuerier& walker = queries_for(s).querier();
  const std::vector<vertex_t> found = down ? walker.descendants(*v) : walker.ancestors(*v);
  out += ",\"count\":" + std::to_string(found.size()) + ",\"vertices\":[";
  for (size_t i = 0; i < found.size() && i < limit; ++i) {
    if (i) out += ',';
    append_json_string(out, s->index.label(found[i]));
  }
  out += "],\"truncated\":";
  out += found.size() > limit ? "true}" : "false}";
  return json_ok(std::move(out));
}

}  // namespace

Service::Service(ServiceOptions options) : options_(std::move(options)) {
  is_index_ = reach::file_is_index(options_.source);
  JournalReplay replay;
  if (is_index_ && options_.appends)
    journal_ = std::make_unique<Journal>(options_.source + ".journal", replay);
  current_.store(load_source(replay.records));
  replayed_ = replay.records.size();
  torn_tail_bytes_ = replay.torn_tail_bytes;
}

Service::~Service() = default;

std::shared_ptr<Snapshot> Service::load_source(const std::vector<LabelPairs>& journal) const {
  if (!is_index_) {
    Request request;  // read as every command reads a graph (run_graph.hpp's read stage)
    request.input = options_.source;
    request.read_options = options_.read;
    RunSummary summary;
    const ReadResult read = read_input(request, summary);
    return std::make_shared<Snapshot>(
        Snapshot{reach::LivingIndex(std::make_shared<const reach::ReachIndex>(
                     reach::build_index(read.graph, options_.append.build))),
                 0});
  }
  auto s = std::make_shared<Snapshot>(Snapshot{reach::load_living_index(options_.source), 0});
  forget_input(options_.source.c_str());  // read whole: the fold may replace it
  // Replayed in order; a record the index already holds changes nothing.
  for (const auto& edges : journal) s->index.add_edges(edges, options_.append);
  return s;
}

uint64_t Service::journal_records() const {
  return journal_ ? journal_->records() : 0;
}

bool Service::reload(std::string* error) {
  std::lock_guard lock(writer_);
  try {
    auto fresh = load_source(journal_ ? journal_->read_back().records : std::vector<LabelPairs>{});
    fresh->generation = current_.load()->generation + 1;
    current_.store(std::move(fresh));
    metrics_.reloads.fetch_add(1, std::memory_order_relaxed);
    return true;
  } catch (const std::exception& e) {
    metrics_.reload_failures.fetch_add(1, std::memory_order_relaxed);
    if (error) *error = e.what();
    return false;
  }
}

void Service::fold() {
  std::lock_guard lock(writer_);
  fold_locked();
}

void Service::fold_locked() {
  if (!journal_ || journal_->records() == 0) return;
  // The index first, then the journal: a crash between the two replays records the index
  // already holds, which changes nothing.
  current_.load()->index.write(options_.source);
  journal_->reset();
  metrics_.folds.fetch_add(1, std::memory_order_relaxed);
}

HttpResponse Service::handle(const HttpRequest& request) {
  const auto t0 = std::chrono::steady_clock::now();
  Endpoint endpoint = Endpoint::kOther;
  HttpResponse response;
  try {
    response = route(request, endpoint);
  } catch (const std::bad_alloc&) {
    response = json_error(503, "out of memory answering this request");
  } catch (const Error& e) {
    response = json_error(info_of(e.kind()).http_status, e.what());
  } catch (const std::exception& e) {
    response = json_error(info_of(classify(e)).http_status, e.what());
  }
  const size_t i = size_t(endpoint);
  if (response.status >= 500)
    metrics_.server_errors[i].fetch_add(1, std::memory_order_relaxed);
  else if (response.status >= 400)
    metrics_.client_errors[i].fetch_add(1, std::memory_order_relaxed);
  metrics_.latency[i].observe(
      std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count());
  return response;
}

HttpResponse Service::route(const HttpRequest& request, Endpoint& endpoint) {
  const Target target = parse_target(request.target);
  const std::string& path = target.path;
  const bool get = request.method == "GET" || request.method == "HEAD";
  const bool post = request.method == "POST";
  auto only = [&](bool allowed, const char* methods) {
    if (!allowed) throw MethodNotAllowed(path + " takes " + methods + ", not " + request.method);
  };
  try {
    if (path == "/health") {
      endpoint = Endpoint::kHealth;
      only(get, "GET");
      return json_ok(
          "{\"status\":\"ok\",\"generation\":" + std::to_string(current_.load()->generation) + "}");
    }
    if (path == "/metrics") {
      endpoint = Endpoint::kMetrics;
      only(get, "GET");
      const auto s = current_.load();
      return metrics_page(*s, metrics_, transport_, journal_records());
    }
    if (path == "/facts") {
      endpoint = Endpoint::kFacts;
      only(get, "GET");
      const auto s = current_.load();
      return facts_page(*s, options_.source, journal_ != nullptr, journal_records());
    }
    if (path == "/reaches") {
      const auto s = current_.load();
      reach::IndexQueries& q = queries_for(s);
      if (get) {
        endpoint = Endpoint::kReaches;
        return one_pair(target, q, metrics_);
      }
      endpoint = Endpoint::kReachesBatch;
      only(post, "GET or POST");
      return pair_batch(request, options_.max_pairs, q, metrics_);
    }
    if (path == "/descendants" || path == "/ancestors") {
      const bool down = path == "/descendants";
      endpoint = down ? Endpoint::kDescendants : Endpoint::kAncestors;
      only(get, "GET");
      return walk(target, down, options_, current_, metrics_);
    }
    if (path == "/edges") {
      endpoint = Endpoint::kEdges;
      only(post, "POST");
      return append(request);
    }
  } catch (const MethodNotAllowed& e) {
    return json_error(405, e.what());
  }
  return json_error(404, "no endpoint " + path +
                             " (GET /reaches?from=U&to=V, POST /reaches, GET /descendants?of=U, "
                             "GET /ancestors?of=V, POST /edges, GET /facts, /health, /metrics)");
}

HttpResponse Service::append(const HttpRequest& request) {
  if (!journal_ && is_index_)
    return json_error(409, "this service was started --read-only: it refuses appends");
  if (!journal_)
    return json_error(409,
                      "this service answers a graph file, which it cannot grow: build an "
                      "index (closure index GRAPH -o G.idx) and serve that to append");
  const LabelPairs edges = parse_pairs(request.body, request.content_type, options_.max_pairs);
  std::lock_guard lock(writer_);
  const auto current = current_.load();
  // No edge (an empty body, only comments): nothing to keep, no journal record, and the
  // generation, which clients watch for change, stays.
  if (edges.empty()) return json_ok(append_answer(0, {}, *current));
  auto next = std::make_shared<Snapshot>(Snapshot{current->index, current->generation + 1});
  const reach::AppendReport report = next->index.add_edges(edges, options_.append);
  try {
    journal_->append(edges);  // on disk before the answer, or no answer but an error
  } catch (const ResourceError& e) {
    return json_error(507, std::string(e.what()) + "; nothing of this append was kept");
  }
  current_.store(next);
  metrics_.appends.fetch_add(1, std::memory_order_relaxed);
  metrics_.appended_edges.fetch_add(edges.size(), std::memory_order_relaxed);
  if (report.rebuilt) metrics_.rebuilds.fetch_add(1, std::memory_order_relaxed);
  std::string out = append_answer(edges.size(), report, *next);
  if (journal_->bytes() > options_.fold_after_bytes) {
    try {
      fold_locked();
    } catch (const std::exception& e) {  // the journal still holds everything: say, go on
      std::fprintf(stderr, "closure serve: folding the journal failed: %s\n", e.what());
    }
  }
  return json_ok(std::move(out));
}

}  // namespace closure::serve
