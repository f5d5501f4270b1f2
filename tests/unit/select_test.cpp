// Tests of the Expansion Selector condition language: the vocabulary covers every show*
// class of the seed page, compound names and dynamic selectors have the right truth
// tables, canonical forms are canonical, lints have exact texts, `wikic condition` works.
#include <doctest/doctest.h>

#include <functional>
#include <map>
#include <cctype>
#include <sstream>
#include <set>

#include "ingest/input.hpp"
#include "select/classes.hpp"
#include "select/variants.hpp"
#include "util/run.hpp"

using namespace wikic::select;
using wikic::support::DiagnosticSink;

namespace {

const Vocabulary& vocab() { return Vocabulary::builtin(); }

std::string canon(std::string_view text) {
  DiagnosticSink sink;
  auto c = condition_of_text(text, Where{"t", {1, 1}}, sink);
  return c ? to_string(*c) : "(malformed)";
}

// Diagnostics as formatted lines, for exact-text checks.
std::vector<std::string> lint(std::string_view text) {
  DiagnosticSink sink;
  condition_of_text(text, Where{"t", {1, 1}}, sink);
  std::vector<std::string> out;
  for (const auto& d : sink.all()) out.push_back(d.format());
  return out;
}

Condition cond(std::string_view text) {
  DiagnosticSink sink;
  auto c = condition_of_text(text, Where{"t", {1, 1}}, sink);
  REQUIRE(c.has_value());
  return *c;
}

// Checks `c` against `expected` for every assignment of `atoms` (under edition C2).
void truth_table(const Condition& c, const std::vector<std::string>& atoms,
                 const std::function<bool(const std::map<std::string, bool>&)>& expected) {
  for (unsigned mask = 0; mask < (1u << atoms.size()); ++mask) {
    Selection s;
    std::map<std::string, bool> values;
    for (std::size_t i = 0; i < atoms.size(); ++i) {
      values[atoms[i]] = (mask >> i) & 1u;
      if (values[atoms[i]]) s.expansions.insert(atoms[i]);
    }
    CAPTURE(mask);
    CHECK(evaluate(c, s) == expected(values));
  }
}

std::string seed_text() {
  DiagnosticSink sink;
  std::string text;
  wikic::ingest::read_inputs({wikic::test::source_path("corpus/wica/scoring-during-turn-sequence.xml")}, {}, sink,
                             [&](const wikic::ingest::SiteInfo&, wikic::ingest::Page&& page) {
                               text = std::move(page.revision.text);
                             });
  return text;
}

}  // namespace

TEST_CASE("vocabulary loads with version, atoms and structural patterns") {
  const auto& v = vocab();
  CHECK(v.version() >= 1);
  CHECK(v.class_combination() == ClassCombination::all);
  CHECK(v.declared_atoms().size() >= 90);
  CHECK(v.structural_pattern_count() == 9);
  for (const AtomInfo* a : v.declared_atoms()) {
    CAPTURE(a->id);
    CHECK(!a->label.empty());
    if (a->kind != AtomKind::setting) CHECK(!a->editions.empty());
  }
  REQUIRE(v.find_atom("KingAndRobber"));
  CHECK(v.find_atom("KingAndRobber")->label == "King & Robber Baron");
  CHECK(v.find_atom("Phantoms")->id == "Phantom");
  // Suffix forms of known atoms exist before the wiki uses them.
  REQUIRE(v.find_atom("Tower_ForC1"));
  CHECK(v.find_atom("Tower_ForC1")->base == "Tower");
}

TEST_CASE("a broken vocabulary is an error, not a crash") {
  std::string error;
  CHECK_FALSE(Vocabulary::from_yaml("version: [", error));
  CHECK(error.rfind("selectors vocabulary: ", 0) == 0);
  error.clear();
  CHECK_FALSE(Vocabulary::from_yaml("version: 1\natoms:\n  - {id: A, implies: [B]}\n", error));
  CHECK(error == "selectors vocabulary: 'A' implies unknown atom 'B'");
}

