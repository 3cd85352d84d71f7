// Graphviz DOT, the subset that carries graph structure: node and edge statements (chains,
// subgraph operands), attribute lists skipped, quoted/HTML/numeral ids, comments; `graph`
// with `--` adds both directions.
#include <algorithm>
#include <string>
#include <vector>

#include "closure/graph/format_readers.hpp"
#include "closure/graph/label_map.hpp"
#include "closure/graph/text_scan.hpp"

namespace closure::detail {

namespace {

enum class Tok {
  kId,
  kLBrace,
  kRBrace,
  kLBracket,
  kRBracket,
  kSemi,
  kComma,
  kEq,
  kColon,
  kArrow,
  kDash,
  kEnd
};

struct Token {
  Tok kind = Tok::kEnd;
  std::string text;         // an id's value (quotes removed, escapes resolved)
  bool keyword_ok = false;  // an unquoted id, so it may be a keyword
  size_t line = 0;
};

bool is_id_start(char c) {
  return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c == '_' ||
         static_cast<unsigned char>(c) >= 0x80;
}
bool is_digit(char c) {
  return c >= '0' && c <= '9';
}

class Lexer {
 public:
  Lexer(std::string_view text, LineSource& src) : s_(text), src_(src) {}

  Token next() {
    skip_blank();
    Token t;
    t.line = line_;
    if (pos_ >= s_.size()) return t;
    const char c = s_[pos_];
    if (const Tok p = punctuation(c); p != Tok::kEnd) {
      ++pos_;
      t.kind = p;
      return t;
    }
    if (c == '-' && pos_ + 1 < s_.size() && (s_[pos_ + 1] == '>' || s_[pos_ + 1] == '-')) {
      t.kind = s_[pos_ + 1] == '>' ? Tok::kArrow : Tok::kDash;
      pos_ += 2;
      return t;
    }
    t.kind = Tok::kId;
    if (c == '"') {
      t.text = quoted_concatenation();
      return t;
    }
    if (c == '<') {
      t.text = html();
      return t;
    }
    if (is_id_start(c)) {
      const size_t start = pos_;
      while (pos_ < s_.size() && (is_id_start(s_[pos_]) || is_digit(s_[pos_]))) ++pos_;
      t.text = s_.substr(start, pos_ - start);
      t.keyword_ok = true;
      return t;
    }
    if (is_digit(c) || c == '.' || c == '-') {
      t.text = numeral();
      return t;
    }
    fail(line_, "unexpected character " + text::quote(s_.substr(pos_, 1)));
  }

  [[noreturn]] void fail(size_t line, const std::string& message) const {
    src_.fail_at(line, message);
  }

 private:
  // The one-character tokens' kinds (Tok::kEnd for any other character); a table apart from
  // next() so that the lexer's entry reads as the kinds of token it tells apart.
  static Tok punctuation(char c) {
    switch (c) {
      case '{':
        return Tok::kLBrace;
      case '}':
        return Tok::kRBrace;
      case '[':
        return Tok::kLBracket;
      case ']':
        return Tok::kRBracket;
      case ';':
        return Tok::kSemi;
      case ',':
        return Tok::kComma;
      case '=':
        return Tok::kEq;
      case ':':
        return Tok::kColon;
      default:
        return Tok::kEnd;
    }
  }

  // A quoted id and any '+' "more" that follow it, concatenated (DOT's "a" + "b").
  std::string quoted_concatenation() {
    std::string text = quoted();
    for (;;) {
      const size_t save_pos = pos_, save_line = line_;
      skip_blank();
      if (pos_ < s_.size() && s_[pos_] == '+') {
        ++pos_;
        skip_blank();
        if (pos_ < s_.size() && s_[pos_] == '"') {
          text += quoted();
          continue;
        }
        fail(line_, "expected a quoted string after '+'");
      }
      pos_ = save_pos;
      line_ = save_line;
      break;
    }
    return text;
  }

  // A numeral id: [-] digits with at most one '.', at least one digit.
  std::string numeral() {
    const size_t start = pos_;
    if (s_[pos_] == '-') ++pos_;
    bool digits = false, dot = false;
    while (pos_ < s_.size() && (is_digit(s_[pos_]) || (s_[pos_] == '.' && !dot))) {
      if (s_[pos_] == '.')
        dot = true;
      else
        digits = true;
      ++pos_;
    }
    if (!digits)
      fail(line_, "expected a number, found " + text::quote(s_.substr(start, pos_ - start + 1)));
    return std::string(s_.substr(start, pos_ - start));
  }

