// What `closure serve` reads from a request: the target's path and query parameters
// (percent-decoded), lists of label pairs in a body (JSON or text lines) and the labels
// themselves. The project's own parsing of client bytes, so the fuzz target's subject
// (tests/fuzz/fuzz_serve_request.cpp); HTTP itself is Boost.Beast's (http_server.hpp).
#pragma once

#include <cstddef>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "serve/journal.hpp"

namespace closure::serve {

struct Target {
  std::string path;
  std::vector<std::pair<std::string, std::string>> params;
  // The parameter's value; nullopt when absent; a parameter given twice is a UsageError.
  std::optional<std::string> get(std::string_view key) const;
};

// "/reaches?from=a%20b&to=c" -> {"/reaches", {{"from", "a b"}, {"to", "c"}}}. Malformed
// escapes are a UsageError (the service's 400).
Target parse_target(std::string_view target);

// A vertex label from a client: 1..kMaxLabelBytes bytes of UTF-8 without control
// characters (a label must survive every output format). `what` names it in the error.
inline constexpr size_t kMaxLabelBytes = 4096;
void check_label(std::string_view label, std::string_view what);

// Pairs from a body: a JSON array of [u, v] arrays (labels as strings or integers), or with
// a text/plain content type one "u v" per line (whitespace-separated, as `query --pairs`).
// At most max_pairs. Every label checked; errors name the pair's position.
LabelPairs parse_pairs(std::string_view body, std::string_view content_type, size_t max_pairs);

// A non-negative integer parameter (limit=, ...), at most `most`.
size_t parse_count(std::string_view text, std::string_view what, size_t most);

}  // namespace closure::serve
