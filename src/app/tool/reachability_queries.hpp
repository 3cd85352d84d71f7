// Reachability questions in the input's labels, answered from a computed closure.
#pragma once

#include <functional>
#include <istream>
#include <ostream>
#include <string>
#include <string_view>
#include <unordered_map>
#include <utility>
#include <vector>

#include "closure/algorithms/closure.hpp"
#include "closure/graph/graph.hpp"

namespace closure {

struct QueryAnswer {
  enum Status { kReachable, kUnreachable, kUnknownLabel } status;
  std::string text;  // "u v yes", "u v no", or "u v unknown vertex 'u'"
};

// The answer lines of every engine (a closure, an index), labels echoed as edge lists write
// them so that a line reads back as a question: "u v yes" or "u v no", and "u v unknown
// vertex 'w'" for the label `which` (u or v) that names no vertex.
QueryAnswer decided_answer(std::string_view u, std::string_view v, bool yes);
QueryAnswer unknown_answer(std::string_view u, std::string_view v, std::string_view which);

class ReachabilityIndex {
 public:
  ReachabilityIndex(const Graph& g, const Closure& c, bool reflexive);
  QueryAnswer answer(std::string_view u, std::string_view v) const;
  // Many questions at once: on a device closure one launch per slice answers them all
  // (answer() would read one word from the device per question).
  std::vector<QueryAnswer> answer_many(
      const std::vector<std::pair<std::string, std::string>>& questions) const;

 private:
  const Closure& closure_;
  bool reflexive_;
  std::unordered_map<std::string, vertex_t> id_of_;
};

// After answers are written to `out`: throws OutputClosedError where their reader has gone
// (EPIPE; the CLI stops quietly, as on every stream output) and ResourceError where the
// write failed otherwise (a full disk), so that a failed output neither answers on for
// nobody nor ends with exit 0.
void check_answers_written(std::ostream& out);

// One read of `--pairs` input from `fd` into [to, to + room), retried on EINTR; 0 at its end.
// Throws InputError naming `name` on a read error.
size_t read_pairs_input(int fd, char* to, size_t room, const std::string& name);

struct QueryBatchStats {
  size_t answered = 0, reachable = 0, unknown = 0, malformed = 0;
  QueryBatchStats& operator+=(const QueryBatchStats& o) {
    answered += o.answered, reachable += o.reachable, unknown += o.unknown;
    malformed += o.malformed;
    return *this;
  }
};

// How a malformed line is answered: "NAME:LINE: expected two labels 'u v'", or, among JSON
// lines, {"line": LINE, "error": "expected two labels 'u v'"} so the output stays JSON.
enum class LineFormat { kPlain, kJson };

// One output line per input line of "u v" ('#' comments and blank lines skipped).
// Malformed lines are answered as `format` says and counted, not fatal.
// Questions are answered in batches (answer_many), the output keeps the input's order.
QueryBatchStats answer_pairs(const ReachabilityIndex& index, std::istream& in,
                             const std::string& name, std::ostream& out);
// The same with any source of answers (the closure above, or a reachability index).
using PairAnswerer = std::function<QueryAnswer(std::string_view, std::string_view)>;
QueryBatchStats answer_pairs(const PairAnswerer& answer, std::istream& in, const std::string& name,
                             std::ostream& out, LineFormat format = LineFormat::kPlain);
// The same with answers `batch` questions at a time, or fewer whenever the input has no
// more lines buffered (so a user typing pairs still sees each answer at once).
using BatchAnswerer = std::function<std::vector<QueryAnswer>(
    const std::vector<std::pair<std::string, std::string>>&)>;
QueryBatchStats answer_pairs(const BatchAnswerer& answer_many, size_t batch, std::istream& in,
                             const std::string& name, std::ostream& out,
                             LineFormat format = LineFormat::kPlain);

}  // namespace closure
