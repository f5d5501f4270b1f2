// Unit tests of grammar/points: the primitives that stand for X3 readings (per_text for
// `+per_char`, number for `&char_('0', '9') >> double_`) against those readings, on every
// short string of the bytes that matter to them and on longer random ones, so that each
// boundary and each end of input is met.
#include <doctest/doctest.h>

#include <cstring>
#include <random>
#include <string>
#include <vector>

#include "grammar/points_def.hpp"

namespace {
namespace x3 = boost::spirit::x3;
namespace pd = wikic::grammar::points_detail;

// What a per clause reading gives for `s`: the bytes it takes (-1: it fails) and
// whether they are single-spaced (no tab, no blank first, no two spaces in a row),
// which spares set_per its closing up.
struct PerReading {
  long length = -1;
  bool single_spaced = true;
  bool operator==(const PerReading& o) const {
    return length == o.length && (length < 0 || single_spaced == o.single_spaced);
  }
};
// `+per_char`, with the spacing told from the bytes it took.
PerReading reference_per(const std::string& s) {
  PerReading r;
  const char* it = s.data();
  if (!x3::parse(it, s.data() + s.size(), +pd::per_char)) return r;
  r.length = it - s.data();
  const std::string clause(s.data(), it);
  r.single_spaced =
      clause.find('\t') == std::string::npos && clause.find("  ") == std::string::npos && clause.front() != ' ';
  return r;
}
PerReading own_per(const std::string& s) {
  PerReading r;
  pd::PerClauseText text;
  const char* it = s.data();
  if (!x3::parse(it, s.data() + s.size(), pd::per_text, text)) return r;
  r.length = it - s.data();
  // The clause per_text hands set_per is the bytes it took.
  if (text.first != s.data() || text.last != it) CHECK_MESSAGE(false, "'" << s << "': clause is not the bytes taken");
  r.single_spaced = text.single_spaced;
  return r;
}
long clause_length(const std::string& s) { return own_per(s).length; }

void check_per(const std::string& s) {
  const PerReading a = reference_per(s), b = own_per(s);
  if (!(a == b)) {
    CHECK_MESSAGE(false, "'" << s << "': " << a.length << " " << a.single_spaced << " vs " << b.length << " "
                                 << b.single_spaced);
  }
}

// The pieces a clause's boundaries are made of: blanks (a no-break space's two bytes
// among them), signs, multipliers in all spellings, a full stop, digits, a parenthesis,
// the bytes that end a clause, and letters (a capital one too: per_text passes a space
// before a letter other than 'x' or 'X' without asking per_end).
const std::vector<std::string> kPieces = {" ", "\t", "\xC2", "\xA0", "+", "-", "\xE2\x88\x92", "*", "\xC3\x97",
                                          "x", "X", ".", "1", "(", ",", "\n", "a", "Q", "<"};

// Calls `check` with every string of one to `longest` of `pieces`, shorter ones first.
template <class Check>
void for_each_string(const std::vector<std::string>& pieces, int longest, Check check) {
  std::vector<std::string> level = {""};
  for (int length = 1; length <= longest; ++length) {
    std::vector<std::string> next;
    for (const std::string& s : level)
      for (const std::string& p : pieces) next.push_back(s + p);
    for (const std::string& s : next) check(s);
    level = std::move(next);
  }
}
}  // namespace

TEST_CASE("per_text takes what +per_char takes, on every string of up to four pieces") {
  std::size_t checked = 0;
  for_each_string(kPieces, 4, [&](const std::string& s) {
    // As a clause at the end of the text, and with a letter after it.
    for (const std::string& t : {s, s + "a"}) {
      check_per(t);
      ++checked;
    }
  });
  CHECK(checked > 100000);
}

TEST_CASE("per_text takes what +per_char takes, on longer random strings") {
  std::mt19937 random(20240517);
  std::uniform_int_distribution<std::size_t> piece(0, kPieces.size() - 1), size(1, 16);
  for (int i = 0; i < 20000; ++i) {
    std::string s;
    for (std::size_t n = size(random); n > 0; --n) s += kPieces[piece(random)];
    check_per(s);
  }
}

TEST_CASE("per_text ends where the clause does") {
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

namespace {
// What a number reading gives for `s`: the bytes it takes (-1: it fails) and the value.
struct NumberReading {
  long length = -1;
  double value = 0;
  bool operator==(const NumberReading& o) const {
    // The value bit for bit: the rules database prints what the grammar read.
    return length == o.length && (length < 0 || std::memcmp(&value, &o.value, sizeof value) == 0);
  }
};
template <class Parser>
NumberReading read_number(const Parser& parser, const std::string& s) {
  NumberReading r;
  const char* it = s.data();
  if (x3::parse(it, s.data() + s.size(), parser, r.value)) r.length = it - s.data();
  return r;
}
NumberReading reference_number(const std::string& s) {
  return read_number(&x3::char_('0', '9') >> x3::double_, s);
}
NumberReading own_number(const std::string& s) { return read_number(pd::number, s); }

void check_number(const std::string& s) {
  const NumberReading a = reference_number(s), b = own_number(s);
  if (!(a == b)) {
    CHECK_MESSAGE(false, "'" << s << "': " << a.length << " " << a.value << " vs " << b.length << " " << b.value);
  }
}

// The bytes a number's reading turns on: digits (a zero among them), the full stop, an
// exponent's letters and signs, a comma (no decimal mark to double_), "inf"'s first letter.
const std::vector<std::string> kNumberPieces = {"0", "1", "7", "9", ".", "e", "E", "+", "-", ",", "i", " "};
}  // namespace

TEST_CASE("number reads what &char_('0', '9') >> double_ reads, on every string of up to five pieces") {
  std::size_t checked = 0;
  for_each_string(kNumberPieces, 5, [&](const std::string& s) {
    check_number(s);
    ++checked;
  });
  CHECK(checked > 200000);
}

TEST_CASE("number reads what &char_('0', '9') >> double_ reads, on long digit runs and fractions") {
  std::mt19937 random(20240518);
  std::uniform_int_distribution<int> digit(0, 9), size(1, 24);
  for (int i = 0; i < 20000; ++i) {
    std::string s;
    for (int n = size(random); n > 0; --n) s += static_cast<char>('0' + digit(random));
    if (i % 2) s.insert(s.begin() + static_cast<long>(static_cast<std::size_t>(i) % s.size()), '.');
    if (i % 3 == 0) s += " points";
    check_number(s);
  }
  // Around the digits a double holds exactly (the primitive's own reading ends at 15).
  for (const char* s : {"999999999999999", "9999999999999999", "99999999999999999", "9007199254740993",
                        "12345678901234.5", "1234567890123.45", "0.000000000000001", "0.0000000000000001",
                        "2.675", "0.1", "1.15", "3.3", "1e2", "1e", "1e+", "1e-2", "1.e3", "1.", "00.50",
                        "1E400", "1e-400"})
    check_number(s);
  check_number(std::string(400, '9'));
}

TEST_CASE("number's edges") {
  CHECK(own_number("2 points") == NumberReading{1, 2});
  CHECK(own_number("1.5") == NumberReading{3, 1.5});
  CHECK(own_number("2.") == NumberReading{2, 2});   // the full stop is taken
  CHECK(own_number("2,5") == NumberReading{1, 2});  // a comma is no decimal mark
  CHECK(own_number("1e2 points") == NumberReading{3, 100});
  CHECK(own_number("1e points") == NumberReading{1, 1});
  CHECK(own_number(".5").length == -1);  // a number starts with a digit
  CHECK(own_number("inf").length == -1);
  CHECK(own_number("").length == -1);
}
