// Unit tests of src/extract: scoring expressions as WICA writes them.
#include <doctest/doctest.h>

#include "extract/points.hpp"

using namespace wikic::extract;

namespace {
Points only(std::string_view text) {
  auto all = find_points(text);
  REQUIRE_MESSAGE(all.size() == 1, "expressions in '" << text << "': " << all.size());
  return all[0];
}
}  // namespace

TEST_CASE("the scoring expressions named in the rule-database issue") {
  auto p = only("(+1) point / tile");
  CHECK(p.op == PointsOp::add);
  CHECK(p.value == 1);
  CHECK(p.per == "tile");

  p = only("\xC3\x97" "2 points");
  CHECK(p.op == PointsOp::multiply);
  CHECK(p.value == 2);
  CHECK(p.per.empty());

  p = only("1/2 points (rounded up)");
  CHECK(p.op == PointsOp::fraction);
  CHECK(p.value == 1);
  CHECK(p.denominator == 2);
  CHECK(p.rounding == "up");

  p = only("(-3) points");
  CHECK(p.op == PointsOp::add);
  CHECK(p.value == -3);

  p = only("16 points");
  CHECK(p.op == PointsOp::fixed);
  CHECK(p.value == 16);

  p = only("(x0) points / tile");
  CHECK(p.op == PointsOp::multiply);
  CHECK(p.value == 0);
  CHECK(p.per == "tile");

  p = only("(+number on bathhouse) points / bathhouse");
  CHECK(p.op == PointsOp::add);
  CHECK(p.quantity == "number on bathhouse");
  CHECK(p.value == 0);
  CHECK(p.per == "bathhouse");

  // The seed's bathhouse row subtracts the same quantity from the other player.
  p = only("(-number on bathhouse) points / bathhouse");
  CHECK(p.op == PointsOp::add);
  CHECK(p.quantity == "number on bathhouse");
  CHECK(p.value == -1);
  CHECK(p.per == "bathhouse");
  p = only("(\xE2\x88\x92 number on bathhouse) points");
  CHECK(p.quantity == "number on bathhouse");
  CHECK(p.value == -1);
  // A minus before a number is still a number.
  p = only("(-3) points");
  CHECK(p.quantity.empty());
  CHECK(p.value == -3);
}

TEST_CASE("expressions in running text from the seed page") {
  auto all = find_points("(-2) points / ghost added to player's supply, 3 points / feature scored");
  REQUIRE(all.size() == 2);
  CHECK(all[0].value == -2);
  CHECK(all[0].per == "ghost added to player's supply");
  CHECK(all[1].op == PointsOp::fixed);
  CHECK(all[1].per == "feature scored");
  CHECK(all[1].offset == 46);

  auto each = only("2 points for each knight in the city");
  CHECK(each.per == "knight in the city");
  auto per = only("1 point per tile in the square space");
  CHECK(per.per == "tile in the square space");
  auto minus = only("(\xE2\x88\x92" "4) points");
  CHECK(minus.value == -4);
  CHECK(only("(x2) points for affected city").op == PointsOp::multiply);
}

