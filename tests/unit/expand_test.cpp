// Unit tests of src/expand: the #expr evaluator against MediaWiki's own answers
// (corpus/expand/expr.txt, filled by scripts/regen-expr-oracle.sh), PHP number
// printing and rounding, and #ifexpr truthiness.
#include <doctest/doctest.h>

#include "expand/expr.hpp"
#include "util/run.hpp"

using namespace wikic::expand;

TEST_CASE("#expr agrees with MediaWiki 1.39 on every oracle case") {
  std::ifstream in(wikic::test::source_path("corpus/expand/expr.txt"));
  REQUIRE(in);
  std::string line, expression;
  int line_no = 0, cases = 0, passed = 0;
  while (std::getline(in, line)) {
    ++line_no;
    if (line.rfind("#", 0) == 0) continue;
    if (line.rfind("=>", 0) != 0) {
      expression = line;
      continue;
    }
    std::string expected = line.size() > 3 ? line.substr(3) : "";
    for (std::size_t p; (p = expected.find("\\n")) != std::string::npos;) expected.replace(p, 2, "\n");
    ++cases;
    auto got = expr_function(expression);
    INFO("corpus/expand/expr.txt:" << line_no << ": {{#expr:" << expression << "}}");
    CHECK(got == expected);
    passed += got == expected;
  }
  MESSAGE("#expr oracle cases: " << passed << " of " << cases << " equal MediaWiki's output");
  CHECK(cases >= 150);
}

TEST_CASE("PHP float printing at precision 14") {
  CHECK(php_float_to_string(0.1 + 0.2) == "0.3");
  CHECK(php_float_to_string(1e14) == "1.0E+14");
  CHECK(php_float_to_string(1e13) == "10000000000000");
  CHECK(php_float_to_string(-2.5e-5) == "-2.5E-5");
  CHECK(php_float_to_string(0.0001) == "0.0001");
  CHECK(php_float_to_string(-0.0) == "-0");
  CHECK(php_float_to_string(1.0 / 0.0) == "INF");
  CHECK(php_float_to_int(1e20) == 7766279631452241920);
  CHECK(php_float_to_int(-1e19) == 8446744073709551616);
}

TEST_CASE("#ifexpr truthiness follows ParserFunctions::ifexpr") {
  std::string error;
  CHECK(ifexpr_test("1 < 2", error));
  CHECK_FALSE(ifexpr_test("1 > 2", error));
  CHECK_FALSE(ifexpr_test("", error));
  CHECK_FALSE(ifexpr_test("-0", error));
  CHECK(ifexpr_test("0.5", error));
  CHECK(error.empty());
  CHECK_FALSE(ifexpr_test("1 +", error));
  CHECK(error == "<strong class=\"error\">Expression error: Missing operand for +.</strong>");
}
