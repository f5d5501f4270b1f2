// Definition of the scoring-expression rule. An amount (signed, multiplied, a fraction
// or a plain number), optionally a word naming the score it is taken from, the word
// "point(s)", then optionally what it counts per and how it rounds; or an amount named
// by words alone ("Equal points to feature scoring", "After-the-game points", "Animal
// token points"). Actions write into the rule's own attribute, so the alternatives need
// no Fusion adaptation.
#pragma once
#include <array>
#include <cstdint>
#include <iterator>
#include <string_view>
#include <type_traits>
#include <string>

#include "grammar/points.hpp"

namespace wikic::grammar {

namespace points_detail {
// `blank` is `omit[*char_(" \t\xC2\xA0")]` read by a primitive of its own: every
// expression passes several of them (before the unit, "scored", the per clause and the
// rounding), and X3 spent a kleene step and a character set test on each byte.
struct blank_parser : x3::parser<blank_parser> {
  using attribute_type = x3::unused_type;
  static bool const has_attribute = false;

  /// ' ', '\t' and the two bytes of a no-break space: one load a byte, not four tests.
  /// per_text's look for per_end skips blanks by this table too.
  static constexpr std::array<bool, 256> blanks = [] {
    std::array<bool, 256> b{};
    for (unsigned char c : std::string_view(" \t\xC2\xA0")) b[c] = true;
    return b;
  }();

  template <class Iterator, class Context, class RContext, class Attribute>
  bool parse(Iterator& first, Iterator const& last, Context const& context, RContext&, Attribute&) const {
    x3::skip_over(first, last, context);
    while (first != last && blanks[static_cast<unsigned char>(*first)]) ++first;
    return true;
  }
};
const blank_parser blank{};
// `number` is `&x3::char_('0', '9') >> x3::double_` read by a primitive of its own: a
// number starts with a digit (x3::double_ alone also reads "inf" and "nan", and the scan
// tries words too). WICA writes a few digits, sometimes with a fraction ("1.5"), and
// x3::double_'s general reading cost more than the rest of a short expression. Those
// are read here, with the value double_ gives them (the digits as one exact integer,
// scaled by double_'s own scale); an exponent or more digits than a double holds exactly
// go to double_ itself. (extract_points_grammar_test holds the two equal.)
struct number_parser : x3::parser<number_parser> {
  using attribute_type = double;
  static bool const has_attribute = true;
  /// Up to this many digits the integer they spell is exact in a double (10^15 < 2^53),
  /// whatever order double_ accumulates them in.
  static constexpr int kExactDigits = 15;