TEST_CASE("every show* class of the seed page is a condition or structural, none unknown") {
  std::string text = seed_text();
  REQUIRE(text.size() > 100000);
  // `class = "…"` values and `selectorid = show…` parameters, scanned by hand (<regex>
  // trips GCC 12's -Wmaybe-uninitialized under the sanitizers).
  auto values_after = [&](std::string_view key, bool quoted) {
    std::vector<std::string> out;
    for (auto at = text.find(key); at != std::string::npos; at = text.find(key, at + 1)) {
      std::size_t i = at + key.size();
      while (i < text.size() && text[i] == ' ') ++i;
      if (i >= text.size() || text[i] != '=') continue;
      ++i;
      while (i < text.size() && text[i] == ' ') ++i;
      if (quoted) {
        if (i >= text.size() || text[i] != '"') continue;
        auto close = text.find('"', i + 1);
        if (close != std::string::npos) out.push_back(text.substr(i + 1, close - i - 1));
      } else {
        std::size_t e = i;
        while (e < text.size() && (std::isalnum(static_cast<unsigned char>(text[e])) || text[e] == '_' || text[e] == '-')) ++e;
        out.push_back(text.substr(i, e - i));
      }
    }
    return out;
  };
  std::set<std::string> from_classes;
  for (const auto& value : values_after("class", true)) {
    std::istringstream tokens(value);
    for (std::string t; tokens >> t;)
      if (t.rfind("show", 0) == 0) from_classes.insert(t);
  }
  CHECK(from_classes.size() == 130);
  std::set<std::string> all = from_classes;
  for (const auto& id : values_after("selectorid", false))
    if (id.rfind("show", 0) == 0) all.insert(id);
  CHECK(all.size() == 132);  // + showHansStatue, showWells, only as selectorid

  std::size_t atoms = 0, compounds = 0, structural = 0;
  for (const auto& name : all) {
    CAPTURE(name);
    DiagnosticSink sink;
    ClassMeaning m = classify_class(name, Where{"seed", {1, 1}}, sink);
    CHECK(sink.all().empty());
    CHECK((m.kind == ClassKind::condition || m.kind == ClassKind::structural));
    if (m.kind == ClassKind::structural) {
      ++structural;
      CHECK(m.condition.is_true());
    } else {
      CHECK(vocab().satisfiable(m.condition));
      CHECK_FALSE(m.condition.is_true());
      bool single = m.condition.terms().size() == 1 && m.condition.terms()[0].size() == 1 &&
                    !m.condition.terms()[0][0].negated;
      single ? ++atoms : ++compounds;
    }
  }
  MESSAGE("seed classes: " << atoms << " atoms, " << compounds << " compounds, " << structural << " structural");
  CHECK(atoms + compounds + structural == all.size());
  CHECK(compounds == 15);
}

TEST_CASE("compound names split against known atoms, longest first") {
  CHECK(canon("showCountOfCarcassonneAndNotMarketsOfLeipzig") == "CountOfCarcassonne & !MarketsOfLeipzig");
  CHECK(canon("showKingAndRobber") == "KingAndRobber");
  CHECK(canon("showCircusAndNotAcrobats") == "Circus & !Acrobats");
  CHECK(canon("showCastlesOrRobbersOrTeacher") == "Castles | Robbers | Teacher");
  CHECK(canon("showNotFlier") == "!Flier");
  CHECK(canon("showAbbotAndGardens_Full") == "AbbotAndGardens_Full");
  CHECK(canon("showMessages_ForC1") == "Messages_ForC1");
  CHECK(canon("showPhantoms") == "Phantom");
  // An atom that is a prefix of a longer one (Mark / MarketsOfLeipzig) backtracks cleanly.
  CHECK(canon("showMarkAndMarketsOfLeipzig") == "Mark & MarketsOfLeipzig");
  CHECK(canon("showKingAndRobberAndRobbers") == "KingAndRobber & Robbers");
}

