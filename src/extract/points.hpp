// Scoring expressions found in a rule's text: "(+1) point / tile" is add 1 per tile,
// "×2 points" multiply by 2, "1/2 points (rounded up)" a fraction rounded up, "16 points"
// a fixed amount, "(+number on bathhouse) points" adds a named quantity, "1/2 primary
// points" takes half of another score (its basis). The grammar is grammar/points; this
// layer finds every expression in running text and names bases from schema/extract.yaml.
#pragma once
#include <functional>
#include <map>
#include <string>
#include <string_view>
#include <vector>

#include "extract/shared_text.hpp"

namespace wikic::extract {

enum class PointsOp { add, multiply, fraction, fixed };

const char* to_string(PointsOp op);

struct Points {
  PointsOp op = PointsOp::fixed;
  double value = 0;        ///< the amount (numerator of a fraction); -1 for a subtracted quantity
  double denominator = 1;  ///< fractions only
  // The words are SharedText: a rule's points entries copy the expressions that one
  // search of its text found, and a page repeats its rules texts.
  SharedText quantity;     ///< a named amount instead of a number ("number on bathhouse")
  /// The score the amount is taken from, when it is not the rule's own: "primary" (the
  /// robber's 1/2 of the primary points scored), "feature" (the teacher's equal points),
  /// "after-the-game" (what a feature would score after the game); "" otherwise.
  SharedText basis;
  SharedText per;          ///< what each amount is counted for ("tile"), or ""
  SharedText rounding;     ///< "up", "down" or ""
  SharedText text;         ///< the expression as found
  std::size_t offset = 0;  ///< where in the searched text
  std::size_t length = 0;  ///< how many bytes of it the expression spans (`text` is tidied)
};

/// Words that name a basis, keyed "form:words" (form as grammar::PointsExpression's
/// basis_form, words lower-case: "amount:primary"), each → the basis it names.
using PointBases = std::map<std::string, std::string, std::less<>>;

/// The vocabulary of schema/extract.yaml `point_bases`.
const PointBases& point_bases();

/// Every scoring expression in `text` (plain text: markup already reduced), in order.
/// An expression whose basis words are not in `bases` is not one: the text around it
/// stays unparsed rather than guessed.
std::vector<Points> find_points(std::string_view text, const PointBases& bases = point_bases());
/// The same expressions appended to `out`: a caller searching many texts keeps one buffer.
void find_points(std::string_view text, std::vector<Points>& out, const PointBases& bases = point_bases());

}  // namespace wikic::extract
