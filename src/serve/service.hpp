// The query service behind `closure serve`: a living index answered from consistent
// snapshots, appends made durable in a journal before they are acknowledged, and the
// routes of its HTTP/JSON interface (docs/formats.md, "closure serve"). Readers never wait
// for a writer: each request takes the current snapshot (an atomic shared_ptr) and answers
// from it alone; an append builds the next snapshot beside it, journals it, then publishes.
#pragma once

#include <atomic>
#include <cstdint>
#include <memory>
#include <mutex>
#include <string>

#include "closure/graph/read_graph.hpp"
#include "closure/reach/living_index.hpp"
#include "serve/http_server.hpp"
#include "serve/journal.hpp"
#include "serve/metrics.hpp"

namespace closure::serve {

struct ServiceOptions {
  std::string source;            // the index file (or graph file) served
  ReadOptions read;              // for a graph: its format, header and delimiter
  bool appends = true;           // an index's journal beside it (SOURCE.journal)
  size_t max_pairs = 1'000'000;  // pairs in one request
  size_t default_limit = 1000;   // vertices listed by descendants/ancestors
  size_t max_limit = 10'000'000;
  uint64_t fold_after_bytes = 64u << 20;  // journal size that folds it into the index
  reach::AppendOptions append;
};

struct Snapshot {
  reach::LivingIndex index;
  uint64_t generation = 0;
};

class Service {
 public:
  // Loads the source: an index (with its layer) and the journal's records replayed onto it,
  // or a graph, indexed now (then appends are refused: there is no file to fold them into).
  explicit Service(ServiceOptions options);
  ~Service();

  // Every request; never throws (errors become 4xx/5xx JSON answers, counted).
  HttpResponse handle(const HttpRequest& request);
  // SIGHUP: reads the index file again (another process may have replaced it), replays
  // the journal onto it and publishes it; on failure the old snapshot stays. True if loaded.
  bool reload(std::string* error = nullptr);
  // Writes the current snapshot into the index file (atomically) and empties the journal.
  void fold();

  std::shared_ptr<const Snapshot> snapshot() const { return current_.load(); }
  const ServiceMetrics& metrics() const { return metrics_; }
  TransportCounters& transport() { return transport_; }
  const ServiceOptions& options() const { return options_; }
  uint64_t journal_records() const;
  uint64_t replayed_records() const { return replayed_; }
  // Bytes of an unfinished last journal record cut off at start (never acknowledged).
  uint64_t torn_tail_bytes() const { return torn_tail_bytes_; }

 private:
  HttpResponse route(const HttpRequest& request, Endpoint& endpoint);
  HttpResponse append(const HttpRequest& request);
  std::shared_ptr<Snapshot> load_source(const std::vector<LabelPairs>& journal) const;
  void fold_locked();

  ServiceOptions options_;
  bool is_index_ = false;
  std::atomic<std::shared_ptr<const Snapshot>> current_;
  std::mutex writer_;  // appends, folds and reloads, one at a time
  std::unique_ptr<Journal> journal_;
  uint64_t replayed_ = 0, torn_tail_bytes_ = 0;
  ServiceMetrics metrics_;
  TransportCounters transport_;
};

}  // namespace closure::serve
