// Counting requests and rendering /metrics.
#include "serve/metrics.hpp"

#include <algorithm>
#include <cstdio>

#include "serve/http_server.hpp"

namespace closure::serve {

const char* endpoint_name(Endpoint e) {
  static const char* const names[] = {"reaches",   "reaches_batch", "descendants",
                                      "ancestors", "edges",         "facts",
                                      "health",    "metrics",       "other"};
  return names[size_t(e)];
}

void LatencyHistogram::observe(double seconds) {
  const size_t i = size_t(std::lower_bound(kLatencyBounds.begin(), kLatencyBounds.end(), seconds) -
                          kLatencyBounds.begin());
  buckets_[i].fetch_add(1, std::memory_order_relaxed);
  total_.fetch_add(1, std::memory_order_relaxed);
  sum_ns_.fetch_add(uint64_t(std::max(0.0, seconds) * 1e9), std::memory_order_relaxed);
}

double LatencyHistogram::quantile(double q) const {
  uint64_t total = 0;
  for (const auto& b : buckets_) total += b.load(std::memory_order_relaxed);
  if (total == 0) return 0;
  const double want = q * double(total);
  double seen = 0;
  for (size_t i = 0; i < buckets_.size(); ++i) {
    const double here = double(buckets_[i].load(std::memory_order_relaxed));
    if (seen + here >= want && here > 0) {
      const double lo = i == 0 ? 0 : kLatencyBounds[i - 1];
      const double hi = i < kLatencyBounds.size() ? kLatencyBounds[i] : kLatencyBounds.back();
      return lo + (hi - lo) * ((want - seen) / here);
    }
    seen += here;
  }
  return kLatencyBounds.back();
}

std::string prometheus_text(const ServiceMetrics& m, const TransportCounters& t,
                            const std::string& gauges) {
  std::string out;
  char line[256];
  auto put = [&](const char* fmt, auto... args) {
    std::snprintf(line, sizeof line, fmt, args...);
    out += line;
  };
  out +=
      "# HELP closure_request_duration_seconds Time to answer a request, by endpoint.\n"
      "# TYPE closure_request_duration_seconds histogram\n";
  for (size_t e = 0; e < size_t(Endpoint::kCount); ++e) {
    const LatencyHistogram& h = m.latency[e];
    const char* name = endpoint_name(Endpoint(e));
    uint64_t cumulative = 0;
    for (size_t i = 0; i < kLatencyBounds.size(); ++i) {
      cumulative += h.bucket(i);
      put("closure_request_duration_seconds_bucket{endpoint=\"%s\",le=\"%g\"} %llu\n", name,
          kLatencyBounds[i], (unsigned long long)cumulative);
    }
    cumulative += h.bucket(kLatencyBounds.size());
    put("closure_request_duration_seconds_bucket{endpoint=\"%s\",le=\"+Inf\"} %llu\n", name,
        (unsigned long long)cumulative);
    put("closure_request_duration_seconds_sum{endpoint=\"%s\"} %.9f\n", name, h.sum_seconds());
    put("closure_request_duration_seconds_count{endpoint=\"%s\"} %llu\n", name,
        (unsigned long long)h.count());
  }
  out += "# TYPE closure_request_latency_quantile_seconds gauge\n";
  for (size_t e = 0; e < size_t(Endpoint::kCount); ++e)
    for (double q : {0.5, 0.9, 0.99})
      put("closure_request_latency_quantile_seconds{endpoint=\"%s\",quantile=\"%g\"} %.9f\n",
          endpoint_name(Endpoint(e)), q, m.latency[e].quantile(q));
  out += "# TYPE closure_responses_total counter\n";
  for (size_t e = 0; e < size_t(Endpoint::kCount); ++e) {
    put("closure_responses_total{endpoint=\"%s\",class=\"4xx\"} %llu\n", endpoint_name(Endpoint(e)),
        (unsigned long long)m.client_errors[e].load());
    put("closure_responses_total{endpoint=\"%s\",class=\"5xx\"} %llu\n", endpoint_name(Endpoint(e)),
        (unsigned long long)m.server_errors[e].load());
  }
  auto counter = [&](const char* name, uint64_t value) {
    put("# TYPE %s counter\n%s %llu\n", name, name, (unsigned long long)value);
  };
  counter("closure_pair_answers_total", m.pair_answers.load());
  counter("closure_unknown_labels_total", m.unknown_labels.load());
  counter("closure_appends_total", m.appends.load());
  counter("closure_appended_edges_total", m.appended_edges.load());
  counter("closure_rebuilds_total", m.rebuilds.load());
  counter("closure_folds_total", m.folds.load());
  counter("closure_reloads_total", m.reloads.load());
  counter("closure_reload_failures_total", m.reload_failures.load());
  counter("closure_connections_accepted_total", t.connections_accepted.load());
  counter("closure_connections_refused_total", t.connections_refused.load());
  counter("closure_http_requests_total", t.requests.load());
  counter("closure_bad_requests_total", t.bad_requests.load());
  counter("closure_header_too_large_total", t.header_too_large.load());
  counter("closure_body_too_large_total", t.body_too_large.load());
  counter("closure_timeouts_total", t.timeouts.load());
  counter("closure_handler_errors_total", t.handler_errors.load());
  put("# TYPE closure_connections_open gauge\nclosure_connections_open %llu\n",
      (unsigned long long)t.connections_open.load());
  out += gauges;
  return out;
}

}  // namespace closure::serve