  void skip_blank() {
    while (pos_ < s_.size()) {
      const char c = s_[pos_];
      if (c == '\n') {
        ++line_;
        ++pos_;
        at_line_start_ = true;
      } else if (text::is_space(c)) {
        ++pos_;
      } else if (c == '#' && at_line_start_) {
        // C preprocessor output lines, which Graphviz discards.
        while (pos_ < s_.size() && s_[pos_] != '\n') ++pos_;
      } else if (c == '/' && pos_ + 1 < s_.size() && s_[pos_ + 1] == '/') {
        while (pos_ < s_.size() && s_[pos_] != '\n') ++pos_;
      } else if (c == '/' && pos_ + 1 < s_.size() && s_[pos_ + 1] == '*') {
        const size_t start_line = line_;
        pos_ += 2;
        for (;;) {
          if (pos_ + 1 >= s_.size()) fail(start_line, "unterminated /* comment");
          if (s_[pos_] == '*' && s_[pos_ + 1] == '/') break;
          if (s_[pos_] == '\n') ++line_;
          ++pos_;
        }
        pos_ += 2;
      } else {
        at_line_start_ = false;
        return;
      }
    }
  }

  std::string quoted() {
    const size_t start_line = line_;
    ++pos_;
    std::string out;
    for (;;) {
      if (pos_ >= s_.size()) fail(start_line, "unterminated quoted string");
      const char c = s_[pos_++];
      if (c == '"') return out;
      if (c == '\n') ++line_;
      if (c == '\\' && pos_ < s_.size()) {
        if (s_[pos_] == '"') {
          out += '"';
          ++pos_;
          continue;
        }
        // "\\" stays two backslashes, as Graphviz reads it, and escapes no quote: "a\\" is
        // the id a\\ (closure's DOT output writes a label's \ so).
        if (s_[pos_] == '\\') {
          out += "\\\\";
          ++pos_;
          continue;
        }
        if (s_[pos_] == '\n') {  // line continuation
          ++line_;
          ++pos_;
          continue;
        }
      }
      out += c;
    }
  }

  std::string html() {
    const size_t start_line = line_;
    const size_t start = ++pos_;
    int depth = 1;
    while (depth > 0) {
      if (pos_ >= s_.size()) fail(start_line, "unterminated <...> HTML string");
      const char c = s_[pos_++];
      if (c == '<') ++depth;
      if (c == '>') --depth;
      if (c == '\n') ++line_;
    }
    return std::string(s_.substr(start, pos_ - 1 - start));
  }

  std::string_view s_;
  LineSource& src_;
  size_t pos_ = 0;
  size_t line_ = 1;
  bool at_line_start_ = true;
};

std::string describe(const Token& t) {
  switch (t.kind) {
    case Tok::kId:
      return text::quote(t.text);
    case Tok::kLBrace:
      return "'{'";
    case Tok::kRBrace:
      return "'}'";
    case Tok::kLBracket:
      return "'['";
    case Tok::kRBracket:
      return "']'";
    case Tok::kSemi:
      return "';'";
    case Tok::kComma:
      return "','";
    case Tok::kEq:
      return "'='";
    case Tok::kColon:
      return "':'";
    case Tok::kArrow:
      return "'->'";
    case Tok::kDash:
      return "'--'";
    case Tok::kEnd:
      return "end of file";
  }
  return "?";
}

class Parser {
 public:
  Parser(std::string_view text, LineSource& src) : lex_(text, src) { advance(); }

  ReadResult parse() {
    if (is_keyword("strict")) advance();
    if (is_keyword("digraph")) {
      directed_ = true;
    } else if (is_keyword("graph")) {
      directed_ = false;
    } else {
      fail("expected 'digraph' or 'graph', found " + describe(tok_));
    }
    advance();
    if (tok_.kind == Tok::kId) advance();  // the graph's name
    expect(Tok::kLBrace, "'{' to open the graph body");
    std::vector<vertex_t> members;
    statements(members);
    expect(Tok::kRBrace, "'}' to close the graph body");
    if (tok_.kind != Tok::kEnd)
      fail("expected end of file after the graph (one graph per file), found " + describe(tok_));
    const size_t n = labels_.size();
    return {Graph(n, std::move(edges_), labels_.take_labels()), InputFormat::kDot, records_};
  }

 private:
  void advance() { tok_ = lex_.next(); }
  bool is_keyword(std::string_view word) const {
    return tok_.kind == Tok::kId && tok_.keyword_ok && text::iequals(tok_.text, word);
  }
  bool at_any_keyword() const {
    return is_keyword("node") || is_keyword("edge") || is_keyword("graph") ||
           is_keyword("digraph") || is_keyword("subgraph") || is_keyword("strict");
  }
  [[noreturn]] void fail(const std::string& message) const { lex_.fail(tok_.line, message); }
  void expect(Tok kind, const char* what) {
    if (tok_.kind != kind) fail(std::string("expected ") + what + ", found " + describe(tok_));
    advance();
  }

  vertex_t vertex(const std::string& label) {
    const vertex_t v = labels_.intern(label);
    if (v == LabelMap::kFull) fail("more than " + std::to_string(kMaxVertices) + " vertices");
    return v;
  }

  // stmt_list up to (not including) the closing '}'; every vertex mentioned joins `members`,
  // which is what a subgraph contributes as an edge operand.
  void statements(std::vector<vertex_t>& members) {
    while (tok_.kind != Tok::kRBrace && tok_.kind != Tok::kEnd) {
      statement(members);
      if (tok_.kind == Tok::kSemi) advance();
    }
  }

