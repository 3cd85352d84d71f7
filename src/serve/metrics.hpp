// What `closure serve` counts, and its /metrics page in Prometheus' text format: requests
// and latency per endpoint (a histogram of fixed buckets, plus the 0.5/0.9/0.99 quantiles
// read off it), pair answers, appended edges, refusals by reason. Lock-free: every count
// is a relaxed atomic, so counting costs a request no lock.
#pragma once

#include <array>
#include <atomic>
#include <cstdint>
#include <string>

namespace closure::serve {

enum class Endpoint : uint8_t {
  kReaches,
  kReachesBatch,
  kDescendants,
  kAncestors,
  kEdges,
  kFacts,
  kHealth,
  kMetrics,
  kOther,
  kCount
};
const char* endpoint_name(Endpoint e);

// Upper bounds of the latency buckets, in seconds (the last bucket is +Inf).
inline constexpr std::array<double, 16> kLatencyBounds = {
    5e-6, 1e-5, 2.5e-5, 5e-5, 1e-4, 2.5e-4, 5e-4, 1e-3, 2e-3, 5e-3, 1e-2, 2.5e-2, 5e-2, 0.1, 1, 10};

class LatencyHistogram {
 public:
  void observe(double seconds);
  uint64_t count() const { return total_.load(std::memory_order_relaxed); }
  double sum_seconds() const { return double(sum_ns_.load(std::memory_order_relaxed)) * 1e-9; }
  // The q-quantile, interpolated within its bucket (0 with no observation).
  double quantile(double q) const;
  uint64_t bucket(size_t i) const { return buckets_[i].load(std::memory_order_relaxed); }

 private:
  std::array<std::atomic<uint64_t>, kLatencyBounds.size() + 1> buckets_{};
  std::atomic<uint64_t> total_{0}, sum_ns_{0};
};

struct ServiceMetrics {
  std::array<LatencyHistogram, size_t(Endpoint::kCount)> latency;
  std::array<std::atomic<uint64_t>, size_t(Endpoint::kCount)> client_errors{}, server_errors{};
  std::atomic<uint64_t> pair_answers{0}, unknown_labels{0}, appended_edges{0}, appends{0},
      rebuilds{0}, folds{0}, reloads{0}, reload_failures{0};
};

struct TransportCounters;
// The /metrics page; `gauges` are extra "name value" lines (vertices, journal records...).
std::string prometheus_text(const ServiceMetrics& m, const TransportCounters& t,
                            const std::string& gauges);

}  // namespace closure::serve