TEST_CASE("per ends where the clause does") {
  auto all = find_points("1 point / coat of arms + 1 point / knight");
  REQUIRE(all.size() == 2);
  CHECK(all[0].per == "coat of arms");
  CHECK(all[0].text == "1 point / coat of arms");
  CHECK(all[1].per == "knight");
  all = find_points("3 points / tile - 1 point / pennant");
  REQUIRE(all.size() == 2);
  CHECK(all[0].per == "tile");
  all = find_points("2 points / tile -2 points");
  REQUIRE(all.size() == 2);
  CHECK(all[0].per == "tile");
  all = find_points("1 point / tile x2 points");
  REQUIRE(all.size() == 2);
  CHECK(all[0].per == "tile");
  CHECK(all[1].op == PointsOp::multiply);
  CHECK(only("1 point / tile \xC3\x97" "2 for cathedrals").per == "tile");
  CHECK(only("2 points / acrobat tile. The ringmaster scores.").per == "acrobat tile");
  CHECK(only("2 points / acrobat tile.").per == "acrobat tile");
  CHECK(only("1 point / road segment\nin colour").per == "road segment");
  // Not boundaries: a decimal point, a hyphen inside a word, an x inside a word.
  CHECK(only("1 point per 2.5 tiles").per == "2.5 tiles");
  CHECK(only("1 point / after-the-game tile").per == "after-the-game tile");
  CHECK(only("1 point / tax 2 paid").per == "tax 2 paid");
  // Blanks where two runs met are one space, in per and text alike.
  auto joined = only("2 points /  tile   in the city");
  CHECK(joined.per == "tile in the city");
  CHECK(joined.text == "2 points / tile in the city");
  CHECK(joined.length == std::string_view("2 points /  tile   in the city").size());
}

TEST_CASE("text that is not a scoring expression") {
  CHECK(find_points("Max2 points").empty());
  CHECK(find_points("no points here").empty());
  // Words the basis vocabulary (schema/extract.yaml point_bases) does not know are not
  // guessed at: neither between an amount and "points" nor standing alone.
  CHECK(find_points("2 bonus points").empty());
  CHECK(find_points("Equal points to the best road").empty());
  CHECK(find_points("Bonus points").empty());
  CHECK(find_points("the primary points").empty());
  // Numbers start with a digit: x3's double_ would read these words.
  CHECK(find_points("inf points").empty());
  CHECK(find_points("nan point").empty());
  CHECK(find_points("").empty());
  CHECK(find_points("(+) points").empty());
}

TEST_CASE("scoring text in other scripts is read without tripping the grammar") {
  // French and Czech rules cells: every byte above 0x7F reaches the number's first test.
  CHECK(find_points("\xC3\xA9valuation \xC3\xA0 la fin").empty());
  CHECK(find_points("\xC4\x8Cty\xC5\x99i body").empty());
  CHECK(only("\xC3\x89gal: 2 points / tuile").value == 2);
}

TEST_CASE("amounts taken from another score keep that score as their basis") {
  // The robber's row of the seed: half of the primary points its counting figure scored.
  auto p = only("1/2 primary points scored (rounded up)");
  CHECK(p.op == PointsOp::fraction);
  CHECK(p.value == 1);
  CHECK(p.denominator == 2);
  CHECK(p.basis == "primary");
  CHECK(p.rounding == "up");
  CHECK(p.text == "1/2 primary points scored (rounded up)");
  CHECK(only("2 points").basis.empty());

  // The teacher's rows: as many points as the feature's scoring.
  p = only("Equal points to feature scoring");
  CHECK(p.op == PointsOp::multiply);
  CHECK(p.value == 1);
  CHECK(p.basis == "feature");

  // Messages tiles: all of what the feature would score after the game.
  p = only("After-the-game points from road with at least one of player's meeples and the lowest scoring");
  CHECK(p.op == PointsOp::multiply);
  CHECK(p.value == 1);
  CHECK(p.basis == "after-the-game");
  CHECK(p.text == "After-the-game points");

  // A vocabulary passed in replaces the schema's.
  PointBases mine{{"amount:bonus", "bonus"}};
  auto all = find_points("2 bonus points, 1/2 primary points", mine);
  REQUIRE(all.size() == 1);
  CHECK(all[0].basis == "bonus");
  CHECK(all[0].value == 2);
}

TEST_CASE("named quantities without a sign") {
  auto p = only("Animal token points / meeple");
  CHECK(p.op == PointsOp::add);
  CHECK(p.quantity == "Animal token");
  CHECK(p.per == "meeple");
  CHECK(p.basis.empty());
  CHECK(only("Fruit token points").quantity == "Fruit token");

  p = only("(#correct signpost types) points / signpost in correct direction");
  CHECK(p.op == PointsOp::add);
  CHECK(p.quantity == "#correct signpost types");
  CHECK(p.value == 0);
  CHECK(p.per == "signpost in correct direction");
  CHECK(find_points("(#) points").empty());
}