  template <class Iterator, class Context, class RContext, class Attribute>
  bool parse(Iterator& first, Iterator const& last, Context const& context, RContext& rcontext, Attribute& attr) const {
    static_assert(std::is_same_v<Iterator, const char*>, "the expression is read from bytes in memory");
    x3::skip_over(first, last, context);
    auto digit_at = [last](const char* q) { return q != last && *q >= '0' && *q <= '9'; };
    const char* it = first;
    if (!digit_at(it)) return false;
    std::uint64_t digits = 0;  // integer and fraction digits as one integer, as double_ reads them
    int count = 0;
    for (; digit_at(it); ++it, ++count) digits = digits * 10 + static_cast<unsigned>(*it - '0');
    int fraction = 0;
    // A full stop is taken even with no digits after it ("2." reads as 2, as double_ does).
    if (it != last && *it == '.')
      for (++it; digit_at(it); ++it, ++fraction) digits = digits * 10 + static_cast<unsigned>(*it - '0');
    if (count + fraction > kExactDigits || (it != last && (*it == 'e' || *it == 'E'))) {
      // double_ may fail having read on (an exponent out of range): the number then takes nothing.
      const char* general = first;
      if (!x3::double_.parse(general, last, context, rcontext, attr)) return false;
      first = general;
      return true;
    }
    double value = static_cast<double>(digits);
    if (fraction > 0) x3::extension::scale(-fraction, value);
    x3::traits::move_to(value, attr);
    first = it;
    return true;
  }
};
const number_parser number{};
// ×, x, X, * all mean "times" on WICA; × is U+00D7 in UTF-8.
const auto times = x3::lit("\xC3\x97") | x3::lit('x') | x3::lit('X') | x3::lit('*');
// A minus may be typed as U+2212.
const auto minus = x3::lit('-') | x3::lit("\xE2\x88\x92");
// Letters and hyphens: "primary", "After-the-game".
const auto word = +x3::char_("a-zA-Z-");
const auto spaces = +x3::lit(' ');

const auto set_op = [](const char* op) { return [op](auto& ctx) { x3::_val(ctx).op = op; }; };
const auto set_value = [](auto& ctx) { x3::_val(ctx).value = x3::_attr(ctx); };
const auto negate_value = [](auto& ctx) { x3::_val(ctx).value = -x3::_attr(ctx); };
const auto set_negative = [](auto& ctx) { x3::_val(ctx).value = -1; };
const auto set_denominator = [](auto& ctx) { x3::_val(ctx).denominator = x3::_attr(ctx); };
const auto set_quantity = [](auto& ctx) {
  auto& r = x3::_attr(ctx);
  std::string& q = x3::_val(ctx).quantity;
  q.assign(r.begin(), r.end());
  while (!q.empty() && q.back() == ' ') q.pop_back();
};
// What per_text reads: the clause, and whether its blanks are single spaces between
// words (no tab, no run of blanks, no blank first), so that it is kept as written.
struct PerClauseText {
  const char* first = nullptr;
  const char* last = nullptr;
  bool single_spaced = true;
};
// Runs of blanks inside the clause become one space: a cell's text runs are joined as
// written, so "tile " and " in the city" meet as "tile  in the city".
// Copied whole, then closed up in place when per_text saw a blank to close up (most
// clauses have single spaces only).
const auto set_per = [](auto& ctx) {
  const PerClauseText& r = x3::_attr(ctx);
  std::string& p = x3::_val(ctx).per;
  p.assign(r.first, r.last);
  char* const out = p.data();
  std::size_t n = p.size();
  if (!r.single_spaced) {
    // Up to the first blank that is a tab or follows a blank (or starts the clause),
    // nothing moves.
    for (n = 0; n < p.size(); ++n) {
      const auto c = static_cast<unsigned char>(out[n]);
      if (c > ' ') continue;
      if (c == '\t' || (c == ' ' && (n == 0 || out[n - 1] == ' '))) break;
    }
    for (std::size_t i = n; i < p.size(); ++i) {
      const char c = out[i];
      const bool blank_char = c == ' ' || c == '\t';
      if (blank_char && (n == 0 || out[n - 1] == ' ')) continue;
      out[n++] = blank_char ? ' ' : c;
    }
  }
  while (n > 0 && out[n - 1] == ' ') --n;
  p.resize(n);
};
const auto set_one = [](auto& ctx) { x3::_val(ctx).value = 1; };
const auto set_basis = [](const char* form) {
  return [form](auto& ctx) {
    auto& r = x3::_attr(ctx);
    x3::_val(ctx).basis.assign(r.begin(), r.end());
    x3::_val(ctx).basis_form = form;
  };
};
const auto set_rounding = [](const char* how) { return [how](auto& ctx) { x3::_val(ctx).rounding = how; }; };

const auto quantity = x3::raw[x3::char_("a-zA-Z") >> *(~x3::char_(")"))];
const auto signed_amount =
    x3::lit('(') >> blank >>
    ((x3::lit('+') >> blank >> number[set_value][set_op("add")]) |
     (minus >> blank >> number[negate_value][set_op("add")]) |
     (times >> blank >> number[set_value][set_op("multiply")]) |
     (x3::lit('+') >> blank >> quantity[set_quantity][set_op("add")]) |
     // "(-number on bathhouse) points": the quantity is subtracted (value -1).
     (minus >> blank >> quantity[set_quantity][set_op("add")][set_negative]) |
     // "(#correct signpost types) points": an unsigned quantity, written as a count.
     x3::raw[x3::lit('#') >> +(~x3::char_(")"))][set_quantity][set_op("add")]) >>
    blank >> x3::lit(')');
const auto multiplied = times >> blank >> number[set_value][set_op("multiply")];
// A fraction ("1/2") or a fixed amount ("16"): the number is read once, and a fraction
// is a fixed amount with a denominator after it (as `fraction | fixed` would read it,
// with the number read again when no denominator follows).
const auto fraction_or_fixed =
    number[set_value][set_op("fixed")] >> -(x3::lit('/') >> number[set_denominator][set_op("fraction")]);
const auto amount = signed_amount | multiplied | fraction_or_fixed;
// `"points" | "point"`, with "point" read once.
const auto unit = x3::lit("point") >> -x3::lit('s');
// "1/2 primary points": one word between the amount and "points" names the score the
// amount is taken from. Tried after the plain unit, so "2 points" never sets a basis.
const auto qualified_unit = unit | (!unit >> x3::raw[word][set_basis("amount")] >> spaces >> unit);
// "points scored (rounded up)": the participle changes nothing.
const auto scored = -(blank >> x3::lit("scored"));
// "Equal points to feature scoring": as many points as the named score.
const auto equal = (x3::lit("Equal") >> spaces >> unit >> spaces >> x3::lit("to") >> spaces >>
                    x3::raw[word >> *(spaces >> word)][set_basis("equal")])[set_op("multiply")][set_one];
// "Animal token points / follower": the number the token shows.
const auto token_amount = x3::raw[word >> spaces >> x3::lit("token")][set_quantity][set_op("add")] >> spaces >> unit;
// "After-the-game points": all of the named score, no amount.
const auto whole = x3::raw[word][set_basis("whole")][set_op("multiply")][set_one] >> spaces >> unit;
// What the points count: up to the end of the clause. The clause ends before the next
// term of a sum ("coat of arms + 1 point / knight", " - 2 points", " - (number …)"),
// before a multiplier (" x2", "×2"), at a sentence end (a full stop before a blank or
// the end) and at a line break (extract turns `<br>` into one).
const auto digit = x3::char_('0', '9');
const auto next_term = (blank >> x3::lit('+') >> blank >> (digit | x3::lit('('))) |
                       (spaces >> minus >> blank >> (digit | x3::lit('('))) |
                       (blank >> (x3::lit("\xC3\x97") | x3::lit('*')) >> blank >> digit) |
                       (spaces >> (x3::lit('x') | x3::lit('X')) >> blank >> digit);
const auto sentence_end = x3::lit('.') >> (x3::eoi | x3::char_(" \t\n"));
const auto per_end = next_term | sentence_end;
const auto per_word = x3::lit('/') | x3::lit("per ") | x3::lit("for each ");
// The clause itself is `+per_char`: every boundary starts at a blank, '+', '*' or '.',
// so other bytes are taken without trying per_end (most of a clause is letters).
const auto per_plain = ~x3::char_(",;()\n<| \t+*.");
const auto per_char = per_plain | (!per_end >> ~x3::char_(",;()\n<|"));
// per_text reads `+per_char` by a primitive of its own: the clause is most of an
// expression's bytes, and X3 spent a character set test, an alternative and a kleene
// step on each. It gives set_per the clause's bytes and whether they are single-spaced
// (set_per then copies them as they are). (extract_points_grammar_test holds it equal
// to `+per_char`.)
struct per_text_parser : x3::parser<per_text_parser> {
  using attribute_type = PerClauseText;
  static bool const has_attribute = true;

