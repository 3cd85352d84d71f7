// Label lookup and per-line answers for `closure query`.
#include "app/tool/reachability_queries.hpp"

#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <string>
#include <string_view>

#include "closure/errors.hpp"
#include "closure/graph/input_error.hpp"
#include "closure/graph/text_scan.hpp"
#include "closure/io/atomic_file.hpp"

namespace closure {

void check_answers_written(std::ostream& out) {
  if (out) return;
  const int err = errno;  // the failed write's, as stdio and the stream leave it
  if (err == EPIPE) throw OutputClosedError("the reader of the answers has gone");
  throw ResourceError(std::string("cannot write the answers") +
                      (err ? std::string(": ") + std::strerror(err) : std::string()));
}

size_t read_pairs_input(int fd, char* to, size_t room, const std::string& name) {
  for (;;) {
    const ssize_t r = ::read(fd, to, room);
    if (r >= 0) return size_t(r);
    if (errno != EINTR)
      throw InputError(name, 0, std::string("read error: ") + std::strerror(errno));
  }
}

ReachabilityIndex::ReachabilityIndex(const Graph& g, const Closure& c, bool reflexive)
    : closure_(c), reflexive_(reflexive) {
  id_of_.reserve(g.vertex_count());
  for (vertex_t v = 0; v < g.vertex_count(); ++v) id_of_.emplace(g.label(v), v);
}

QueryAnswer decided_answer(std::string_view u, std::string_view v, bool yes) {
  std::string text;
  text.reserve(u.size() + v.size() + 7);
  text::append_escaped_label(text, u).push_back(' ');
  text::append_escaped_label(text, v).append(yes ? " yes" : " no");
  return {yes ? QueryAnswer::kReachable : QueryAnswer::kUnreachable, std::move(text)};
}

QueryAnswer unknown_answer(std::string_view u, std::string_view v, std::string_view which) {
  std::string text;
  text.reserve(u.size() + v.size() + which.size() + 23);
  text::append_escaped_label(text, u).push_back(' ');
  text::append_escaped_label(text, v).append(" unknown vertex '");
  text::append_escaped_label(text, which).push_back('\'');
  return {QueryAnswer::kUnknownLabel, std::move(text)};
}

QueryAnswer ReachabilityIndex::answer(std::string_view u, std::string_view v) const {
  const auto iu = id_of_.find(std::string(u));
  if (iu == id_of_.end()) return unknown_answer(u, v, u);
  const auto iv = id_of_.find(std::string(v));
  if (iv == id_of_.end()) return unknown_answer(u, v, v);
  return decided_answer(
      u, v, (reflexive_ && iu->second == iv->second) || closure_.reaches(iu->second, iv->second));
}

std::vector<QueryAnswer> ReachabilityIndex::answer_many(
    const std::vector<std::pair<std::string, std::string>>& questions) const {
  std::vector<QueryAnswer> out(questions.size());
  std::vector<std::pair<vertex_t, vertex_t>> asked;
  std::vector<size_t> where;
  for (size_t i = 0; i < questions.size(); ++i) {
    const auto& [u, v] = questions[i];
    const auto iu = id_of_.find(u), iv = id_of_.find(v);
    if (iu == id_of_.end() || iv == id_of_.end() || (reflexive_ && iu->second == iv->second)) {
      out[i] = answer(u, v);  // unknown labels and reflexive (u,u): no closure needed
      continue;
    }
    asked.emplace_back(iu->second, iv->second);
    where.push_back(i);
  }
  std::vector<uint8_t> yes(asked.size());
  closure_.reaches_many(asked, yes);
  for (size_t k = 0; k < where.size(); ++k) {
    const auto& [u, v] = questions[where[k]];
    out[where[k]] = decided_answer(u, v, yes[k] != 0);
  }
  return out;
}

namespace {

using Questions = std::vector<std::pair<std::string, std::string>>;

// The one reader of `--pairs` input: answers go out in input order, malformed lines as
// FILE:LINE messages in their place; questions are answered `batch` at a time, and also
// whenever no more input is buffered (a user typing pairs, or a program that writes a pair
// and waits, sees each answer at once; a file is still answered in batches of its buffer).
template <class AnswerBatch>
QueryBatchStats answer_lines(const AnswerBatch& answer_batch, size_t batch, std::istream& in,
                             const std::string& name, std::ostream& out, LineFormat format) {
  QueryBatchStats stats;
  // Lines are kept in order: either a ready answer (malformed) or a question's index.
  std::vector<std::string> ready;
  std::vector<long> slot;  // >= 0: question index; < 0: -1 - index into ready
  Questions questions;
  auto flush = [&] {
    const std::vector<QueryAnswer> answers = answer_batch(questions);
    for (const long s : slot) {
      if (s < 0) {
        out << ready[size_t(-1 - s)] << '\n';
        continue;
      }
      const QueryAnswer& a = answers[size_t(s)];
      out << a.text << '\n';
      ++stats.answered;
      if (a.status == QueryAnswer::kReachable) ++stats.reachable;
      if (a.status == QueryAnswer::kUnknownLabel) ++stats.unknown;
    }
    ready.clear();
    slot.clear();
    questions.clear();
  };
  std::string line;
  size_t line_no = 0;
  while (std::getline(in, line)) {
    if (++line_no == 1 && line.starts_with(text::kUtf8Bom)) line.erase(0, text::kUtf8Bom.size());
    size_t at = 0;
    const std::string_view u = text::next_field(line, at);
    if (!u.empty() && u[0] != '#') {
      const std::string_view v = text::next_field(line, at);
      const std::string_view extra = text::next_field(line, at);
      if (v.empty() || (!extra.empty() && extra[0] != '#')) {
        ready.push_back(format == LineFormat::kJson
                            ? "{\"line\":" + std::to_string(line_no) +
                                  ",\"error\":\"expected two labels 'u v'\"}"
                            : name + ":" + std::to_string(line_no) + ": expected two labels 'u v'");
        slot.push_back(-long(ready.size()));
        ++stats.malformed;
        if (questions.empty()) flush();  // nothing to wait for: keep interactive use live
      } else {
        slot.push_back(long(questions.size()));
        questions.emplace_back(text::unescape_label(u), text::unescape_label(v));
        if (questions.size() >= batch) flush();
      }
    }
    // After any line (a comment or a malformed one too): with nothing more buffered, answer
    // what is pending and push it out, so whoever is typing, or a program driving us
    // through a pipe, sees the answers before sending more.
    if (in.rdbuf()->in_avail() <= 0) {
      if (!slot.empty()) flush();
      out.flush();
    }
    check_answers_written(out);
  }
  flush();
  out.flush();
  check_answers_written(out);
  return stats;
}

}  // namespace

QueryBatchStats answer_pairs(const ReachabilityIndex& index, std::istream& in,
                             const std::string& name, std::ostream& out) {
  // Batches of up to 2^20 let the closure answer on the device in one launch per slice.
  return answer_lines([&](const Questions& q) { return index.answer_many(q); }, size_t{1} << 20, in,
                      name, out, LineFormat::kPlain);
}

QueryBatchStats answer_pairs(const PairAnswerer& answer, std::istream& in, const std::string& name,
                             std::ostream& out, LineFormat format) {
  // One question at a time: an index answers in microseconds, and a user typing pairs into
  // stdin sees each answer at once.
  auto one_by_one = [&](const Questions& q) {
    std::vector<QueryAnswer> answers;
    answers.reserve(q.size());
    for (const auto& [u, v] : q) answers.push_back(answer(u, v));
    return answers;
  };
  return answer_lines(one_by_one, 1, in, name, out, format);
}

QueryBatchStats answer_pairs(const BatchAnswerer& answer_many, size_t batch, std::istream& in,
                             const std::string& name, std::ostream& out, LineFormat format) {
  return answer_lines(answer_many, batch, in, name, out, format);
}

}  // namespace closure
