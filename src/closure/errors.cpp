// Classification of exceptions into the error kinds, and sizes in messages.
#include "closure/errors.hpp"

#include <cstdio>
#include <new>
#include <string_view>

namespace closure {

namespace {

// Each advice in the three front ends' terms; `@` stands for the subject.
struct AdviceTexts {
  Advice advice;
  const char* cpp;
  const char* cli;
  const char* python;
};
constexpr AdviceTexts kAdviceTexts[] = {
    {Advice::kSparseMethod, "try Method::kSparse", "try --method sparse", "try method='sparse'"},
    {Advice::kHostDevice, "use the device \"host\"", "use --device host", "use device='host'"},
    {Advice::kAdjlistFormat, "read it as InputFormat::kAdjList", "use --input-format adjlist",
     "use format='adjlist'"},
    {Advice::kDelimiter, "read it with ReadOptions::delimiter = '@'",
     "read it with --delimiter '@'", "read it with delimiter='@'"},
    {Advice::kHeaderRow,
     "set ReadOptions::header (HeaderRow::kPresent skips it, kAbsent reads it as an edge)",
     "pass --header to skip it or --no-header to read it as an edge",
     "pass header=True to skip it or header=False to read it as an edge"},
    {Advice::kForceOutput, "set the output limit higher to write it anyway",
     "pass --force to write it anyway", "raise the output limit to write it anyway"},
    {Advice::kNoRoomForOutput, "write it to a file system with more room",
     "--force would not help: write it to a file system with more room",
     "write it to a file system with more room"},
    {Advice::kQuotingFormat, "write OutputFormat::kCsv, kTsv, kJson or kMatrixMarket instead",
     "write CSV, TSV, JSON or Matrix Market instead (--output-format csv, tsv, json or mtx, or "
     "a .csv, .tsv, .json or .mtx name)",
     "use to_pandas() or to_networkx(), which keep any label"},
    {Advice::kEscapingFormat, "write OutputFormat::kJson or kMatrixMarket instead",
     "write JSON or Matrix Market instead (--output-format json or mtx, or a .json or .mtx "
     "name)",
     "use to_pandas() or to_networkx(), which keep any label"},
    {Advice::kFewerSources, "verify from fewer sources, or on a machine with more memory",
     "try a smaller --verify-sources, or verify on a machine with more memory",
     "verify from fewer sources, or on a machine with more memory"},
    {Advice::kWithoutClosure,
     "to answer reachability without the closure, build an index (reach::build_index) "
     "and query it (reach::Querier), or list what a vertex reaches with "
     "reach::LivingQuerier::descendants",
     "to answer reachability without the closure: `closure index @ -o @.idx`, then `closure "
     "query @.idx U V` (or `closure reach @ U`)",
     "to answer reachability without the closure: idx = closure.build_index(graph), "
     "then idx.reaches(u, v) or idx.reaches_many(us, vs), or closure.descendants(graph, u)"},
    {Advice::kOneThread, "try SessionOptions::threads = 1", "try --threads 1", "try threads=1"},
};

}  // namespace

std::string advice_text(Advice advice, Audience audience, const std::string& subject) {
  // The CLI's index commands need a file: standard input (or no name) must be saved first.
  if (advice == Advice::kWithoutClosure && audience == Audience::kCli &&
      (subject.empty() || subject == "-"))
    return "; to answer reachability without the closure, save the input to a file G, then "
           "`closure index G -o G.idx` and `closure query G.idx U V` (or `closure reach G U`)";
  const std::string_view text = advice_words(advice, audience);
  if (text.empty()) return "";
  std::string out = "; ";
  for (char c : text)
    if (c == '@')
      out += subject;
    else
      out += c;
  return out;
}

const char* advice_words(Advice advice, Audience audience) {
  for (const AdviceTexts& t : kAdviceTexts)
    if (t.advice == advice)
      return audience == Audience::kCpp ? t.cpp : audience == Audience::kCli ? t.cli : t.python;
  return "";
}

std::string said_to(const std::exception& e, Audience audience) {
  if (const auto* error = dynamic_cast<const Error*>(&e)) return error->said_to(audience);
  return e.what();
}

ErrorKind classify(const std::exception& e) {
  if (const auto* error = dynamic_cast<const Error*>(&e)) return error->kind();
  if (dynamic_cast<const std::bad_alloc*>(&e)) return ErrorKind::kResource;
  if (dynamic_cast<const std::logic_error*>(&e)) return ErrorKind::kInternal;
  return ErrorKind::kResource;
}

std::string format_bytes(double bytes) {
  const char* units[] = {"bytes", "KB", "MB", "GB", "TB"};
  int u = 0;
  while (bytes >= 1000 && u < 4) bytes /= 1000, ++u;
  char buf[32];
  std::snprintf(buf, sizeof buf, u == 0 ? "%.0f %s" : "%.3g %s", bytes, units[u]);
  return buf;
}

}  // namespace closure
