// Conditioned parts of a rule's text (Rule::rules_parts, description_parts) and the
// points found per part: the seed page's abbot, ringmaster, Wheel of Fortune and pig
// rows, the hand-written rows of corpus/extract/points-per.wiki for where `per` ends,
// the database loader, `wikic query` under two selections, and one rules text repeated
// across rows that are read in different ways.
#include <doctest/doctest.h>

#include <algorithm>
#include <fstream>
#include <string>

#include "extract/points.hpp"
#include "extract/rules.hpp"
#include "util/compile.hpp"
#include "util/run.hpp"
#include "wikic/db.hpp"

using namespace wikic;

namespace {

const extract::PageRules& seed() {
  static const extract::PageRules rules = test::compile_page(test::source_path("corpus/wica/scoring-during-turn-sequence.xml"));
  return rules;
}

const extract::PageRules& per_rows() {
  static const extract::PageRules rules = test::compile_page(test::source_path("corpus/extract/points-per.wiki"));
  return rules;
}

/// The first rule whose description starts with `description`.
const extract::Rule& rule(const extract::PageRules& page, std::string_view description) {
  auto it = std::find_if(page.rules.begin(), page.rules.end(),
                         [&](const extract::Rule& r) { return r.description.text.starts_with(description); });
  REQUIRE_MESSAGE(it != page.rules.end(), "no rule described '" << description << "'");
  return *it;
}

/// The entry whose text is `text` under `when`, or nullptr.
const extract::PointsEntry* entry(const extract::Rule& r, std::string_view text, std::string_view when) {
  for (const auto& e : r.points)
    if (e.points.text == text && e.when == when) return &e;
  return nullptr;
}

std::string editions(const extract::PointsEntry& e) {
  std::string s;
  for (const auto& ed : e.editions) s += (s.empty() ? "" : ",") + ed;
  return s.empty() ? "all" : s;
}

std::string without_spaces(std::string s) {
  std::erase(s, ' ');
  return s;
}

}  // namespace

TEST_CASE("the abbot's rules cell is one part per tile shape, each with its own points") {
  const auto& abbot = rule(seed(), "Abbot returned");
  REQUIRE(abbot.rules_parts.size() == 2);
  const auto& square = abbot.rules_parts[0];
  const auto& other = abbot.rules_parts[1];
  CHECK(square.when == "SquareTiles");
  CHECK(square.text.uniform);
  CHECK(square.text.text == "1 point for the feature tile + 1 point per tile around it");
  // The edition spans inside the OtherTiles span stay in that part's Variants.
  CHECK(other.when == "OtherTiles");
  REQUIRE(!other.text.uniform);
  CHECK(other.text.c1 == "1 point per tile in the square space with the feature + 1 point per tile in the 8 spaces around it");
  CHECK(other.text.c2 == "1 point for the square space with the feature + 1 point per occupied space around it");
  CHECK(other.text.we == other.text.c2);
  // Every entry is under its part, and no `per` runs into the next term or alternative.
  REQUIRE(abbot.points.size() == 6);
  for (const auto& e : abbot.points) {
    INFO(e.points.text);
    CHECK((e.when == "SquareTiles" || e.when == "OtherTiles"));
    CHECK(e.points.per.find("point") == std::string::npos);
  }
  const auto* around = entry(abbot, "1 point per tile around it", "SquareTiles");
  REQUIRE(around);
  CHECK(around->points.per == "tile around it");
  CHECK(editions(*around) == "all");
  const auto* occupied = entry(abbot, "1 point per occupied space around it", "OtherTiles");
  REQUIRE(occupied);
  CHECK(editions(*occupied) == "C2,WE");
  const auto* eight = entry(abbot, "1 point per tile in the 8 spaces around it", "OtherTiles");
  REQUIRE(eight);
  CHECK(editions(*eight) == "C1");
  // The all-inclusive text is still every part, for the readers that want it.
  CHECK(abbot.rules.c1.starts_with("1 point for the feature tile + 1 point per tile around it 1 point per tile"));
}

