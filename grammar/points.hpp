// Declarations of the X3 rule for WICA's scoring expressions, the text of a rules cell
// such as "(+1) point / tile", "×2 points", "1/2 points (rounded up)",
// "(+number on bathhouse) points / bathhouse", "1/2 primary points scored (rounded up)",
// "Equal points to feature scoring". The extract stage turns the result into the `points`
// field of a rule.
#pragma once
#include <boost/spirit/home/x3.hpp>
#include <string>
#include <string_view>

namespace wikic::grammar {
namespace x3 = boost::spirit::x3;

/// One scoring expression as written.
struct PointsExpression {
  /// "add" (+n, -n, +quantity, -quantity), "multiply" (×n, xn), "fraction" (n/m), "fixed"
  /// (n). This and the other words the grammar names itself (basis_form, rounding) view
  /// its literals: no string of their own per expression.
  std::string_view op;
  double value = 0;  ///< with a quantity: 0 when it is added, -1 when it is subtracted
  double denominator = 1;
  std::string quantity;  ///< a named amount: "number on bathhouse", "Animal token"
  /// The words naming the score the amount is taken from, as written: "primary" in
  /// "1/2 primary points", "feature scoring" in "Equal points to feature scoring",
  /// "After-the-game" in "After-the-game points". The extract stage accepts only the
  /// words its vocabulary knows (schema/extract.yaml `point_bases`).
  std::string basis;
  /// Where the basis words stood: "amount" (between a number and "points"), "equal"
  /// ("Equal points to …"), "whole" (alone before "points": all of that score).
  std::string_view basis_form;
  std::string per;       ///< "tile", "ghost added to player's …" (after '/', "per", "for each")
  std::string_view rounding;  ///< "up", "down" or ""
};

struct PointsExpressionClass;
using PointsExpressionRule = x3::rule<PointsExpressionClass, PointsExpression>;
BOOST_SPIRIT_DECLARE(PointsExpressionRule)

const PointsExpressionRule& points_expression();

/// Parses one expression at `first` (no skipper); on success `first` is past it.
bool parse_points(const char*& first, const char* last, PointsExpression& out);

}  // namespace wikic::grammar