TEST_CASE("the scan tries the grammar only where a word can start an expression") {
  // Words start an expression only as `word spaces token|point…`, "Equal points to …"
  // or a times sign ("x2"); the scan skips every other word without parsing it.
  auto p = only("then After-the-game   points");
  CHECK(p.text == "After-the-game points");  // blanks tidied; `length` spans them
  CHECK(p.length == std::string_view("After-the-game   points").size());
  CHECK(p.basis == "after-the-game");
  CHECK(p.offset == 5);

  p = only("the x2 points");
  CHECK(p.op == PointsOp::multiply);
  CHECK(p.value == 2);
  p = only("X3 points per tile");
  CHECK(p.value == 3);
  CHECK(p.per == "tile");

  // `spaces` is spaces only: a tab before "points" or "token" ends the word run.
  CHECK(find_points("Fruit token\tpoints").empty());
  CHECK(find_points("Fruit\ttoken points").empty());
  p = only("Fruit  token points");
  CHECK(p.quantity == "Fruit  token");

  // A leading hyphen belongs to the word, whose basis is then unknown; the expression
  // starts after it.
  p = only("-After-the-game points");
  CHECK(p.offset == 1);
  CHECK(p.text == "After-the-game points");

  auto all = find_points("Animal token points / meeple, Equal points to feature scoring, 2 points, "
                         "pointless words, tokens and points");
  REQUIRE(all.size() == 3);
  CHECK(all[0].quantity == "Animal token");
  CHECK(all[1].basis == "feature");
  CHECK(all[2].value == 2);
}

TEST_CASE("an expression's text is tidied wherever its blanks fall") {
  // The check for blanks to tidy reads eight bytes a step: two spaces, a tab or a line
  // break at each place relative to those steps, a pair of spaces across two of them, and
  // a text as written, must each read as one space between words.
  for (std::size_t at = 0; at <= 24; ++at) {
    const std::string words = std::string(at, 'a');
    for (const char* end : {"c in it", "c"}) {  // the blanks in a full step, or the last bytes
      for (const char* blank : {"  ", "\t", " \t ", "   "}) {
        const std::string raw = "2 points / b" + words + blank + end;
        INFO("'" << raw << "'");
        const Points p = only(raw);
        CHECK(p.text == "2 points / b" + words + " " + end);
        CHECK(p.length == raw.size());
      }
      const std::string plain = "2 points / b" + words + " " + end;
      CHECK(only(plain).text == plain);
    }
  }
  // A control byte other than those is copied as written, and the check goes on past it.
  CHECK(only("2 points / tile\x01 in  it").text == "2 points / tile\x01 in it");
  CHECK(only("2 points / tile\x01 in it").text == "2 points / tile\x01 in it");
}

TEST_CASE("the blanks a clause ends with are no part of an expression's text") {
  // The per clause reads on over the blanks before the end of a cell; the check for blanks
  // to tidy stops where they start, at each place relative to its eight-byte steps, and a
  // blank to tidy before them is still tidied.
  for (std::size_t at = 0; at <= 20; ++at) {
    const std::string words = "b" + std::string(at, 'a');
    for (const char* trailing : {" ", "    ", "\t", " \n", "\r\n", " \t  "}) {
      const std::string raw = "2 points / " + words + trailing;
      INFO("'" << raw << "'");
      Points p = only(raw);
      CHECK(p.text == "2 points / " + words);
      CHECK(p.length == raw.size() - std::string_view(trailing).size());
      p = only("2 points /  " + words + trailing);
      CHECK(p.text == "2 points / " + words);
    }
  }
}