TEST_CASE("truth tables of compound class names: Not binds one term, And over Or") {
  truth_table(cond("showCircusAndNotAcrobats"), {"Circus", "Acrobats"},
              [](auto& v) { return v.at("Circus") && !v.at("Acrobats"); });
  truth_table(cond("showNotCircusAndAcrobats"), {"Circus", "Acrobats"},
              [](auto& v) { return !v.at("Circus") && v.at("Acrobats"); });
  truth_table(cond("showNotFlierAndNotCropCircles"), {"Flier", "CropCircles"},
              [](auto& v) { return !v.at("Flier") && !v.at("CropCircles"); });
  truth_table(cond("showCountOfCarcassonneOrMarketsOfLeipzigOrCastles"),
              {"CountOfCarcassonne", "MarketsOfLeipzig", "Castles"},
              [](auto& v) { return v.at("CountOfCarcassonne") || v.at("MarketsOfLeipzig") || v.at("Castles"); });
  truth_table(cond("showInnsOrWellsAndNotTower"), {"Inns", "Wells", "Tower"},
              [](auto& v) { return v.at("Inns") || (v.at("Wells") && !v.at("Tower")); });
  truth_table(cond("showNotInnsAndWellsOrTower"), {"Inns", "Wells", "Tower"},
              [](auto& v) { return (!v.at("Inns") && v.at("Wells")) || v.at("Tower"); });
  // The seed's three-way partition covers every case where one of the two is chosen.
  Condition both = cond("showCountOfCarcassonneAndMarketsOfLeipzig");
  Condition only_count = cond("showCountOfCarcassonneAndNotMarketsOfLeipzig");
  Condition only_leipzig = cond("showNotCountOfCarcassonneAndMarketsOfLeipzig");
  CHECK(to_string(disjoin_all({both, only_count, only_leipzig})) == "CountOfCarcassonne | MarketsOfLeipzig");
}

TEST_CASE("dynamic selectors: quote styles, nesting, operators") {
  CHECK(canon("['OR','showInns','showWells']") == "Inns | Wells");
  CHECK(canon("[\"OR\", \"showInns\", \"showWells\"]") == "Inns | Wells");
  CHECK(canon("[ OR, showInns, showWells ]") == "Inns | Wells");
  CHECK(canon("['AND','showPhantom','showStep2B-2_Complete']") == "Phantom");
  CHECK(canon("['OR','showCastlesOrRobbersOrTeacher','showRingmasterScoring']") ==
        "Castles | RingmasterScoring | Robbers | Teacher");
  CHECK(canon("['NOT','showInns']") == "!Inns");
  CHECK(canon("['NOT','showInns','showWells']") == "!Inns & !Wells");
  CHECK(canon("['OR']") == "false");
  CHECK(canon("['AND']") == "true");
  CHECK(canon("['OR','showInns',]") == "Inns");
  Condition nested = cond("['OR','showGreatFairs',['AND','showFamilyFeud',['NOT','showGamblersLuck']]]");
  truth_table(nested, {"GreatFairs", "FamilyFeud", "GamblersLuck"},
              [](auto& v) { return v.at("GreatFairs") || (v.at("FamilyFeud") && !v.at("GamblersLuck")); });
  Condition x = cond("['XOR','showInns','showWells','showTower']");
  truth_table(x, {"Inns", "Wells", "Tower"},
              [](auto& v) { return (v.at("Inns") + v.at("Wells") + v.at("Tower")) == 1; });
}

TEST_CASE("canonical form: equal conditions print equal") {
  CHECK(canon("['OR','showInns',['NOT','showInns']]") == "true");
  CHECK(canon("['AND','showInns',['NOT','showInns']]") == "false");
  CHECK(canon("['OR',['AND','showInns','showWells'],['AND','showInns',['NOT','showWells']]]") == "Inns");
  CHECK(canon("['OR','showTower','showInns']") == canon("showInnsOrTower"));
  CHECK(canon("['OR','showCastles','showRobbers','showTeacher']") == canon("showCastlesOrRobbersOrTeacher"));
  CHECK(canon("['OR','showInns',['AND','showInns','showWells']]") == "Inns");
  // Consensus: (A & B) | (!A & C) | (B & C) and (A & B) | (!A & C) are the same function.
  CHECK(canon("['OR',['AND','showInns','showWells'],['AND',['NOT','showInns'],'showTower'],"
              "['AND','showWells','showTower']]") ==
        canon("['OR',['AND','showInns','showWells'],['AND',['NOT','showInns'],'showTower']]"));
  // De Morgan.
  CHECK(canon("['NOT',['OR','showInns','showWells']]") == canon("showNotInnsAndNotWells"));
  CHECK(canon("['NOT',['AND','showInns','showWells']]") == canon("showNotInnsOrNotWells"));
  // Preferred editions exclude each other; C1 & C2 is no selection at all.
  CHECK(canon("showC1 showC2") == "false");
}

