// Scoring expressions found in a rule's text: "(+1) point / tile" is add 1 per tile,
// "×2 points" multiply by 2, "1/2 points (rounded up)" a fraction rounded up, "16 points"
// a fixed amount, "(+number on bathhouse) points" adds a named quantity. The grammar is
// grammar/points; this layer finds every expression in running text.
#pragma once
#include <string>
#include <string_view>
#include <vector>

namespace wikic::extract {

enum class PointsOp { add, multiply, fraction, fixed };

const char* to_string(PointsOp op);

struct Points {
  PointsOp op = PointsOp::fixed;
  double value = 0;        ///< the amount (numerator of a fraction); -1 for a subtracted quantity
  double denominator = 1;  ///< fractions only
  std::string quantity;    ///< a named amount instead of a number ("number on bathhouse")
  std::string per;         ///< what each amount is counted for ("tile"), or ""
  std::string rounding;    ///< "up", "down" or ""
  std::string text;        ///< the expression as found
  std::size_t offset = 0;  ///< where in the searched text
};

/// Every scoring expression in `text` (plain text: markup already reduced), in order.
std::vector<Points> find_points(std::string_view text);

}  // namespace wikic::extract
