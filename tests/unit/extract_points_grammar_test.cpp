// Unit tests of grammar/points: the per clause's own primitive (per_clause) against the
// X3 reading it stands for (`+per_char`), on every short string of the bytes that matter
// to it and on longer random ones, so that each boundary and each end of input is met.
#include <doctest/doctest.h>

#include <random>
#include <string>
#include <vector>

#include "grammar/points_def.hpp"

namespace {
namespace x3 = boost::spirit::x3;
namespace pd = wikic::grammar::points_detail;

// How many bytes of `s` each reading takes (-1: it fails).
long reference_length(const std::string& s) {
  const char* it = s.data();
  if (!x3::parse(it, s.data() + s.size(), +pd::per_char)) return -1;
  return it - s.data();
}
long clause_length(const std::string& s) {
  const char* it = s.data();
  if (!x3::parse(it, s.data() + s.size(), pd::per_clause)) return -1;
  return it - s.data();
}

// The pieces a clause's boundaries are made of: blanks (a no-break space's two bytes
// among them), signs, multipliers in all spellings, a full stop, digits, a parenthesis,
// the bytes that end a clause, and letters (a capital one too: per_clause passes a space
// before a letter other than 'x' or 'X' without asking per_end).
const std::vector<std::string> kPieces = {" ", "\t", "\xC2", "\xA0", "+", "-", "\xE2\x88\x92", "*", "\xC3\x97",
                                          "x", "X", ".", "1", "(", ",", "\n", "a", "Q", "<"};
}  // namespace

TEST_CASE("per_clause takes what +per_char takes, on every string of up to four pieces") {
  std::vector<std::string> level = {""};
  std::size_t checked = 0;
  for (int length = 1; length <= 4; ++length) {
    std::vector<std::string> next;
    for (const std::string& s : level)
      for (const std::string& p : kPieces) next.push_back(s + p);
    for (const std::string& s : next) {
      // As a clause at the end of the text, and with a letter after it.
      for (const std::string& t : {s, s + "a"}) {
        if (reference_length(t) != clause_length(t)) {
          CHECK_MESSAGE(false, "'" << t << "': " << reference_length(t) << " vs " << clause_length(t));
        }
        ++checked;
      }
    }
    level = std::move(next);
  }
  CHECK(checked > 100000);
}

TEST_CASE("per_clause takes what +per_char takes, on longer random strings") {
  std::mt19937 random(20240517);
  std::uniform_int_distribution<std::size_t> piece(0, kPieces.size() - 1), size(1, 16);
  for (int i = 0; i < 20000; ++i) {
    std::string s;
    for (std::size_t n = size(random); n > 0; --n) s += kPieces[piece(random)];
    if (reference_length(s) != clause_length(s)) {
      CHECK_MESSAGE(false, "'" << s << "': " << reference_length(s) << " vs " << clause_length(s));
    }
  }
}

TEST_CASE("per_clause ends where the clause does") {
  CHECK(clause_length("tile + 1 point") == 4);
  CHECK(clause_length("tile - (2) points") == 4);
  CHECK(clause_length("tile x2") == 4);
  CHECK(clause_length("tile \xC3\x97" "2") == 4);
  CHECK(clause_length("acrobat tile. The") == 12);
  CHECK(clause_length("acrobat tile.") == 12);
  CHECK(clause_length("2.5 tiles") == 9);
  CHECK(clause_length("road segment\nin colour") == 12);
  CHECK(clause_length("tile +") == 6);  // a sign with no term after it is part of the clause
  CHECK(clause_length(",") == -1);
  CHECK(clause_length("") == -1);
}
