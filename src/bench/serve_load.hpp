// `closure bench serve`: a bounded load client for `closure serve` (src/serve/). N keep-alive
// connections, one thread each, issue a weighted mix of requests (single pairs, batches of
// pairs, descendants, ancestors, appends) until a time or request bound is reached, and
// report per kind: requests, non-2xx answers, requests/s, pair answers/s and client-side
// latency quantiles (the network included). Loopback services only; optionally starts the
// service itself (`closure serve INDEX --port 0`) as a child process and stops it after.
#pragma once

#include <array>
#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace closure {

// The request kinds, in the order the table lists them.
enum class ServeRequestKind { kPairs, kBatch, kDescendants, kAncestors, kEdges, kCount };
inline constexpr size_t kServeRequestKinds = size_t(ServeRequestKind::kCount);
// "pairs", "batch", "descendants", "ancestors", "edges": the names --mix uses.
const char* serve_request_kind_name(ServeRequestKind kind);

// Relative weights of the kinds (a request's kind is drawn with these odds).
using ServeMix = std::array<unsigned, kServeRequestKinds>;
// "pairs=70,batch=20,descendants=5,edges=5": kinds not named weigh 0; at least one weight
// must be positive. Throws UsageError naming the valid kinds.
ServeMix parse_serve_mix(const std::string& text);
// For CLI11's validator (usage_checked): parse_serve_mix, the result dropped.
void check_serve_mix(const std::string& text);

// http://HOST[:PORT][/]: HOST must be 127.0.0.1, ::1 ([::1]) or localhost (UsageError
// "bench serve drives a local service only" otherwise); PORT defaults to 7377 (serve's).
struct ServeUrl {
  std::string host;  // as given, brackets removed
  uint16_t port = 7377;
  std::string text;  // http://host:port, for messages
};
ServeUrl parse_serve_url(const std::string& url);

inline constexpr double kServeLoadMostSeconds = 600;

struct ServeLoadOptions {
  std::string url;          // the service; empty with start_index
  std::string start_index;  // non-empty: start `closure serve INDEX` as a child, then stop it
  std::string serve_binary = "/proc/self/exe";  // the `closure` that start_index runs
  unsigned connections = 64;
  double seconds = 5;     // time bound; 0: none (then requests must be set)
  uint64_t requests = 0;  // bound on requests issued in all; 0: none
  ServeMix mix{70, 20, 5, 0, 5};
  size_t batch = 1000;      // pairs per POST /reaches
  size_t limit = 100;       // limit= of descendants and ancestors
  std::string labels_file;  // empty: learn the labels from GET /facts (identity labels only)
  uint64_t seed = 1;
  bool quiet = false;  // no progress lines on stderr
};
// Throws UsageError for a refused combination (no bound, seconds over 600, ...).
void check_serve_load_options(const ServeLoadOptions& o);

struct ServeKindReport {
  uint64_t requests = 0;          // answered (any status)
  uint64_t errors = 0;            // non-2xx answers, and requests that got no answer at all
  uint64_t transport_errors = 0;  // of errors: no answer (connection reset, closed, ...)
  uint64_t pair_answers = 0;      // pairs in 2xx answers (pairs: 1, batch: --batch)
  double p50_us = 0, p90_us = 0, p99_us = 0, max_us = 0, mean_us = 0;
};

struct ServeLoadReport {
  std::string url;
  unsigned connections = 0;
  double seconds = 0;       // from the first request to the last answer
  size_t labels = 0;        // labels drawn from
  std::string labels_from;  // "facts (identity labels)" or the file
  uint64_t vertices = 0;    // GET /facts before the load (0 if unread)
  std::array<ServeKindReport, kServeRequestKinds> kinds{};
  ServeKindReport total;
  uint64_t connects = 0, connect_failures = 0;
  // GET /metrics before and after the load: the server's own quantiles over the load alone,
  // in microseconds; nullopt when the metrics could not be read or the endpoint saw no
  // request of the load.
  std::optional<double> server_p50_reaches_us, server_p99_reaches_us, server_p50_batch_us,
      server_p99_batch_us;
  // With start_index: how the child ended ("exit status 0", "killed by SIGKILL after ...").
  std::string server_exit;
  int server_exit_status = -1;     // the child's exit status; -1 without start_index or a signal
  std::vector<std::string> notes;  // worker failures, said once each
};

// Runs the load. Throws UsageError for refused options or a non-loopback URL, ResourceError
// when the service cannot be reached (the URL named) or the child does not start.
ServeLoadReport run_serve_load(const ServeLoadOptions& o);

std::string format_serve_load_table(const ServeLoadReport& r);
std::string format_serve_load_json(const ServeLoadReport& r);

}  // namespace closure