TEST_CASE("conjoin_once and negate_once answer as conjoin and negate") {
  const char* texts[] = {"showInns", "showNotInns", "showInnsOrTower", "showCircusAndNotAcrobats",
                         "['OR',['AND','showInns','showWells'],['AND',['NOT','showInns'],'showTower']]",
                         "['AND','showInns',['NOT','showInns']]", "showAll"};
  for (const char* x : texts) {
    Condition a = cond(x);
    INFO(x);
    CHECK(negate_once(a) == negate(a));
    for (const char* y : texts) {
      Condition b = cond(y);
      INFO(y);
      CHECK(conjoin_once(a, b) == conjoin(a, b));
    }
  }
  CHECK(conjoin_once(Condition(), cond("showInns")) == cond("showInns"));
  CHECK(to_string(conjoin_once(cond("showInns"), negate_once(cond("showInns")))) == "false");
}

TEST_CASE("editions: preferred-edition classes, WE falls back to C2 wording") {
  Condition c1 = cond("showC1"), c2 = cond("showC2"), we = cond("showWE_Graphics");
  Selection s;
  s.edition = Edition::C1;
  CHECK(evaluate(c1, s));
  CHECK_FALSE(evaluate(c2, s));
  s.edition = Edition::WE;
  CHECK_FALSE(evaluate(c1, s));
  CHECK(evaluate(c2, s));
  CHECK(evaluate(we, s));
  CHECK_FALSE(evaluate(cond("showC2_Graphics"), s));
  CHECK(vocab().satisfiable(conjoin(c2, cond("showWE"))));
  CHECK_FALSE(vocab().satisfiable(conjoin(c1, c2)));
  CHECK_FALSE(vocab().satisfiable(conjoin(c1, cond("showWE"))));
}

TEST_CASE("tile shapes: OtherTiles comes with the odd-shaped tiles, SquareTiles is everyone else") {
  // The seed writes the abbot's and the monastery's counts twice: under showSquareTiles
  // and under showOtherTiles (square spaces of double-sized, triangular and wonder tiles).
  // Exactly one of the two wordings is for any reader.
  Condition square = cond("showSquareTiles"), other = cond("showOtherTiles");
  Selection s;
  s.expansions = {"Inns"};
  CHECK(evaluate(square, s));
  CHECK_FALSE(evaluate(other, s));
  for (const char* shape : {"Halflings", "DoubleSizedTiles", "WondersOfHumanity", "OtherTiles"}) {
    INFO(shape);
    s.expansions = {"Inns", shape};
    CHECK(evaluate(other, s));
    CHECK_FALSE(evaluate(square, s));
  }
  Selection all;
  all.all_expansions = true;
  CHECK(evaluate(other, all));
  CHECK_FALSE(evaluate(square, all));
  // Under the Winter Edition too: square tiles exist in every edition.
  s.expansions = {};
  s.edition = Edition::WE;
  CHECK(evaluate(square, s));
  // A complement must name known plain atoms.
  std::string error;
  CHECK_FALSE(Vocabulary::from_yaml("version: 1\natoms:\n  - {id: A, none_of: [B]}\n", error));
  CHECK(error.find("unknown atom 'B'") != std::string::npos);
}