TEST_CASE("the ringmaster's three alternatives are three parts and three points entries") {
  const auto& ringmaster = rule(seed(), "Ringmaster on feature just completed");
  REQUIRE(ringmaster.rules_parts.size() == 5);
  CHECK(ringmaster.rules_parts[0].when == "true");
  CHECK(ringmaster.rules_parts[0].text.text == "2 points /");
  CHECK(ringmaster.rules_parts[1].when == "Acrobats & Circus");
  CHECK(ringmaster.rules_parts[1].text.text == "circus or acrobat tiles");
  CHECK(ringmaster.rules_parts[2].when == "Circus & !Acrobats");
  CHECK(ringmaster.rules_parts[3].when == "Acrobats & !Circus");
  CHECK(ringmaster.rules_parts[4].when == "true");
  // One entry per alternative; the reading with none of them (no two can show together)
  // is none the page means, so "2 points / where the ringmaster …" is not an entry.
  REQUIRE(ringmaster.points.size() == 3);
  CHECK(ringmaster.points[0].when == "Acrobats & Circus");
  CHECK(ringmaster.points[0].points.per == "circus or acrobat tiles where the ringmaster is on or adjacent to");
  CHECK(ringmaster.points[1].when == "Circus & !Acrobats");
  CHECK(ringmaster.points[1].points.per == "circus tiles where the ringmaster is on or adjacent to");
  CHECK(ringmaster.points[2].when == "Acrobats & !Circus");
  CHECK(ringmaster.points[2].points.per == "acrobat tiles where the ringmaster is on or adjacent to");
}

TEST_CASE("Wheel of Fortune tax: two terms, each with its own per") {
  const auto& tax = rule(seed(), "Wheel Of Fortune - Tax");
  CHECK(tax.rules_parts.empty());  // only edition spans: no parts
  const auto* arms = entry(tax, "1 point / coat of arms", "true");
  const auto* pennant = entry(tax, "1 point / pennant", "true");
  const auto* knight = entry(tax, "1 point / knight", "true");
  REQUIRE(arms);
  REQUIRE(pennant);
  REQUIRE(knight);
  CHECK(arms->points.per == "coat of arms");
  CHECK(editions(*arms) == "C2,WE");
  CHECK(editions(*pennant) == "C1");
  CHECK(knight->points.per == "knight");
  CHECK(editions(*knight) == "all");
  CHECK(tax.points.size() == 3);
}

TEST_CASE("a clause only Castles readers see: one entry with it, one without") {
  const auto& pig = rule(seed(), "Field with pig");
  REQUIRE(pig.rules_parts.size() == 3);
  CHECK(pig.rules_parts[1].when == "Castles");
  CHECK(pig.rules_parts[1].text.text == "castle or");
  const auto* with = entry(pig, "(+1) point / castle or completed city per farmer", "Castles");
  const auto* without = entry(pig, "(+1) point / completed city per farmer", "!Castles");
  REQUIRE(with);
  REQUIRE(without);
  CHECK(pig.points.size() == 2);
}

TEST_CASE("parts: only where a condition other than editions is written, and they add up to the text") {
  std::size_t with_parts = 0, with_description_parts = 0;
  for (const auto& r : seed().rules) {
    for (const auto* parts : {&r.rules_parts, &r.description_parts}) {
      if (parts->empty()) continue;
      INFO(r.id);
      CHECK(std::any_of(parts->begin(), parts->end(), [](const extract::TextPart& p) { return p.when != "true"; }));
      std::string c1, c2, we;
      for (std::size_t i = 0; i < parts->size(); ++i) {
        const auto& p = (*parts)[i];
        CHECK(p.when.find("C1") == std::string::npos);  // edition atoms stay in the Variants
        CHECK(p.when.find("C2") == std::string::npos);
        if (i > 0) CHECK(p.when != (*parts)[i - 1].when);  // contiguous runs of one condition are one part
        c1 += p.text.uniform ? p.text.text : p.text.c1;
        c2 += p.text.uniform ? p.text.text : p.text.c2;
        we += p.text.uniform ? p.text.text : p.text.we;
      }
      const auto& whole = parts == &r.rules_parts ? r.rules : r.description;
      CHECK(without_spaces(c1) == without_spaces(whole.uniform ? whole.text : whole.c1));
      CHECK(without_spaces(c2) == without_spaces(whole.uniform ? whole.text : whole.c2));
      CHECK(without_spaces(we) == without_spaces(whole.uniform ? whole.text : whole.we));
    }
    with_parts += !r.rules_parts.empty();
    with_description_parts += !r.description_parts.empty();
  }
  MESSAGE("rules with rules-parts " << with_parts << ", with description-parts " << with_description_parts);
  CHECK(with_parts > 0);
  CHECK(with_description_parts > 0);
  // The Flier's majority wording is a part of its own in the descriptions.
  const auto& garden = rule(seed(), "Garden:");
  REQUIRE(garden.description_parts.size() == 3);
  CHECK(garden.description_parts[1].when == "Flier");
  CHECK(garden.description_parts[2].when == "!Flier");
  CHECK(rule(seed(), "Fairy bonus").rules_parts.empty());
}

