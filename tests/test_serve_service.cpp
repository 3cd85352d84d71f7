// The service without the network: the journal (torn tails cut, damage refused, a failed
// write leaves nothing), request parsing (targets, pairs, labels) and the routes' answers,
// which after appends equal BFS over the graph plus every appended edge.
#include <gtest/gtest.h>
#include <sys/resource.h>
#include <unistd.h>

#include <csignal>
#include <fstream>
#include <nlohmann/json.hpp>
#include <random>
#include <string>

#include "closure/errors.hpp"
#include "closure/graph/input_error.hpp"
#include "closure/reach/index_file.hpp"
#include "serve/journal.hpp"
#include "serve/request_text.hpp"
#include "serve/service.hpp"

namespace closure::serve {
namespace {

std::string temp_path(const std::string& name) {
  return ::testing::TempDir() + "closure_serve_" + std::to_string(::getpid()) + "_" + name;
}

std::string file_bytes(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  return std::string(std::istreambuf_iterator<char>(in), {});
}

TEST(Journal, ReplaysWhatWasAppendedAndCutsATornTail) {
  const std::string path = temp_path("j1");
  ::unlink(path.c_str());
  {
    JournalReplay r;
    Journal j(path, r);
    EXPECT_TRUE(r.records.empty());
    j.append({{"a", "b"}, {"c", "d e"}});
    j.append({{"x", "y"}});
    EXPECT_EQ(j.records(), 2u);
  }
  const std::string whole = file_bytes(path);
  // A half-written third record: cut off, the first two kept.
  {
    std::ofstream(path, std::ios::binary | std::ios::app)
        << journal_record({{"late", "edge"}}).substr(0, 21);
    JournalReplay r;
    Journal j(path, r);
    ASSERT_EQ(r.records.size(), 2u);
    EXPECT_EQ(r.records[0][1].second, "d e");
    EXPECT_EQ(r.torn_tail_bytes, 21u);
  }
  EXPECT_EQ(file_bytes(path), whole);
  // Damage with records after it may hide acknowledged appends: refused.
  std::string damaged = whole;
  damaged[16 + 16] ^= 1;  // the first record's payload
  EXPECT_THROW(parse_journal(damaged, "j"), InputError);
  EXPECT_THROW(parse_journal("NOTAJOURNAL-----", "j"), InputError);
  // A first record's size made larger than the file: its edges end where they did, before
  // the size says, so the size is damaged and the records after it acknowledged: refused
  // (cut off as a torn tail, they were lost).
  std::string longer = whole;
  const uint32_t past_the_end = uint32_t(whole.size());
  std::memcpy(longer.data() + 16, &past_the_end, 4);
  EXPECT_THROW(parse_journal(longer, "j"), InputError);
  // The last record whole in length but not in its checksum: a torn write shows zeros at
  // its end (cut off), anything else is damage (refused).
  std::string zeroed = whole, flipped = whole;
  zeroed.back() = '\0';
  flipped.back() ^= 1;
  EXPECT_EQ(parse_journal(zeroed, "j").records.size(), 1u);
  EXPECT_THROW(parse_journal(flipped, "j"), InputError);
  // Zeros where a crash left the last write: its head kept and its payload zeros, cut short
  // or whole, or zeros where a record would begin.
  const size_t last = whole.size() - journal_record({{"x", "y"}}).size();
  std::string cut = whole.substr(0, last + 16) + std::string(3, '\0');
  EXPECT_EQ(parse_journal(cut, "j").records.size(), 1u);
  for (size_t zeros : {1, 16, 30})
    EXPECT_EQ(parse_journal(whole + std::string(zeros, '\0'), "j").records.size(), 2u) << zeros;
  // reset empties it; a reopen finds nothing.
  {
    JournalReplay r;
    Journal j(path, r);
    j.reset();
    EXPECT_EQ(j.records(), 0u);
  }
  JournalReplay r;
  Journal j(path, r);
  EXPECT_TRUE(r.records.empty());
  ::unlink(path.c_str());
}

TEST(Journal, OneProcessAtATime) {
  // A second holder of the journal (another `closure serve` of the index) is refused while
  // the first holds it, and so is an index written over it (refuse_if_served); both may go
  // on once the first has let go. A fold's new journal is held as the old one was.
  const std::string index = temp_path("locked.idx"), path = index + ".journal";
  ::unlink(path.c_str());
  {
    JournalReplay r;
    Journal first(path, r);
    first.append({{"a", "b"}});
    JournalReplay r2;
    EXPECT_THROW(Journal(path, r2), UsageError);
    EXPECT_THROW(refuse_if_served(index), UsageError);
    first.reset();
    EXPECT_THROW(Journal(path, r2), UsageError);
    EXPECT_THROW(refuse_if_served(index), UsageError);
    EXPECT_NO_THROW(refuse_if_served(temp_path("never_served.idx")));
  }
  EXPECT_NO_THROW(refuse_if_served(index));
  JournalReplay r;
  EXPECT_NO_THROW(Journal(path, r));
  ::unlink(path.c_str());
}

TEST(Journal, RefusesASymbolicLink) {
  const std::string target = temp_path("j2t"), link = temp_path("j2l");
  ::unlink(link.c_str());
  std::ofstream(target) << "";
  ASSERT_EQ(::symlink(target.c_str(), link.c_str()), 0);
  JournalReplay r;
  EXPECT_THROW(Journal(link, r), UsageError);
  ::unlink(link.c_str());
  ::unlink(target.c_str());
}

// A full disk, as the file-size limit makes it: the append fails with ResourceError and
// nothing of it stays in the file.
TEST(Journal, AFailedAppendLeavesNothing) {
  const std::string path = temp_path("j3");
  ::unlink(path.c_str());
  JournalReplay r;
  Journal j(path, r);
  j.append({{"a", "b"}});
  const std::string before = file_bytes(path);
  const auto old_handler = std::signal(SIGXFSZ, SIG_IGN);
  rlimit old{};
  ::getrlimit(RLIMIT_FSIZE, &old);
  rlimit small = old;
  small.rlim_cur = before.size() + 10;
  ::setrlimit(RLIMIT_FSIZE, &small);
  EXPECT_THROW(j.append({{std::string(100, 'x'), "y"}}), ResourceError);
  ::setrlimit(RLIMIT_FSIZE, &old);
  std::signal(SIGXFSZ, old_handler);
  EXPECT_EQ(file_bytes(path), before);
  j.append({{"c", "d"}});
  EXPECT_EQ(parse_journal(file_bytes(path), "j").records.size(), 2u);
  ::unlink(path.c_str());
}

TEST(RequestText, TargetsPairsAndLabels) {
  const Target t = parse_target("/reaches?from=a%20b&to=c+d&x");
  EXPECT_EQ(t.path, "/reaches");
  EXPECT_EQ(t.get("from"), "a b");
  EXPECT_EQ(t.get("to"), "c d");
  EXPECT_EQ(t.get("x"), "");
  EXPECT_FALSE(t.get("y"));
  EXPECT_THROW(parse_target("/r?from=%zz"), UsageError);
  EXPECT_THROW(parse_target("/r?from=%4"), UsageError);
  EXPECT_THROW(parse_target("/r?a=1&a=2").get("a"), UsageError);
  EXPECT_THROW(parse_pairs(R"([["a","b"],{"x":1}])", "application/json", 10), UsageError);
  EXPECT_EQ(parse_pairs(R"([["a","b"],[1,2]])", "", 10)[1],
            (std::pair<std::string, std::string>{"1", "2"}));
  EXPECT_EQ(parse_pairs(R"({"pairs":[["a","b"]]})", "", 10).size(), 1u);
  EXPECT_EQ(parse_pairs("a b\r\n\n c\td \n", "text/plain", 10).size(), 2u);
  EXPECT_THROW(parse_pairs("a b c\n", "text/plain", 10), UsageError);
  // Lines read as query --pairs reads them: '#' comments, escapes dropped (so query's answer
  // lines, "\#a ...", ask the same questions here).
  const LabelPairs read = parse_pairs("# note\n\\#a \\\\b # why\n%c\vd\n", "text/plain", 10);
  ASSERT_EQ(read.size(), 2u);
  EXPECT_EQ(read[0], (std::pair<std::string, std::string>{"#a", "\\b"}));
  EXPECT_EQ(read[1], (std::pair<std::string, std::string>{"%c", "d"}));
  // A byte order mark before a body's first line is skipped, as graph readers skip it; in a
  // JSON body as well (JSON's parser skips it).
  EXPECT_EQ(parse_pairs("\xEF\xBB\xBF"
                        "a b\n",
                        "text/plain", 10)[0]
                .first,
            "a");
  EXPECT_EQ(parse_pairs("\xEF\xBB\xBF"
                        R"([["a","b"]])",
                        "", 10)[0]
                .first,
            "a");
  // The media type's case and parameters aside; another type is no text.
  EXPECT_EQ(parse_pairs("\\#a b\n", "Text/Plain; charset=utf-8", 10)[0].first, "#a");
  EXPECT_THROW(parse_pairs("a b\n", "text/plainx", 10), UsageError);
  // A bad label in a text body is named by its line.
  try {
    parse_pairs("#c\n#d\n\xff b\n", "text/plain", 10);
    ADD_FAILURE() << "a label not UTF-8 was taken";
  } catch (const UsageError& e) {
    EXPECT_NE(std::string(e.what()).find("line 3: the first label"), std::string::npos) << e.what();
  }
  EXPECT_THROW(parse_pairs("[[\"a\",\"b\"],[\"c\",\"d\"]]", "", 1), UsageError);
  EXPECT_THROW(parse_pairs("[[\"a\",\"\"]]", "", 10), UsageError);
  EXPECT_THROW(parse_pairs("[[\"a\",\"b\\u0001\"]]", "", 10), UsageError);
  EXPECT_THROW(parse_pairs("a \xff\n", "text/plain", 10), UsageError);
  EXPECT_THROW(parse_pairs("[[true,\"b\"]]", "", 10), UsageError);
  EXPECT_THROW(parse_pairs("not json", "", 10), UsageError);
  EXPECT_THROW(check_label(std::string(kMaxLabelBytes + 1, 'a'), "x"), UsageError);
  EXPECT_EQ(parse_count("25", "limit", 100), 25u);
  EXPECT_THROW(parse_count("-1", "limit", 100), UsageError);
  EXPECT_THROW(parse_count("101", "limit", 100), UsageError);
}

nlohmann::json ask(Service& s, const std::string& method, const std::string& target,
                   const std::string& body = "", int status = 200) {
  HttpRequest r{method, target, body, "application/json"};
  const HttpResponse a = s.handle(r);
  EXPECT_EQ(a.status, status) << method << " " << target << ": " << a.body;
  return nlohmann::json::parse(a.body);
}

// The routes after appends of every kind equal BFS over all edges given; a restart (a new
// Service on the same files) replays the journal; a fold writes it into the index.
TEST(Service, AnswersEqualBfsAcrossAppendsRestartsAndFolds) {
  const std::string idx = temp_path("s.idx");
  ::unlink((idx + ".journal").c_str());
  std::mt19937_64 rng(5);
  std::vector<std::pair<int, int>> edges;
  for (int i = 0; i < 60; ++i) edges.emplace_back(int(rng() % 40), int(rng() % 40));
  std::vector<Edge> e;
  for (auto [a, b] : edges) e.emplace_back(vertex_t(a), vertex_t(b));
  reach::write_index(idx, reach::build_index(Graph(40, e)));
  auto bfs = [&](int n) {
    std::vector<std::vector<uint8_t>> r(n, std::vector<uint8_t>(n, 0));
    for (int u = 0; u < n; ++u) {
      std::vector<int> q;
      for (auto [a, b] : edges)
        if (a == u && !r[u][b]) r[u][b] = 1, q.push_back(b);
      for (size_t h = 0; h < q.size(); ++h)
        for (auto [a, b] : edges)
          if (a == q[h] && !r[u][b]) r[u][b] = 1, q.push_back(b);
    }
    return r;
  };
  auto check = [&](Service& s, int n, const std::string& when) {
    const auto truth = bfs(n);
    std::string body = "[";
    for (int u = 0; u < n; ++u)
      for (int v = 0; v < n; ++v)
        body += (body.size() > 1 ? "," : "") + std::string("[\"") + std::to_string(u) + "\",\"" +
                std::to_string(v) + "\"]";
    const auto a = ask(s, "POST", "/reaches", body + "]");
    for (int u = 0; u < n; ++u)
      for (int v = 0; v < n; ++v)
        ASSERT_EQ(a["answers"][u * n + v].get<bool>(), bool(truth[u][v]))
            << when << ": " << u << " -> " << v;
    for (int u = 0; u < n; u += 7) {
      const auto d = ask(s, "GET", "/descendants?of=" + std::to_string(u) + "&limit=1000");
      int count = 0;
      for (int v = 0; v < n; ++v) count += truth[u][v];
      EXPECT_EQ(d["count"].get<int>(), count) << when;
      const auto an = ask(s, "GET", "/ancestors?of=" + std::to_string(u));
      count = 0;
      for (int w = 0; w < n; ++w) count += truth[w][u];
      EXPECT_EQ(an["count"].get<int>(), count) << when;
    }
  };
  ServiceOptions options;
  options.source = idx;
  int n = 40;
  uint64_t generation = 0;
  {
    Service s(options);
    check(s, n, "start");
    // New -> old, new -> new (a cycle), old -> old, old -> new.
    const std::vector<std::vector<std::pair<int, int>>> rounds = {
        {{40, 3}, {41, 40}, {42, 41}}, {{43, 44}, {44, 43}, {43, 5}}, {{7, 2}, {39, 0}}, {{1, 45}}};
    for (const auto& round : rounds) {
      std::string body = "[";
      for (auto [a, b] : round) {
        body += (body.size() > 1 ? "," : "") + std::string("[") + std::to_string(a) + "," +
                std::to_string(b) + "]";
        edges.emplace_back(a, b);
        n = std::max({n, a + 1, b + 1});
      }
      const auto r = ask(s, "POST", "/edges", body + "]");
      EXPECT_EQ(r["appended"].get<size_t>(), round.size());
      generation = r["generation"].get<uint64_t>();
      check(s, n, "after an append");
    }
    // No edge (an empty list, a text body of comments): no record, the same generation.
    for (const auto& [type, body] :
         {std::pair{"application/json", "[]"}, std::pair{"text/plain", "# only a note\n\n"}}) {
      const HttpResponse none = s.handle(HttpRequest{"POST", "/edges", body, type});
      ASSERT_EQ(none.status, 200) << none.body;
      EXPECT_EQ(nlohmann::json::parse(none.body)["generation"].get<uint64_t>(), generation);
      EXPECT_EQ(nlohmann::json::parse(none.body)["appended"].get<uint64_t>(), 0u);
    }
    EXPECT_EQ(s.journal_records(), 4u);
  }
  {
    Service s(options);  // a restart: the journal replayed
    EXPECT_EQ(s.replayed_records(), 4u);
    check(s, n, "restarted");
    s.fold();
    EXPECT_EQ(s.journal_records(), 0u);
  }
  Service s(options);  // the folded index alone
  EXPECT_EQ(s.replayed_records(), 0u);
  check(s, n, "folded");
  // Unknown labels are per-item answers; bad requests are 4xx, never a crash.
  const auto a = ask(s, "POST", "/reaches", R"([["0","nobody"],["0","1"]])");
  EXPECT_TRUE(a["answers"][0].is_null());
  EXPECT_EQ(a["unknown"][0]["label"], "nobody");
  EXPECT_TRUE(ask(s, "GET", "/reaches?from=nobody&to=1")["reaches"].is_null());
  ask(s, "GET", "/reaches?from=1", "", 400);
  ask(s, "GET", "/reaches?from=%ff&to=1", "", 400);
  ask(s, "POST", "/reaches", "[[1]]", 400);
  ask(s, "POST", "/edges", "{", 400);
  ask(s, "PUT", "/edges", "", 405);
  ask(s, "GET", "/nothing", "", 404);
  ask(s, "GET", "/descendants?of=1&limit=x", "", 400);
  EXPECT_GT(s.metrics().client_errors[size_t(Endpoint::kReaches)].load(), 0u);
  ::unlink(idx.c_str());
  ::unlink((idx + ".journal").c_str());
}

}  // namespace
}  // namespace closure::serve