TEST_CASE("suffix forms: _ForC1/_ForC2 follow the preferred edition unless chosen") {
  Condition for_c1 = cond("showMessages_ForC1"), for_c2 = cond("showMessages_ForC2");
  Selection s;
  s.expansions = {"Messages"};
  s.edition = Edition::C1;
  CHECK(evaluate(for_c1, s));
  CHECK_FALSE(evaluate(for_c2, s));
  s.edition = Edition::WE;
  CHECK_FALSE(evaluate(for_c1, s));
  CHECK(evaluate(for_c2, s));
  s.expansions = {"Messages_ForC1"};
  CHECK(evaluate(for_c1, s));
  CHECK(evaluate(cond("showMessages"), s));  // a variant implies its expansion
  CHECK_FALSE(evaluate(for_c2, s));
  // A C2 wording inside the C1 rule variant is reachable (C1 rules read with C2 terms).
  CHECK(vocab().satisfiable(conjoin(for_c1, cond("showC2"))));
  CHECK_FALSE(vocab().satisfiable(conjoin(for_c1, for_c2)));
  CHECK_FALSE(vocab().satisfiable(conjoin(for_c1, cond("showNotMessages"))));
  CHECK(vocab().implies(for_c1, cond("showMessages")));
  // Families: any river implies Rivers_Any.
  Selection r;
  r.expansions = {"RiverII"};
  CHECK(evaluate(cond("showRivers_Any"), r));
  Selection all;
  all.all_expansions = true;
  CHECK(evaluate(cond("showInnsAndWells"), all));
  CHECK_FALSE(evaluate(cond("showNotFlier"), all));
}

TEST_CASE("lints: exact texts with line:column") {
  CHECK(lint("showFlierr") ==
        std::vector<std::string>{"t:1:1: warning: unknown selector id 'showFlierr' (closest known: showFlier, "
                                 "showFairy, showRiver)"});
  CHECK(lint("scoringTile  showInns showInns") ==
        std::vector<std::string>{"t:1:23: warning: class 'showInns' is repeated in one class attribute"});
  CHECK(lint("showC1 showC2") ==
        std::vector<std::string>{"t:1:1: warning: classes 'showC1 showC2' on one element can never be shown together"});
  CHECK(lint("['OR','showInns'") ==
        std::vector<std::string>{"t:1:17: warning: dynamic selector does not parse: expected ',' or ']'"});
  CHECK(lint("['or','showInns']") ==
        std::vector<std::string>{"t:1:3: warning: dynamic selector does not parse: unknown operator 'or' (expected "
                                 "OR, AND, NOT or XOR)"});
  CHECK(lint("['OR','showInns] ") ==
        std::vector<std::string>{"t:1:7: warning: dynamic selector does not parse: unterminated string (missing ')"});
  CHECK(lint("[]") ==
        std::vector<std::string>{"t:1:2: warning: dynamic selector does not parse: missing operator (OR, AND, NOT or XOR)"});
  CHECK(lint("['NOT']") == std::vector<std::string>{"t:1:3: warning: dynamic selector does not parse: NOT needs an operand"});
  CHECK(lint("['OR','showInns'] x") ==
        std::vector<std::string>{"t:1:19: warning: dynamic selector does not parse: unexpected text after the closing ']'"});
  auto unknown = lint("[ OR, \"showInns\", \"shwGifts\" ]");
  REQUIRE(unknown.size() == 1);
  CHECK(unknown[0].rfind("t:1:20: warning: unknown selector id 'shwGifts' (closest known: showGifts", 0) == 0);
  CHECK(lint("showStep1A_Empty scoringTile markC2 showC1").empty());
}