  enum : unsigned char { kTaken = 0, kStop = 1, kMaybeEnd = 2 };
  /// What each byte does to the clause: kStop for ",;()\n<|", kMaybeEnd for " \t+*."
  /// (taken unless per_end matches there), kTaken for every other byte.
  static constexpr std::array<unsigned char, 256> kinds = [] {
    std::array<unsigned char, 256> k{};
    for (unsigned char c : std::string_view(",;()\n<|")) k[c] = kStop;
    for (unsigned char c : std::string_view(" \t+*.")) k[c] = kMaybeEnd;
    return k;
  }();
  static bool digit_byte(char c) { return c >= '0' && c <= '9'; }
  /// A letter or digit that no alternative of per_end starts with after its blanks.
  static bool plain_word_start(char c) {
    const char lower = static_cast<char>(c | 0x20);
    return (lower >= 'a' && lower <= 'z' && lower != 'x') || digit_byte(c);
  }
  /// per_end at `p`, which holds one of " \t+*.", as the rules above read it (greedy
  /// blanks and spaces, no backtracking into them). The byte after the blanks at `p`
  /// names the one alternative that can match: most clauses have only spaces before
  /// words, which that byte rules out.
  static bool per_end_at(const char* p, const char* last) {
    if (*p == '.') return p + 1 == last || p[1] == ' ' || p[1] == '\t' || p[1] == '\n';  // sentence_end
    // `blank`'s own bytes, read from its table.
    auto skip_blank = [last](const char* q) {
      while (q != last && blank_parser::blanks[static_cast<unsigned char>(*q)]) ++q;
      return q;
    };
    const char* b = skip_blank(p);
    if (b == last) return false;
    // `spaces` before the byte: one or more ' ' and nothing else (a tab or a no-break
    // space's byte would stand where the alternative needs its sign).
    auto only_spaces = [p, b] {
      if (*p != ' ') return false;
      for (const char* q = p; q != b; ++q)
        if (*q != ' ') return false;
      return true;
    };
    auto digit_after = [&](const char* q, bool or_parenthesis) {
      q = skip_blank(q);
      return q != last && (digit_byte(*q) || (or_parenthesis && *q == '('));
    };
    switch (*b) {
      case '+':  // blank '+' blank (digit | '(')
        return digit_after(b + 1, true);
      case '*':  // blank ("\xC3\x97" | '*') blank digit
        return digit_after(b + 1, false);
      case '\xC3':
        return last - b >= 2 && b[1] == '\x97' && digit_after(b + 2, false);
      case '-':  // spaces minus blank (digit | '(')
        return only_spaces() && digit_after(b + 1, true);
      case '\xE2':
        return last - b >= 3 && b[1] == '\x88' && b[2] == '\x92' && only_spaces() && digit_after(b + 3, true);
      case 'x':  // spaces ('x' | 'X') blank digit
      case 'X':
        return only_spaces() && digit_after(b + 1, false);
      default:
        return false;
    }
  }