TEST_CASE("per ends before the next term, a multiplier, a sentence end and a line break") {
  auto per_of = [](std::string_view description) {
    std::vector<std::string> out;
    for (const auto& e : rule(per_rows(), description).points) out.push_back(e.points.per);
    return out;
  };
  CHECK(per_of("Next term of a sum") == std::vector<std::string>{"coat of arms", "knight"});
  CHECK(per_of("Subtracted term") == std::vector<std::string>{"tile", "pennant"});
  const auto& times = rule(per_rows(), "Multiplier");
  REQUIRE(times.points.size() == 2);
  CHECK(times.points[0].points.per == "tile");
  CHECK(times.points[1].points.op == extract::PointsOp::multiply);
  CHECK(per_of("Sentence end") == std::vector<std::string>{"acrobat tile"});
  // `<br>` ends it, and the rule's text still reads it as a space.
  CHECK(per_of("Line break") == std::vector<std::string>{"road segment"});
  CHECK(rule(per_rows(), "Line break").rules.text == "1 point / road segment in the colour of the player");
  CHECK(per_of("Decimal is no sentence end") == std::vector<std::string>{"2.5 tiles"});
  // Two alternatives (no reader sees both or neither): one entry each.
  const auto& alternatives = rule(per_rows(), "Alternatives");
  REQUIRE(alternatives.points.size() == 2);
  CHECK(alternatives.points[0].when == "Inns");
  CHECK(alternatives.points[0].points.per == "inn on the road");
  CHECK(alternatives.points[1].when == "!Inns");
  CHECK(alternatives.points[1].points.per == "tile on the road");
  const auto& optional = rule(per_rows(), "Optional clause");
  REQUIRE(optional.points.size() == 2);
  CHECK(optional.points[0].when == "!Castles");
  CHECK(optional.points[0].points.per == "completed city");
  CHECK(optional.points[1].when == "Castles");
  CHECK(optional.points[1].points.per == "castle or completed city");
  for (const auto& r : per_rows().rules) CHECK(!r.points_unparsed);
}

TEST_CASE("wikic/db.hpp loads the parts from rules.json and rules.yaml") {
  for (const char* name : {"rules.json", "rules.yaml"}) {
    INFO(name);
    std::string error;
    auto db = db::load(test::source_path(std::string("tests/golden/wica/") + name), error);
    REQUIRE_MESSAGE(db, error);
    const db::Rule* abbot = nullptr;
    for (const auto& r : db->pages.at(0).rules)
      if (r.description.c2.starts_with("Abbot returned")) abbot = &r;
    REQUIRE(abbot);
    REQUIRE(abbot->rules_parts.size() == 2);
    CHECK(abbot->rules_parts[0].when == "SquareTiles");
    CHECK(abbot->rules_parts[1].when == "OtherTiles");
    CHECK(abbot->rules_parts[1].text.in("C1").starts_with("1 point per tile in the square space"));
    CHECK(abbot->description_parts.empty());
  }
}