TEST_CASE("element lints: duplicate class attribute, nesting") {
  DiagnosticSink sink;
  ElementSelectors e;
  e.class_values = {"showTraders", "scoringAction"};
  e.class_where = {Where{"p", {3, 20}}, Where{"p", {3, 40}}};
  CHECK(element_condition(e, sink).is_true());
  REQUIRE(sink.all().size() == 1);
  CHECK(sink.all()[0].format() ==
        "p:3:40: warning: duplicate class attribute; MediaWiki keeps the last one (\"scoringAction\") and drops "
        "\"showTraders\" before the browser sees it");

  DiagnosticSink nested;
  Condition outer = cond("showC1");
  Condition dead = lint_nested(outer, cond("showC2"), "showC2", Where{"p", {5, 7}}, nested);
  CHECK_FALSE(vocab().satisfiable(dead));
  lint_nested(outer, cond("showC1"), "showC1", Where{"p", {6, 7}}, nested);
  lint_nested(cond("showCastles"), cond("showCastlesOrRobbersOrTeacher"), "showCastlesOrRobbersOrTeacher",
              Where{"p", {7, 7}}, nested);
  lint_nested(cond("showCastlesOrRobbersOrTeacher"), cond("showCastles"), "showCastles", Where{"p", {8, 7}}, nested);
  // Below dead content nothing more is reported.
  lint_nested(dead, cond("showInns"), "showInns", Where{"p", {9, 7}}, nested);
  REQUIRE(nested.all().size() == 3);
  CHECK(nested.all()[0].format() ==
        "p:5:7: warning: content can never be shown: 'showC2' (C2) contradicts the enclosing condition C1");
  CHECK(nested.all()[1].format() ==
        "p:6:7: warning: class 'showC1' repeats a condition already implied by the enclosing C1");
  CHECK(nested.all()[2].format() ==
        "p:7:7: warning: class 'showCastlesOrRobbersOrTeacher' repeats a condition already implied by the "
        "enclosing Castles");

  DiagnosticSink tpl;
  Condition t = template_condition(std::string_view("showInns"), Where{"p", {1, 1}},
                                   std::string_view("['OR','showInns','showWells']"), Where{"p", {1, 30}}, tpl);
  CHECK(to_string(t) == "Inns");
  CHECK(tpl.all().empty());
}

TEST_CASE("bounds: deep nesting and huge DNF are diagnostics, not crashes") {
  std::string deep;
  for (int i = 0; i < 200; ++i) deep += "['NOT',";
  deep += "'showInns'";
  for (int i = 0; i < 200; ++i) deep += "]";
  auto d = lint(deep);
  REQUIRE(d.size() == 1);
  CHECK(d[0] == "t:1:225: warning: dynamic selector does not parse: nested deeper than 32 levels");

  // AND of 12 two-way ORs has 4096 prime implicants: over the bound.
  const char* atoms[] = {"Inns", "Wells", "Tower", "Abbey", "Mayor", "Barn", "Pig", "Builder", "Traders", "Hills",
                         "Sheep", "Vineyards", "Dragon", "Fairy", "Princess", "Mage", "Witch", "Robbers",
                         "Flier", "Ferries", "Goldmines", "Gifts", "Bets", "Circus"};
  std::string big = "['AND'";
  for (int i = 0; i < 12; ++i) big += std::string(",['OR','show") + atoms[2 * i] + "','show" + atoms[2 * i + 1] + "']";
  big += "]";
  DiagnosticSink sink;
  auto c = condition_of_text(big, Where{"t", {1, 1}}, sink);
  REQUIRE(c);
  CHECK(c->overflowed());
  CHECK(c->is_true());
  REQUIRE(sink.all().size() == 1);
  CHECK(sink.all()[0].format() ==
        "t:1:1: warning: selector condition has more than 256 terms; treated as unrestricted");
}

TEST_CASE("text variants per edition: followermeeple") {
  std::vector<TextRun> runs{{"player's ", Condition()}, {"follower", cond("showC1")}, {"meeple", cond("showC2")},
                            {" (robber)", cond("showRobbers")}};
  EditionVariants v = text_variants(runs);
  CHECK(v.c1 == "player's follower (robber)");
  CHECK(v.c2 == "player's meeple (robber)");
  CHECK(v.we == "player's meeple (robber)");
  CHECK(v[Edition::C1] == v.c1);
  CHECK_FALSE(v.uniform());
  CHECK(text_variants({{"same", cond("showInns")}}).uniform());
}