  /// Where the clause from `first` ends, and whether it has a blank set_per closes up
  /// (a tab, or a space first or after a space), both in one pass.
  static const char* clause_end(const char* first, const char* last, bool& single_spaced) {
    const char* it = first;
    for (; it != last; ++it) {
      const unsigned char kind = kinds[static_cast<unsigned char>(*it)];
      if (kind == kTaken) continue;
      if (kind == kStop) break;
      const bool irregular_blank = *it == '\t' || (*it == ' ' && (it == first || it[-1] == ' '));
      // A single space before a word: per_end_at finds no alternative there (only 'x'
      // and 'X' among letters start one), and most of a clause's spaces are that.
      if (*it == ' ' && last - it >= 2 && plain_word_start(it[1])) {
        if (irregular_blank) single_spaced = false;
        continue;
      }
      if (per_end_at(it, last)) break;
      if (irregular_blank) single_spaced = false;
    }
    return it;
  }

  template <class Iterator, class Context, class RContext>
  bool parse(Iterator& first, Iterator const& last, Context const& context, RContext&, PerClauseText& attr) const {
    static_assert(std::is_same_v<Iterator, const char*>, "the clause is read from bytes in memory");
    x3::skip_over(first, last, context);
    bool single_spaced = true;
    const char* it = clause_end(first, last, single_spaced);
    if (it == first) return false;
    attr = PerClauseText{first, it, single_spaced};
    first = it;
    return true;
  }
};
const per_text_parser per_text{};
const auto per = blank >> per_word >> blank >> per_text[set_per];
const auto rounding = blank >> x3::lit('(') >> blank >> x3::lit("rounded") >> blank >>
                      (x3::lit("up")[set_rounding("up")] | x3::lit("down")[set_rounding("down")]) >> blank >> x3::lit(')');
}  // namespace points_detail

const PointsExpressionRule points_expression_rule = "points_expression";

const auto points_expression_rule_def =
    ((points_detail::amount >> points_detail::blank >> points_detail::qualified_unit) | points_detail::equal |
     points_detail::token_amount | points_detail::whole) >>
    points_detail::scored >> -points_detail::per >> -points_detail::rounding;

BOOST_SPIRIT_DEFINE(points_expression_rule)

}  // namespace wikic::grammar
