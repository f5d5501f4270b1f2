// {{#expr:}} and {{#ifexpr:}} arithmetic with the semantics of the ParserFunctions
// extension (ExprParser::doExpression, MediaWiki 1.39): its shunting-yard operator
// precedences, PHP's int/float arithmetic, PHP's round() and PHP's float-to-string
// conversion at precision 14, and its error messages word for word.
#pragma once
#include <cstdint>
#include <string>
#include <string_view>

namespace wikic::expand {

/// A PHP number: ExprParser's operands are PHP ints or floats, and which one matters
/// for how the result prints (an int prints all its digits, a float 14 significant).
struct PhpNumber {
  bool is_int = false;
  std::int64_t i = 0;
  double d = 0;
  static PhpNumber of_int(std::int64_t v) { return {true, v, 0}; }
  static PhpNumber of_float(double v) { return {false, 0, v}; }
  double as_double() const { return is_int ? static_cast<double>(i) : d; }
  bool truthy() const { return is_int ? i != 0 : d != 0.0; }
};

struct ExprResult {
  bool ok = true;
  std::string text;  ///< the result as MediaWiki prints it, or the error message text
};

/// Evaluates an expression; on error, `text` is the extension's English message
/// (e.g. `Expression error: Unrecognized word "foo".`), not yet HTML-escaped.
ExprResult evaluate_expr(std::string_view expression);

/// What `{{#expr:}}` returns for `expression`: the result, or the error message wrapped
/// as `<strong class="error">…</strong>` with PHP's htmlspecialchars escaping.
std::string expr_function(std::string_view expression);

/// `{{#ifexpr:}}`'s test: nullopt-like error text in `error` when the expression fails.
bool ifexpr_test(std::string_view expression, std::string& error);

/// PHP's (string) of a float at the default precision 14 ("1.0E+20", "0.33333333333333").
std::string php_float_to_string(double value);
std::string php_number_to_string(const PhpNumber& n);
/// PHP 8's round($value, $places) with its pre-rounding to 15 significant digits.
double php_round(double value, int places);
/// PHP 8's (int) cast of a float: truncation, modular outside the int64 range, 0 for NaN/INF.
std::int64_t php_float_to_int(double value);

}  // namespace wikic::expand
