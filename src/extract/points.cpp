// Scans running text for the start of a scoring expression and hands each candidate to
// the X3 grammar; an expression starts only at a word boundary, so "box 2 points" gives
// 2 points and "Max2" gives nothing.
#include "extract/points.hpp"

#include <cctype>
#include <cstring>
#include <stdexcept>
#include <yaml-cpp/yaml.h>

#include "extract/schema_file.hpp"
#include "grammar/points.hpp"
#include "select/probe_table.hpp"
#include "support/embedded.hpp"

namespace wikic::extract {

const YAML::Node& extract_schema() {
  static const YAML::Node schema = [] {
    auto bytes = support::embedded_file("extract.yaml");
    if (!bytes) throw std::logic_error("schema/extract.yaml is not embedded");
    return YAML::Load(std::string(*bytes));
  }();
  return schema;
}

const char* to_string(PointsOp op) {
  switch (op) {
  case PointsOp::add: return "add";
  case PointsOp::multiply: return "multiply";
  case PointsOp::fraction: return "fraction";
  case PointsOp::fixed: return "fixed";
  }
  return "fixed";
}

const PointBases& point_bases() {
  static const PointBases bases = [] {
    const YAML::Node& y = extract_schema();
    PointBases out;
    for (const auto& b : y["point_bases"])
      out.emplace(b["form"].as<std::string>() + ":" + b["words"].as<std::string>(), b["basis"].as<std::string>());
    return out;
  }();
  return bases;
}

namespace {

bool is_word_char(char c) { return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c == '-'; }

// std::isdigit/isalpha/isalnum in the "C" locale wikic runs in, inline: the scan asks
// them of every byte of every rule text.
bool ascii_digit(unsigned char c) { return c >= '0' && c <= '9'; }
bool ascii_alpha(unsigned char c) { return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z'); }
bool ascii_alnum(unsigned char c) { return ascii_digit(c) || ascii_alpha(c); }

// Whether the grammar can match at `p`, which starts a word (a letter or '-'), judged
// without running it: apart from "Equal points to …" and "x2 points", an expression
// that starts with a word is `word spaces (token|point…)` (token_amount, whole), and the
// grammar's `word` and `spaces` are greedy. Running text is mostly words that are none,
// so this spares the parser almost every attempt.
bool word_may_start(const char* p, const char* end) {
  if (*p == 'x' || *p == 'X' || *p == 'E') return true;
  const char* q = p;
  while (q < end && is_word_char(*q)) ++q;
  if (q == end || *q != ' ') return false;
  while (q < end && *q == ' ') ++q;
  std::string_view rest(q, static_cast<std::size_t>(end - q));
  return rest.starts_with("token") || rest.starts_with("point");
}

// The words of expressions repeat across a page and from page to page ("2 points",
// "tile", "up"): each is one SharedText, shared by every Points that has it. Per thread,
// and bounded (emptied when full), as extraction's other run-wide memos are.
SharedText interned(std::string_view s) {
  if (s.empty()) return SharedText();
  thread_local select::ProbeTable<SharedText> table(4096);
  const std::uint64_t h = text_hash(s);
  if (SharedText* t = table.find(h, [s](const SharedText& e) { return e.view() == s; })) return *t;
  return table.insert(h, SharedText(s));
}

// text.rfind("point"), found by memrchr's 'p' (string_view::rfind compared the word at
// every byte from the end).
std::size_t last_point_in(std::string_view text) {
  if (text.size() < 5) return std::string_view::npos;
  const char* data = text.data();
  std::size_t searched = text.size() - 4;  // a "point" may start at [0, size - 5]
  while (searched > 0) {
    const void* hit = memrchr(data, 'p', searched);
    if (!hit) break;
    const auto at = static_cast<std::size_t>(static_cast<const char*>(hit) - data);
    if (std::memcmp(data + at + 1, "oint", 4) == 0) return at;
    searched = at;
  }
  return std::string_view::npos;
}

}  // namespace

std::vector<Points> find_points(std::string_view text, const PointBases& bases) {
  std::vector<Points> out;
  find_points(text, out, bases);
  return out;
}

void find_points(std::string_view text, std::vector<Points>& out, const PointBases& bases) {
  // Every form of the grammar holds the word "point" (points_expression: the unit), so
  // no expression starts after its last occurrence: the scan stops there.
  std::size_t last_point = last_point_in(text);
  if (last_point == std::string_view::npos) return;
  const char* begin = text.data();
  const char* end = begin + text.size();
  const char* limit = begin + last_point;
  for (const char* p = begin; p <= limit;) {
    auto c = static_cast<unsigned char>(*p);
    bool boundary = p == begin || !ascii_alnum(static_cast<unsigned char>(p[-1]));
    if (!boundary) {
      // Nothing starts after a letter or digit: not here, not in the rest of this run of
      // letters and digits, not at the byte after it. Passed in one step, not byte by byte.
      while (p <= limit && ascii_alnum(static_cast<unsigned char>(*p))) ++p;
      ++p;
      continue;
    }
    bool can_start = c == '(' || ascii_digit(c) || ascii_alpha(c) || c == 0xC3 || c == '*' || c == '-';
    if (can_start && (c == '(' || ascii_digit(c) || c == 0xC3 || c == '*' || word_may_start(p, end))) {
      const char* it = p;
      grammar::PointsExpression e;
      std::string basis;
      bool parsed = grammar::parse_points(it, end, e);
      bool known = true;
      if (parsed && !e.basis.empty()) {
        std::string key(e.basis_form);
        key += ':';
        for (char ch : e.basis) key += static_cast<char>(std::tolower(static_cast<unsigned char>(ch)));
        auto found = bases.find(key);
        known = found != bases.end();
        if (known) basis = found->second;
      }
      if (parsed && known) {
        // Built where it stays: a Points is five strings, each move of it five moves.
        Points& pts = out.emplace_back();
        pts.op = e.op == "add" ? PointsOp::add
                 : e.op == "multiply" ? PointsOp::multiply
                 : e.op == "fraction" ? PointsOp::fraction
                                      : PointsOp::fixed;
        pts.value = e.value;
        pts.denominator = e.denominator;
        pts.quantity = interned(e.quantity);
        pts.basis = interned(basis);
        pts.per = interned(e.per);
        pts.rounding = interned(e.rounding);
        // As written, with each run of whitespace one space: the runs of a cell meet as
        // they were written ("2 points / " and " where …"), and a line break is one too.
        bool tidy = true;
        // (A byte above ' ' is none of them: one comparison passes the letters.)
        for (const char* q = p; q < it && tidy; ++q)
          tidy = static_cast<unsigned char>(*q) > ' ' ||
                 !(*q == '\t' || *q == '\n' || *q == '\r' || (*q == ' ' && q + 1 < it && q[1] == ' '));
        std::string_view written;
        std::string tidied;
        if (tidy) {
          written = std::string_view(p, static_cast<std::size_t>(it - p));  // the usual expression: copied whole
        } else {
          for (const char* q = p; q < it; ++q) {
            bool space = *q == ' ' || *q == '\t' || *q == '\n' || *q == '\r';
            if (!space) tidied += *q;
            else if (!tidied.empty() && tidied.back() != ' ') tidied += ' ';
          }
          written = tidied;
        }
        while (!written.empty() && written.back() == ' ') written.remove_suffix(1);
        pts.text = interned(written);
        pts.offset = static_cast<std::size_t>(p - begin);
        const char* last = it;
        while (last > p && (last[-1] == ' ' || last[-1] == '\t' || last[-1] == '\n' || last[-1] == '\r')) --last;
        pts.length = static_cast<std::size_t>(last - p);
        p = it;
        continue;
      }
    }
    ++p;
  }
}

}  // namespace wikic::extract