TEST_CASE("wikic condition prints canonical conditions (acceptance)") {
  auto r = wikic::test::run_wikic("condition showCountOfCarcassonneAndNotMarketsOfLeipzig showKingAndRobber");
  CHECK(r.status == 0);
  CHECK(r.out ==
        "showCountOfCarcassonneAndNotMarketsOfLeipzig: CountOfCarcassonne & !MarketsOfLeipzig\n"
        "showKingAndRobber: KingAndRobber\n");
  CHECK(r.err.empty());
  auto d = wikic::test::run_wikic("condition showCircusAndNotAcrobats \"['OR','showInns','showWells']\" showFlierr");
  CHECK(d.status == 0);
  CHECK(d.out ==
        "showCircusAndNotAcrobats: Circus & !Acrobats\n['OR','showInns','showWells']: Inns | Wells\n"
        "showFlierr: Flierr\n");
  CHECK(d.err.find("<arg 3>:1:1: warning: unknown selector id 'showFlierr'") != std::string::npos);
  auto m = wikic::test::run_wikic("condition \"['OR',\"");
  CHECK(m.out == "['OR',: (malformed)\n");
  CHECK(m.err.find("<arg 1>:1:7: warning: dynamic selector does not parse") != std::string::npos);
}

TEST_CASE("shared conditions: a memoised conjunction and cached answers equal fresh ones") {
  // conjoin() keeps products by the operands' identity and Vocabulary caches answers on
  // a condition's shared terms; copies rebuilt from the terms have new identities, so
  // they are computed afresh and must agree.
  const Vocabulary& v = Vocabulary::builtin();
  Condition a = cond("showCircusAndNotAcrobats"), b = cond("['OR','showInns','showWells']");
  Condition first = conjoin(a, b);
  Condition again = conjoin(a, b);
  Condition fresh = conjoin(Condition::from_terms(a.terms()), Condition::from_terms(b.terms()));
  CHECK(again == first);
  CHECK(to_string(first) == to_string(fresh));
  CHECK(to_string(first) == "Circus & Inns & !Acrobats | Circus & Wells & !Acrobats");
  CHECK(to_string(conjoin(Condition(), a)) == to_string(a));
  CHECK(conjoin(a, Condition::never()).is_false());

  Condition dead = conjoin(cond("showC1"), cond("showC2"));
  for (int round = 0; round < 2; ++round)
    for (Edition e : kEditions) {
      CAPTURE(round);
      CHECK(v.satisfiable_under(dead, e) == v.satisfiable_under(Condition::from_terms(dead.terms()), e));
      CHECK_FALSE(v.satisfiable_under(dead, e));
      CHECK(v.satisfiable_under(a, e));
    }
  CHECK(v.simplify(dead).is_false());
  CHECK(v.simplify(a) == a);
  CHECK(v.simplify(disjoin(a, dead)) == a);
}

TEST_CASE("satisfiable_editions: one bit per edition, as satisfiable_under answers, cached or not") {
  // Its inline path reads the answers cached on a condition's terms only when all three
  // are there; a condition asked about one edition first must still be computed whole.
  const Vocabulary& v = Vocabulary::builtin();
  auto expected = [&](const Condition& c) {
    unsigned bits = 0;
    for (Edition e : kEditions)
      if (v.satisfiable_under(Condition::from_terms(c.terms()), e)) bits |= 1u << static_cast<unsigned>(e);
    return bits;
  };
  CHECK(v.satisfiable_editions(Condition()) == 0b111);
  CHECK(v.satisfiable_editions(Condition::never()) == 0);
  for (const char* selector : {"showC1", "showC2", "showWE", "['OR','showC1','showWE']", "showInns",
                               "showCircusAndNotAcrobats", "['AND','showC1','showC2']"}) {
    CAPTURE(selector);
    Condition fresh = cond(selector);
    const unsigned want = expected(fresh);
    Condition partly = Condition::from_terms(fresh.terms());
    v.satisfiable_under(partly, Edition::C2);  // one answer cached, two not
    CHECK(v.satisfiable_editions(fresh) == want);
    CHECK(v.satisfiable_editions(fresh) == want);  // now from the cache
    CHECK(v.satisfiable_editions(partly) == want);
  }
  CHECK(v.satisfiable_editions(cond("showC1")) == 0b001);
  CHECK(v.satisfiable_editions(cond("['AND','showC1','showC2']")) == 0);
}
