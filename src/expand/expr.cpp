// ParserFunctions' expression evaluator, re-implemented: the same tokenizer, the same
// shunting-yard loop with the same precedences and error points, over PHP-typed
// numbers so results print exactly as MediaWiki prints them.
#include "expand/expr.hpp"

#include "support/html.hpp"

#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <limits>
#include <optional>
#include <vector>

namespace wikic::expand {

namespace {

enum class Op {
  negative, positive, plus, minus, times, divide, mod, open, close, and_, or_, not_, equality,
  less, greater, lesseq, greatereq, noteq, round, exponent, sine, cosine, tangens, arcsine,
  arccos, arctan, exp, ln, abs, floor, trunc, ceil, pow, pi, fmod, sqrt
};

// ExprParser::PRECEDENCE.
int precedence(Op op) {
  switch (op) {
  case Op::negative: case Op::positive: case Op::exponent: return 10;
  case Op::sine: case Op::cosine: case Op::tangens: case Op::arcsine: case Op::arccos:
  case Op::arctan: case Op::exp: case Op::ln: case Op::abs: case Op::floor: case Op::trunc:
  case Op::ceil: case Op::not_: case Op::sqrt: return 9;
  case Op::pow: return 8;
  case Op::times: case Op::divide: case Op::mod: case Op::fmod: return 7;
  case Op::plus: case Op::minus: return 6;
  case Op::round: return 5;
  case Op::equality: case Op::less: case Op::greater: case Op::lesseq: case Op::greatereq:
  case Op::noteq: return 4;
  case Op::and_: return 3;
  case Op::or_: return 2;
  case Op::pi: return 0;
  case Op::open: case Op::close: return -1;
  }
  return -1;
}

// ExprParser::NAMES, as they appear in error messages.
const char* name_of(Op op) {
  switch (op) {
  case Op::negative: case Op::minus: return "-";
  case Op::positive: case Op::plus: return "+";
  case Op::not_: return "not";
  case Op::times: return "*";
  case Op::divide: return "/";
  case Op::mod: return "mod";
  case Op::fmod: return "fmod";
  case Op::round: return "round";
  case Op::equality: return "=";
  case Op::less: return "<";
  case Op::greater: return ">";
  case Op::lesseq: return "<=";
  case Op::greatereq: return ">=";
  case Op::noteq: return "<>";
  case Op::and_: return "and";
  case Op::or_: return "or";
  case Op::exponent: return "e";
  case Op::sine: return "sin";
  case Op::cosine: return "cos";
  case Op::tangens: return "tan";
  case Op::arcsine: return "asin";
  case Op::arccos: return "acos";
  case Op::arctan: return "atan";
  case Op::ln: return "ln";
  case Op::exp: return "exp";
  case Op::abs: return "abs";
  case Op::floor: return "floor";
  case Op::trunc: return "trunc";
  case Op::ceil: return "ceil";
  case Op::pow: return "^";
  case Op::pi: return "pi";
  case Op::sqrt: return "sqrt";
  case Op::open: return "(";
  case Op::close: return ")";
  }
  return "?";
}

std::optional<Op> word_op(std::string_view w) {
  static const std::pair<std::string_view, Op> words[] = {
      {"mod", Op::mod}, {"fmod", Op::fmod}, {"and", Op::and_}, {"or", Op::or_}, {"not", Op::not_},
      {"round", Op::round}, {"div", Op::divide}, {"e", Op::exponent}, {"sin", Op::sine},
      {"cos", Op::cosine}, {"tan", Op::tangens}, {"asin", Op::arcsine}, {"acos", Op::arccos},
      {"atan", Op::arctan}, {"exp", Op::exp}, {"ln", Op::ln}, {"abs", Op::abs}, {"trunc", Op::trunc},
      {"floor", Op::floor}, {"ceil", Op::ceil}, {"pi", Op::pi}, {"sqrt", Op::sqrt}};
  for (const auto& [w2, op] : words)
    if (w == w2) return op;
  return std::nullopt;
}

/// The extension's messages (ParserFunctions i18n/en.json, pfunc_expr_*).
struct ExprError {
  std::string message;
};

ExprError missing_operand(Op op) { return {std::string("Expression error: Missing operand for ") + name_of(op) + "."}; }

constexpr std::size_t max_stack_size = 100;  // ExprParser::MAX_STACK_SIZE

PhpNumber php_add(PhpNumber a, PhpNumber b) {
  std::int64_t r;
  if (a.is_int && b.is_int && !__builtin_add_overflow(a.i, b.i, &r)) return PhpNumber::of_int(r);
  return PhpNumber::of_float(a.as_double() + b.as_double());
}
PhpNumber php_sub(PhpNumber a, PhpNumber b) {
  std::int64_t r;
  if (a.is_int && b.is_int && !__builtin_sub_overflow(a.i, b.i, &r)) return PhpNumber::of_int(r);
  return PhpNumber::of_float(a.as_double() - b.as_double());
}
PhpNumber php_mul(PhpNumber a, PhpNumber b) {
  std::int64_t r;
  if (a.is_int && b.is_int && !__builtin_mul_overflow(a.i, b.i, &r)) return PhpNumber::of_int(r);
  return PhpNumber::of_float(a.as_double() * b.as_double());
}
PhpNumber php_pow(PhpNumber a, PhpNumber b) {
  // PHP's pow(): integer result for int ** non-negative int while it does not overflow.
  if (a.is_int && b.is_int && b.i >= 0) {
    std::int64_t result = 1, base = a.i, e = b.i;
    bool overflow = false;
    while (e > 0 && !overflow) {
      if (e & 1) overflow |= __builtin_mul_overflow(result, base, &result);
      e >>= 1;
      if (e > 0) overflow |= __builtin_mul_overflow(base, base, &base);
    }
    if (!overflow) return PhpNumber::of_int(result);
  }
  return PhpNumber::of_float(std::pow(a.as_double(), b.as_double()));
}
int php_compare(PhpNumber a, PhpNumber b) {
  if (a.is_int && b.is_int) return (a.i > b.i) - (a.i < b.i);
  double x = a.as_double(), y = b.as_double();
  return (x > y) - (x < y);
}
std::int64_t to_int(PhpNumber n) { return n.is_int ? n.i : php_float_to_int(n.d); }

void do_operation(Op op, std::vector<PhpNumber>& stack) {
  auto need = [&](std::size_t n) {
    if (stack.size() < n) throw missing_operand(op);
  };
  auto pop = [&] {
    PhpNumber v = stack.back();
    stack.pop_back();
    return v;
  };
  auto unary_float = [&](double (*f)(double)) {
    need(1);
    stack.push_back(PhpNumber::of_float(f(pop().as_double())));
  };
  auto boolean = [](bool b) { return PhpNumber::of_int(b ? 1 : 0); };
  switch (op) {
  case Op::negative: {
    need(1);
    PhpNumber a = pop();
    if (a.is_int && a.i != std::numeric_limits<std::int64_t>::min()) stack.push_back(PhpNumber::of_int(-a.i));
    else stack.push_back(PhpNumber::of_float(-a.as_double()));
    break;
  }
  case Op::positive: need(1); break;
  case Op::times: { need(2); auto r = pop(), l = pop(); stack.push_back(php_mul(l, r)); break; }
  case Op::divide: {
    need(2);
    auto r = pop(), l = pop();
    if (!r.truthy()) throw ExprError{"Division by zero."};
    if (l.is_int && r.is_int && !(r.i == -1 && l.i == std::numeric_limits<std::int64_t>::min()) && l.i % r.i == 0)
      stack.push_back(PhpNumber::of_int(l.i / r.i));
    else
      stack.push_back(PhpNumber::of_float(l.as_double() / r.as_double()));
    break;
  }
  case Op::mod: {
    need(2);
    std::int64_t r = to_int(pop()), l = to_int(pop());
    if (r == 0) throw ExprError{"Division by zero."};
    stack.push_back(PhpNumber::of_int(r == -1 ? 0 : l % r));
    break;
  }
  case Op::fmod: {
    need(2);
    double r = pop().as_double(), l = pop().as_double();
    if (r == 0.0) throw ExprError{"Division by zero."};
    stack.push_back(PhpNumber::of_float(std::fmod(l, r)));
    break;
  }
  case Op::plus: { need(2); auto r = pop(), l = pop(); stack.push_back(php_add(l, r)); break; }
  case Op::minus: { need(2); auto r = pop(), l = pop(); stack.push_back(php_sub(l, r)); break; }
  case Op::and_: { need(2); auto r = pop(), l = pop(); stack.push_back(boolean(l.truthy() && r.truthy())); break; }
  case Op::or_: { need(2); auto r = pop(), l = pop(); stack.push_back(boolean(l.truthy() || r.truthy())); break; }
  case Op::equality: { need(2); auto r = pop(), l = pop(); stack.push_back(boolean(l.as_double() == r.as_double() && php_compare(l, r) == 0)); break; }
  case Op::noteq: { need(2); auto r = pop(), l = pop(); stack.push_back(boolean(!(l.as_double() == r.as_double() && php_compare(l, r) == 0))); break; }
  case Op::less: { need(2); auto r = pop(), l = pop(); stack.push_back(boolean(l.is_int && r.is_int ? l.i < r.i : l.as_double() < r.as_double())); break; }
  case Op::greater: { need(2); auto r = pop(), l = pop(); stack.push_back(boolean(l.is_int && r.is_int ? l.i > r.i : l.as_double() > r.as_double())); break; }
  case Op::lesseq: { need(2); auto r = pop(), l = pop(); stack.push_back(boolean(l.is_int && r.is_int ? l.i <= r.i : l.as_double() <= r.as_double())); break; }
  case Op::greatereq: { need(2); auto r = pop(), l = pop(); stack.push_back(boolean(l.is_int && r.is_int ? l.i >= r.i : l.as_double() >= r.as_double())); break; }
  case Op::not_: { need(1); stack.push_back(boolean(!pop().truthy())); break; }
  case Op::round: {
    need(2);
    std::int64_t digits = to_int(pop());
    double value = pop().as_double();
    int places = static_cast<int>(std::max<std::int64_t>(std::min<std::int64_t>(digits, 1 << 30), -(1 << 30)));
    stack.push_back(PhpNumber::of_float(php_round(value, places)));
    break;
  }
  case Op::exponent: { need(2); auto r = pop(), l = pop(); stack.push_back(php_mul(l, php_pow(PhpNumber::of_int(10), r))); break; }
  case Op::sine: unary_float([](double x) { return std::sin(x); }); break;
  case Op::cosine: unary_float([](double x) { return std::cos(x); }); break;
  case Op::tangens: unary_float([](double x) { return std::tan(x); }); break;
  case Op::arcsine:
  case Op::arccos: {
    need(1);
    double x = pop().as_double();
    if (x < -1 || x > 1) throw ExprError{std::string("Invalid argument for ") + name_of(op) + ": < -1 or > 1."};
    stack.push_back(PhpNumber::of_float(op == Op::arcsine ? std::asin(x) : std::acos(x)));
    break;
  }
  case Op::arctan: unary_float([](double x) { return std::atan(x); }); break;
  case Op::exp: unary_float([](double x) { return std::exp(x); }); break;
  case Op::ln: {
    need(1);
    double x = pop().as_double();
    if (x <= 0) throw ExprError{"Invalid argument for ln: <= 0."};
    stack.push_back(PhpNumber::of_float(std::log(x)));
    break;
  }
  case Op::abs: {
    need(1);
    PhpNumber a = pop();
    if (a.is_int && a.i != std::numeric_limits<std::int64_t>::min()) stack.push_back(PhpNumber::of_int(a.i < 0 ? -a.i : a.i));
    else stack.push_back(PhpNumber::of_float(std::fabs(a.as_double())));
    break;
  }
  case Op::floor: unary_float([](double x) { return std::floor(x); }); break;
  case Op::ceil: unary_float([](double x) { return std::ceil(x); }); break;
  case Op::trunc: { need(1); stack.push_back(PhpNumber::of_int(to_int(pop()))); break; }
  case Op::pow: { need(2); auto r = pop(), l = pop(); stack.push_back(php_pow(l, r)); break; }
  case Op::sqrt: {
    need(1);
    double result = std::sqrt(pop().as_double());
    if (std::isnan(result)) throw ExprError{"In sqrt: Result is not a number."};
    stack.push_back(PhpNumber::of_float(result));
    break;
  }
  case Op::pi: case Op::open: case Op::close: throw ExprError{"Expression error: Unknown error ()."};
  }
}

/// strtr() with ExprParser's replacement table: the entity and Unicode spellings of
/// < > and minus that editors type become operators.
std::string unescape_operators(std::string_view in) {
  std::string out;
  out.reserve(in.size());
  for (std::size_t p = 0; p < in.size();) {
    if (in.compare(p, 7, "&minus;") == 0) { out += '-'; p += 7; }
    else if (in.compare(p, 4, "&lt;") == 0) { out += '<'; p += 4; }
    else if (in.compare(p, 4, "&gt;") == 0) { out += '>'; p += 4; }
    else if (in.compare(p, 3, "\xE2\x88\x92") == 0) { out += '-'; p += 3; }
    else out += in[p++];
  }
  return out;
}

/// The first character of `rest` as UTF-8 (an invalid byte reads as U+FFFD, as
/// UtfNormal\Validator::cleanUp would make it).
std::string first_character(std::string_view rest) {
  auto c = static_cast<unsigned char>(rest[0]);
  std::size_t len = c < 0x80 ? 1 : (c >> 5) == 6 ? 2 : (c >> 4) == 14 ? 3 : (c >> 3) == 30 ? 4 : 0;
  if (len == 0 || len > rest.size()) return "\xEF\xBF\xBD";
  for (std::size_t k = 1; k < len; ++k)
    if ((static_cast<unsigned char>(rest[k]) & 0xC0) != 0x80) return "\xEF\xBF\xBD";
  return std::string(rest.substr(0, len));
}


bool is_white(char c) { return c == ' ' || c == '\t' || c == '\r' || c == '\n'; }
bool is_number_char(char c) { return (c >= '0' && c <= '9') || c == '.'; }
bool is_alpha(char c) { return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z'); }

std::vector<PhpNumber> evaluate(std::string_view expression) {
  std::string expr = unescape_operators(expression);
  std::vector<PhpNumber> operands;
  std::vector<Op> operators;
  bool expecting_expression = true;
  std::size_t p = 0, end = expr.size();
  auto reduce_while = [&](auto cond) {
    while (!operators.empty() && cond(operators.back())) {
      do_operation(operators.back(), operands);
      operators.pop_back();
    }
  };
  while (p < end) {
    if (operands.size() > max_stack_size || operators.size() > max_stack_size)
      throw ExprError{"Expression error: Stack exhausted."};
    char c = expr[p];
    std::string_view two = std::string_view(expr).substr(p, 2);
    Op op;
    std::string name;
    if (is_white(c)) {
      while (p < end && is_white(expr[p])) ++p;
      continue;
    } else if (is_number_char(c)) {
      if (!expecting_expression) throw ExprError{"Expression error: Unexpected number."};
      std::size_t len = 0;
      while (p + len < end && is_number_char(expr[p + len])) ++len;
      // PHP's (float) cast reads the longest numeric prefix: "1.2.3" is 1.2, "." is 0.
      std::string digits = expr.substr(p, len);
      operands.push_back(PhpNumber::of_float(std::strtod(digits.c_str(), nullptr)));
      p += len;
      expecting_expression = false;
      continue;
    } else if (is_alpha(c)) {
      std::size_t len = 0;
      while (p + len < end && is_alpha(expr[p + len])) ++len;
      std::string word = expr.substr(p, len);
      for (auto& ch : word) ch = static_cast<char>(std::tolower(static_cast<unsigned char>(ch)));
      p += len;
      auto found = word_op(word);
      if (!found) throw ExprError{"Expression error: Unrecognized word \"" + word + "\"."};
      op = *found;
      if (op == Op::exponent && expecting_expression) {
        operands.push_back(PhpNumber::of_float(std::exp(1.0)));
        expecting_expression = false;
        continue;
      }
      if (op == Op::pi) {
        if (!expecting_expression) throw ExprError{"Expression error: Unexpected number."};
        operands.push_back(PhpNumber::of_float(M_PI));
        expecting_expression = false;
        continue;
      }
      if (precedence(op) == 9) {  // the unary functions and not
        if (!expecting_expression) throw ExprError{"Expression error: Unexpected " + word + " operator."};
        operators.push_back(op);
        continue;
      }
      name = word;
    } else if (two == "<=") { name = "<="; op = Op::lesseq; p += 2; }
    else if (two == ">=") { name = ">="; op = Op::greatereq; p += 2; }
    else if (two == "<>" || two == "!=") { name = std::string(two); op = Op::noteq; p += 2; }
    else if (c == '+' || c == '-') {
      ++p;
      if (expecting_expression) {
        operators.push_back(c == '+' ? Op::positive : Op::negative);
        continue;
      }
      op = c == '+' ? Op::plus : Op::minus;
      // MediaWiki leaves the name of binary +/- unset here; it is never printed because
      // a binary operator is only reached when an operand precedes it.
    } else if (c == '*') { name = "*"; op = Op::times; ++p; }
    else if (c == '/') { name = "/"; op = Op::divide; ++p; }
    else if (c == '^') { name = "^"; op = Op::pow; ++p; }
    else if (c == '(') {
      if (!expecting_expression) throw ExprError{"Expression error: Unexpected ( operator."};
      operators.push_back(Op::open);
      ++p;
      continue;
    } else if (c == ')') {
      reduce_while([](Op o) { return o != Op::open; });
      if (operators.empty()) throw ExprError{"Expression error: Unexpected closing bracket."};
      operators.pop_back();
      expecting_expression = false;
      ++p;
      continue;
    } else if (c == '=') { name = "="; op = Op::equality; ++p; }
    else if (c == '<') { name = "<"; op = Op::less; ++p; }
    else if (c == '>') { name = ">"; op = Op::greater; ++p; }
    else {
      throw ExprError{"Expression error: Unrecognized punctuation character \"" +
                      first_character(std::string_view(expr).substr(p)) + "\"."};
    }
    if (expecting_expression) throw ExprError{"Expression error: Unexpected " + name + " operator."};
    int prec = precedence(op);
    reduce_while([&](Op o) { return prec <= precedence(o); });
    operators.push_back(op);
    expecting_expression = true;
  }
  while (!operators.empty()) {
    Op op = operators.back();
    operators.pop_back();
    if (op == Op::open) throw ExprError{"Expression error: Unclosed bracket."};
    do_operation(op, operands);
  }
  return operands;
}

}  // namespace

std::int64_t php_float_to_int(double value) {
  if (!std::isfinite(value)) return 0;
  if (value >= -9223372036854775808.0 && value < 9223372036854775808.0) return static_cast<std::int64_t>(value);
  // PHP 8 on 64-bit: out-of-range floats wrap modulo 2^64 (zend_dval_to_lval).
  double two64 = 18446744073709551616.0;
  double m = std::fmod(std::trunc(value), two64);
  if (m < 0) m += two64;
  return static_cast<std::int64_t>(static_cast<std::uint64_t>(m));
}

std::string php_float_to_string(double value) {
  if (std::isnan(value)) return "NAN";
  if (std::isinf(value)) return value > 0 ? "INF" : "-INF";
  if (value == 0) return std::signbit(value) ? "-0" : "0";
  // 14 significant digits, correctly rounded, as zend_gcvt(value, 14, '.', 'E').
  char buf[64];
  std::snprintf(buf, sizeof buf, "%.13e", value);
  std::string s(buf);
  bool negative = s[0] == '-';
  if (negative) s.erase(0, 1);
  std::size_t epos = s.find('e');
  int exponent = std::atoi(s.c_str() + epos + 1);
  std::string digits = s.substr(0, 1) + s.substr(2, epos - 2);
  while (digits.size() > 1 && digits.back() == '0') digits.pop_back();
  std::string out = negative ? "-" : "";
  if (exponent < -4 || exponent >= 14) {
    out += digits.substr(0, 1) + "." + (digits.size() > 1 ? digits.substr(1) : "0");
    out += exponent < 0 ? "E-" : "E+";
    out += std::to_string(exponent < 0 ? -exponent : exponent);
  } else if (exponent >= 0) {
    std::string integer = digits.substr(0, std::min<std::size_t>(digits.size(), exponent + 1));
    integer.append(static_cast<std::size_t>(exponent + 1) - integer.size(), '0');
    out += integer;
    if (digits.size() > static_cast<std::size_t>(exponent + 1)) out += "." + digits.substr(exponent + 1);
  } else {
    out += "0." + std::string(static_cast<std::size_t>(-exponent - 1), '0') + digits;
  }
  return out;
}

std::string php_number_to_string(const PhpNumber& n) {
  return n.is_int ? std::to_string(n.i) : php_float_to_string(n.d);
}

double php_round(double value, int places) {
  // PHP 8's _php_math_round: the scaled value is first rounded to the 15 significant
  // digits a double can hold, so 1.955 rounds to 1.96 as a reader expects.
  if (!std::isfinite(value) || value == 0.0) return value;
  auto round_half_away = [](double x) { return x >= 0.0 ? std::floor(x + 0.5) : std::ceil(x - 0.5); };
  auto pow10 = [](int p) { return std::pow(10.0, p); };
  int precision_places = 14 - static_cast<int>(std::floor(std::log10(std::fabs(value))));
  double f1 = pow10(std::abs(places));
  double tmp;
  if (precision_places > places && precision_places - 15 < places) {
    int use_precision = precision_places < -4 * 15 ? -4 * 15 : precision_places;
    tmp = use_precision >= 0 ? value * pow10(use_precision) : value / pow10(-use_precision);
    tmp = round_half_away(tmp);
    use_precision = places - use_precision;
    if (use_precision < -4 * 15) use_precision = -4 * 15;
    tmp = tmp / pow10(std::abs(use_precision));
  } else {
    tmp = places >= 0 ? value * f1 : value / f1;
    if (std::fabs(tmp) >= 1e15) return value;
  }
  tmp = round_half_away(tmp);
  if (std::abs(places) < 23) {
    tmp = places > 0 ? tmp / f1 : tmp * f1;
  } else {
    char buf[64];
    std::snprintf(buf, sizeof buf, "%15fe%d", tmp, -places);
    double parsed = std::strtod(buf, nullptr);
    if (!std::isfinite(parsed)) return value;
    tmp = parsed;
  }
  return tmp;
}

ExprResult evaluate_expr(std::string_view expression) {
  try {
    auto operands = evaluate(expression);
    std::string out;
    for (std::size_t i = 0; i < operands.size(); ++i) {
      if (i > 0) out += "<br />\n";
      out += php_number_to_string(operands[i]);
    }
    return {true, out};
  } catch (const ExprError& e) {
    return {false, e.message};
  }
}

std::string expr_function(std::string_view expression) {
  auto r = evaluate_expr(expression);
  return r.ok ? r.text : "<strong class=\"error\">" + support::html_escape(r.text, true) + "</strong>";
}

bool ifexpr_test(std::string_view expression, std::string& error) {
  auto r = evaluate_expr(expression);
  if (!r.ok) {
    error = "<strong class=\"error\">" + support::html_escape(r.text, true) + "</strong>";
    return false;
  }
  error.clear();
  // ParserFunctions::ifexpr: a numeric result is compared as a float, anything else
  // (several operands, "INF", "NAN") by PHP string truthiness.
  const std::string& s = r.text;
  char* endp = nullptr;
  double v = std::strtod(s.c_str(), &endp);
  bool numeric = !s.empty() && endp == s.c_str() + s.size() && s != "INF" && s != "-INF" && s != "NAN";
  if (numeric) return v != 0.0;
  return !(s.empty() || s == "0");
}

}  // namespace wikic::expand