  void statement(std::vector<vertex_t>& members) {
    if (is_keyword("graph") || is_keyword("node") || is_keyword("edge")) {
      advance();
      if (tok_.kind != Tok::kLBracket)
        fail("expected '[' after an attribute statement's keyword, found " + describe(tok_));
      attributes();
      return;
    }
    if (is_keyword("digraph") || is_keyword("strict"))
      fail("unexpected " + describe(tok_) + " inside a graph body");
    std::vector<vertex_t> left;
    if (tok_.kind == Tok::kId && !is_keyword("subgraph")) {
      Token id = tok_;
      advance();
      if (tok_.kind == Tok::kEq) {  // graph attribute: id = value
        advance();
        if (tok_.kind != Tok::kId) fail("expected a value after '=', found " + describe(tok_));
        advance();
        return;
      }
      port();
      left.push_back(vertex(id.text));
    } else if (tok_.kind == Tok::kLBrace || is_keyword("subgraph")) {
      subgraph(left);
    } else {
      fail("expected a node, edge, attribute or subgraph statement, found " + describe(tok_));
    }
    members.insert(members.end(), left.begin(), left.end());
    while (tok_.kind == Tok::kArrow || tok_.kind == Tok::kDash) {
      if (directed_ && tok_.kind == Tok::kDash)
        fail("'--' is the undirected edge operator; a digraph uses '->'");
      if (!directed_ && tok_.kind == Tok::kArrow)
        fail("'->' is the directed edge operator; an undirected graph uses '--'");
      advance();
      std::vector<vertex_t> right;
      if (tok_.kind == Tok::kId && !at_any_keyword()) {
        const std::string label = tok_.text;
        advance();
        port();
        right.push_back(vertex(label));
      } else if (tok_.kind == Tok::kLBrace || is_keyword("subgraph")) {
        subgraph(right);
      } else {
        fail("expected a node or subgraph after the edge operator, found " + describe(tok_));
      }
      for (vertex_t u : left)
        for (vertex_t v : right) {
          edges_.emplace_back(u, v);
          if (!directed_ && u != v) edges_.emplace_back(v, u);
          ++records_;
        }
      members.insert(members.end(), right.begin(), right.end());
      left = std::move(right);
    }
    if (tok_.kind == Tok::kLBracket) attributes();
  }

  void subgraph(std::vector<vertex_t>& members) {
    // Subgraphs recurse (statements -> subgraph -> statements); a bound on the depth keeps a
    // file of thousands of nested '{' from overflowing the stack. Real files nest a few levels.
    if (depth_ == kMaxSubgraphDepth)
      fail("subgraphs nested more than " + std::to_string(kMaxSubgraphDepth) +
           " levels deep: not supported");
    ++depth_;
    subgraph_body(members);
    --depth_;
  }

  void subgraph_body(std::vector<vertex_t>& members) {
    if (is_keyword("subgraph")) {
      advance();
      if (tok_.kind == Tok::kId && !at_any_keyword()) advance();
    }
    expect(Tok::kLBrace, "'{' to open the subgraph");
    std::vector<vertex_t> inside;
    statements(inside);
    expect(Tok::kRBrace, "'}' to close the subgraph");
    // A vertex mentioned twice inside is still one operand, not two parallel edges.
    std::sort(inside.begin(), inside.end());
    inside.erase(std::unique(inside.begin(), inside.end()), inside.end());
    members.insert(members.end(), inside.begin(), inside.end());
  }

  void port() {
    for (int k = 0; k < 2 && tok_.kind == Tok::kColon; ++k) {
      advance();
      if (tok_.kind != Tok::kId) fail("expected a port name after ':', found " + describe(tok_));
      advance();
    }
  }

  void attributes() {
    while (tok_.kind == Tok::kLBracket) {
      advance();
      while (tok_.kind != Tok::kRBracket) {
        if (tok_.kind != Tok::kId)
          fail("expected an attribute name or ']', found " + describe(tok_));
        advance();
        if (tok_.kind == Tok::kEq) {
          advance();
          if (tok_.kind != Tok::kId)
            fail("expected an attribute value after '=', found " + describe(tok_));
          advance();
        }
        if (tok_.kind == Tok::kSemi || tok_.kind == Tok::kComma) advance();
      }
      advance();
    }
  }

  static constexpr int kMaxSubgraphDepth = 256;

  Lexer lex_;
  Token tok_;
  int depth_ = 0;
  bool directed_ = true;
  LabelMap labels_{false};
  std::vector<Edge> edges_;
  size_t records_ = 0;
};

}  // namespace

ReadResult read_dot(LineSource& src) {
  // DOT statements span lines freely, so the parser works on the whole text.
  std::string text;
  std::string_view line;
  while (src.next(line)) {
    text.append(line);
    text.push_back('\n');
  }
  return Parser(text, src).parse();
}

}  // namespace closure::detail
