// Scans running text for the start of a scoring expression and hands each candidate to
// the X3 grammar; an expression starts only at a word boundary, so "box 2 points" gives
// 2 points and "Max2" gives nothing.
#include "extract/points.hpp"

#include <array>
#include <bit>
#include <cstdint>
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

// What the scan asks of a byte, one table for all (std::isalnum and the like in the "C"
// locale wikic runs in): it asks of every byte of every rule text.
enum : unsigned char {
  kAlnum = 1,      ///< ASCII letter or digit: no expression starts after one
  kWordChar = 2,   ///< letter or '-': the grammar's `word`
  kStartsAmount = 4,  ///< '(', a digit, '*' or the first byte of "×": the parser is tried
  kStartsWord = 8,    ///< a letter or '-': the parser is tried if word_may_start
};
constexpr std::array<unsigned char, 256> kByteClass = [] {
  std::array<unsigned char, 256> t{};
  for (int c = '0'; c <= '9'; ++c) t[c] = kAlnum | kStartsAmount;
  for (int c = 'a'; c <= 'z'; ++c) t[c] = kAlnum | kWordChar | kStartsWord;
  for (int c = 'A'; c <= 'Z'; ++c) t[c] = kAlnum | kWordChar | kStartsWord;
  t['-'] = kWordChar | kStartsWord;
  t['('] = t['*'] = t[0xC3] = kStartsAmount;
  return t;
}();
unsigned char byte_class(char c) { return kByteClass[static_cast<unsigned char>(c)]; }
bool is_word_char(char c) { return byte_class(c) & kWordChar; }

// Whether the grammar can match at `p`, which starts a word (a letter or '-'), judged
// without running it: apart from "Equal points to …" and "x2 points", an expression
// that starts with a word is `word spaces (token|point…)` (token_amount, whole), and the
// grammar's `word` and `spaces` are greedy. Running text is mostly words that are none,
// so this spares the parser almost every attempt. `letters_end` is set where the run of
// letters at `p` ends when the answer is no: no expression starts inside that run, and
// the scan goes on from there rather than reading the letters again.
bool word_may_start(const char* p, const char* end, const char*& letters_end) {
  if (*p == 'x' || *p == 'X' || *p == 'E') return true;
  const char* q = p;
  while (q < end && (byte_class(*q) & (kWordChar | kAlnum)) == (kWordChar | kAlnum)) ++q;  // letters
  letters_end = q > p ? q : p + 1;  // after a '-' the next byte is a boundary
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

// Whether [p, e) holds no tab, newline or return and no two spaces in a row: then an
// expression is copied as written. Eight bytes a step while the only bytes at or below
// ' ' in them are single spaces (a clause is words and spaces); from the first block
// with anything else, byte by byte.
bool tidy_as_written(const char* p, const char* e) {
  const char* q = p;
  if constexpr (std::endian::native == std::endian::little) {
    constexpr std::uint64_t ones = 0x0101010101010101ull, low7 = 0x7F7F7F7F7F7F7F7Full;
    std::uint64_t previous = 0;  // 0x80: the byte before the block was a space
    for (; e - q >= 8; q += 8) {
      std::uint64_t x;
      std::memcpy(&x, q, 8);
      const std::uint64_t low = ~(((x & low7) + ones * (0x80 - 0x21)) | x) & ~low7;  // bytes below 0x21
      if (!low) {
        previous = 0;
        continue;
      }
      const std::uint64_t y = x ^ (ones * ' ');
      const std::uint64_t spaces = ~(((y & low7) + low7) | y) & ~low7;
      if (low != spaces) break;  // a control byte: read byte by byte below
      // Byte k of the text is bits 8k..8k+7: a shift by 8 moves each byte's mark onto
      // the byte after it.
      if (spaces & ((spaces << 8) | previous)) return false;
      previous = spaces >> 63 << 7;
    }
    if (q > p) --q;  // the last byte read may start a pair with the next
  }
  for (; q < e; ++q) {
    const auto c = static_cast<unsigned char>(*q);
    if (c > ' ') continue;
    if (c == '\t' || c == '\n' || c == '\r' || (c == ' ' && q + 1 < e && q[1] == ' ')) return false;
  }
  return true;
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
  // One for every candidate (parse_points clears it), and kept from text to text: a per
  // clause is often longer than a string holds inline, and a fresh one per text made its
  // string again for each rule's search.
  thread_local grammar::PointsExpression e;
  thread_local std::string key;  // a basis's key in `bases`, its room kept from one to the next
  for (const char* p = begin; p <= limit;) {
    bool boundary = p == begin || !(byte_class(p[-1]) & kAlnum);
    if (!boundary) {
      // Nothing starts after a letter or digit: not here, not in the rest of this run of
      // letters and digits, not at the byte after it. Passed in one step, not byte by byte.
      while (p <= limit && (byte_class(*p) & kAlnum)) ++p;
      ++p;
      continue;
    }
    const unsigned char kind = byte_class(*p);
    const char* letters_end = p + 1;
    if ((kind & kStartsAmount) || ((kind & kStartsWord) && word_may_start(p, end, letters_end))) {
      const char* it = p;
      const std::string* basis = nullptr;  // the vocabulary's word for e.basis, when it has one
      bool parsed = grammar::parse_points(it, end, e);
      bool known = true;
      if (parsed && !e.basis.empty()) {
        key.assign(e.basis_form);
        key += ':';
        // ASCII lower case, as std::tolower in the "C" locale wikic runs in (the grammar's
        // `word` is letters and hyphens), without a call per letter.
        for (char ch : e.basis) key += ch >= 'A' && ch <= 'Z' ? static_cast<char>(ch - 'A' + 'a') : ch;
        auto found = bases.find(key);
        known = found != bases.end();
        if (known) basis = &found->second;
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
        // Most expressions have no quantity, basis or rounding: those stay the empty
        // SharedText they were built with, without a call.
        if (!e.quantity.empty()) pts.quantity = interned(e.quantity);
        if (basis) pts.basis = interned(*basis);
        pts.per = interned(e.per);
        if (!e.rounding.empty()) pts.rounding = interned(e.rounding);
        // As written, with each run of whitespace one space: the runs of a cell meet as
        // they were written ("2 points / " and " where …"), and a line break is one too.
        // The whitespace a clause ends with is no part of it (the clause reads on over
        // the blanks before a cell's end): an expression tidy up to there is copied whole.
        const char* last = it;
        while (last > p && (last[-1] == ' ' || last[-1] == '\t' || last[-1] == '\n' || last[-1] == '\r')) --last;
        const bool tidy = tidy_as_written(p, last);
        std::string_view written;
        std::string tidied;
        if (tidy) {
          written = std::string_view(p, static_cast<std::size_t>(last - p));  // the usual expression
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
        pts.length = static_cast<std::size_t>(last - p);
        p = it;
        continue;
      }
      ++p;
      continue;
    }
    // Past a word that starts none (after its first letter, each byte of it follows a
    // letter), or one byte on.
    p = letters_end;
  }
}

}  // namespace wikic::extract