TEST_CASE("wikic query reads the abbot's parts the selection shows") {
  test::ScratchDir out;
  auto compiled = test::run_wikic("compile " + test::source_path("corpus/wica") + " --out " + out.path.string());
  REQUIRE(compiled.status == 0);
  auto line = [](const std::string& text) {
    std::size_t at = text.find("Abbot returned: ");
    REQUIRE(at != std::string::npos);
    return text.substr(at, text.find('\n', at) - at);
  };
  auto square = test::run_wikic("query " + (out / "rules.yaml").string() + " --edition C1 --with Abbot,SquareTiles");
  CHECK(square.status == 0);
  CHECK(line(square.out) == "Abbot returned: 1 point for the feature tile + 1 point per tile around it");
  auto other = test::run_wikic("query " + (out / "rules.json").string() + " --edition C1 --with Abbot,OtherTiles");
  CHECK(other.status == 0);
  CHECK(line(other.out) ==
        "Abbot returned: 1 point per tile in the square space with the feature + 1 point per tile in the 8 spaces around it");
  // The tile shapes are derived (schema/selectors.yaml): a reader without odd-shaped tiles
  // reads the SquareTiles wording, one with triangular tiles (Halflings) the other.
  auto plain = test::run_wikic("query " + (out / "rules.yaml").string() + " --edition C1 --with Abbot");
  CHECK(line(plain.out) == line(square.out));
  auto halflings = test::run_wikic("query " + (out / "rules.yaml").string() + " --edition C1 --with Abbot,Halflings");
  CHECK(line(halflings.out) == line(other.out));
  auto json = test::run_wikic("query " + (out / "rules.json").string() + " --edition C2 --with Abbot,OtherTiles --format json");
  CHECK(json.out.find("\"1 point per occupied space around it\"") != std::string::npos);
  CHECK(json.out.find("\"1 point per tile around it\"") == std::string::npos);  // SquareTiles' entry
}

TEST_CASE("a rules text repeated on a page gives every rule its expressions, whichever way it is read") {
  // Extraction searches each text of a page once: the same text in a plain row, in an
  // edition's reading and in the common reading of a part must give the same expressions.
  test::ScratchDir dir;
  {
    std::ofstream page(dir / "Repeats.wiki");
    page << "== Repeated texts ==\n{|\n"
            "|-\n| class=\"scoringFeature\" | Plain row\n| Each: '''2''' points / tile on the road\n"
            "|-\n| class=\"scoringFeature\" | Same text again\n| Each: '''2''' points / tile on the road\n"
            "|-\n| class=\"scoringFeature\" | Longer for C1\n"
            "| Each: '''2''' points / tile on the road<span class=\"showC1\"> or castle</span>\n"
            "|-\n| class=\"scoringFeature\" | Longer with castles\n"
            "| Each: '''2''' points / tile on the road<span class=\"showCastles\"> and castle</span>\n|}\n";
  }
  const extract::PageRules page = test::compile_page((dir / "Repeats.wiki").string());
  for (const char* plain : {"Plain row", "Same text again"}) {
    const auto& r = rule(page, plain);
    REQUIRE(r.points.size() == 1);
    const auto* e = entry(r, "2 points / tile on the road", "true");
    REQUIRE(e);
    CHECK(editions(*e) == "all");
    CHECK(e->points.per == "tile on the road");
  }
  // C2 and WE read the plain text; C1 reads on into its clause.
  const auto& c1 = rule(page, "Longer for C1");
  REQUIRE(c1.points.size() == 2);
  const auto* shared = entry(c1, "2 points / tile on the road", "true");
  const auto* longer = entry(c1, "2 points / tile on the road or castle", "true");
  REQUIRE(shared);
  REQUIRE(longer);
  CHECK(editions(*shared) == "C2,WE");
  CHECK(editions(*longer) == "C1");
  // The common reading is the plain text again; the Castles part changes its expression.
  const auto& castles = rule(page, "Longer with castles");
  REQUIRE(castles.points.size() == 2);
  CHECK(entry(castles, "2 points / tile on the road", "!Castles"));
  CHECK(entry(castles, "2 points / tile on the road and castle", "Castles"));
}
