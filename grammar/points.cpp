// The one translation unit that instantiates the scoring-expression rule for `const
// char*` input without a skipper. X3 expectation failures cannot occur (the rule uses
// no `>` expectations), so no exception crosses this boundary.
#include "grammar/points_def.hpp"

namespace wikic::grammar {

BOOST_SPIRIT_INSTANTIATE(PointsExpressionRule, const char*, x3::unused_type)

const PointsExpressionRule& points_expression() { return points_expression_rule; }

bool parse_points(const char*& first, const char* last, PointsExpression& out) {
  // Field by field, so that a caller parsing many candidates into one PointsExpression
  // keeps its strings' room (a per clause is often longer than a string holds inline).
  out.op = {};
  out.value = 0;
  out.denominator = 1;
  out.quantity.clear();
  out.basis.clear();
  out.basis_form = {};
  out.per.clear();
  out.rounding = {};
  const char* it = first;
  if (!x3::parse(it, last, points_expression_rule, out)) return false;
  first = it;
  return true;
}

}  // namespace wikic::grammar
