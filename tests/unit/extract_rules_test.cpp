// Rule extraction on the shipped seed page: every scoring cell accounted for, the five
// ScoringRow calls, spot checks of fields, and the emitted files validated against
// schema/rules.schema.json (python3-jsonschema) and schema/rules.xsd (xmllint).
#include <doctest/doctest.h>

#include <algorithm>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <map>
#include <memory>
#include <set>
#include <thread>
#include <vector>

#include "cli/pipeline.hpp"
#include "emit/rules_writer.hpp"
#include "extract/rules.hpp"
#include "ingest/input.hpp"
#include "util/compile.hpp"
#include "util/run.hpp"
#include "wikic/db.hpp"
#include <nlohmann/json.hpp>

using namespace wikic;

namespace {

const extract::PageRules& seed() {
  static const extract::PageRules rules =
      test::compile_page(test::source_path("corpus/wica/scoring-during-turn-sequence.xml"));
  return rules;
}

std::vector<const extract::Rule*> find(std::string_view description) {
  std::vector<const extract::Rule*> found;
  for (const auto& r : seed().rules)
    if (r.description.text.find(description) != std::string::npos) found.push_back(&r);
  return found;
}

bool empty_text(const extract::Variants& v) {
  return v.uniform ? v.text.empty() : v.c1.empty() && v.c2.empty() && v.we.empty();
}

bool has_points(const extract::Rule& r, extract::PointsOp op, double value, std::string_view per,
                std::string_view when) {
  return std::any_of(r.points.begin(), r.points.end(), [&](const extract::PointsEntry& e) {
    return e.points.op == op && e.points.value == value && e.points.per.find(per) != std::string::npos &&
           e.when == when;
  });
}

}  // namespace

TEST_CASE("every scoring cell of the seed page is a rule or a classified non-rule") {
  const auto& page = seed();
  std::string tally;
  for (const auto& [use, n] : page.cells.by_use) tally += " " + use + "=" + std::to_string(n);
  std::map<std::string, std::size_t> reasons;
  for (const auto& n : page.non_rules) ++reasons[n.reason];
  std::string non;
  for (const auto& [reason, n] : reasons) non += " " + reason + "=" + std::to_string(n);
  MESSAGE("scoring cells " << page.cells.total << ":" << tally << "; rules " << page.rules.size() << " (sub-rules "
                           << page.sub_rules << "); non-rules" << non << "; unparsed points " << page.unparsed_points
                           << "; id collisions " << page.id_collisions);
  CHECK(page.cells.total == 331);
  CHECK(page.cells.unaccounted == 0);
  CHECK(reasons["legend"] == 1);
  CHECK(reasons["no-actions"] >= 1);
  CHECK(reasons["spacer"] >= 1);
  CHECK(reasons["comment"] >= 1);
  CHECK(reasons["placeholder"] >= 1);
  CHECK(reasons["header"] >= 1);  // "Road (highwayman)": a lone scoring cell titling its rows
  CHECK(page.cells.by_use.at("comment") == 7);  // commented-out rows (legend action, castles, traders)
}

TEST_CASE("the five ScoringRow calls are rules with their selectorid as condition") {
  std::vector<const extract::Rule*> rows;
  for (const auto& r : seed().rules)
    if (r.source.origin == "ScoringRow") rows.push_back(&r);
  REQUIRE(rows.size() == 5);
  // The selectorid is in every condition; the rest comes from the enclosing blocks.
  const char* ids[] = {"HansStatue", "Wells", "Wells", "Obelisk", "HansStatue"};
  for (std::size_t i = 0; i < 5; ++i) {
    INFO(rows[i]->id << " when " << rows[i]->when);
    CHECK(std::count(rows[i]->atoms.begin(), rows[i]->atoms.end(), ids[i]) == 1);
    CHECK(rows[i]->parent.empty());
  }
  CHECK(rows[1]->when == "Wells");
  CHECK(rows[3]->when == "Obelisk");
  CHECK(rows[3]->kind == "meeple");
  CHECK(rows[3]->triggers == std::vector<std::string>{"robbers"});
  CHECK(has_points(*rows[3], extract::PointsOp::fixed, 16, "", "true"));
  CHECK(std::count(rows[0]->references.begin(), rows[0]->references.end(), "Figure:HansStatue") == 1);
}

TEST_CASE("spot checks: wells, witch, ghosts, robber") {
  auto wells = find("Road with well");
  REQUIRE(!wells.empty());
  const auto& w = *wells.front();
  CHECK(w.when == "Wells");
  CHECK(w.kind == "tile");
  // "(+1) point / well<span class="showInns"> on road without inn …</span>": without
  // Inns the +1 counts every well, with Inns only those on a road without an inn.
  CHECK(has_points(w, extract::PointsOp::add, 1, "well", "!Inns"));
  CHECK(has_points(w, extract::PointsOp::add, 1, "well on road without inn", "Inns"));
  CHECK(has_points(w, extract::PointsOp::add, 2, "well on road with inn", "Inns"));
  CHECK(w.source.line > 0);
  CHECK(w.source.offset > 0);

  auto witch = find("itch");
  REQUIRE(!witch.empty());
  CHECK(std::any_of(witch.begin(), witch.end(), [](const extract::Rule* r) {
    return std::any_of(r->points.begin(), r->points.end(), [](const extract::PointsEntry& e) {
      return e.points.op == extract::PointsOp::fraction && e.points.value == 1 && e.points.denominator == 2 &&
             e.points.rounding == "up";
    });
  }));

  auto ghosts = find("host");
  REQUIRE(!ghosts.empty());
  CHECK(std::any_of(ghosts.begin(), ghosts.end(), [](const extract::Rule* r) {
    return r->kind == "meeple" && std::any_of(r->points.begin(), r->points.end(), [](const extract::PointsEntry& e) {
             return e.points.op == extract::PointsOp::add && e.points.value == -2 && e.points.per.find("ghost") == 0;
           });
  }));

  // Header icons ("Feature Scoring → castle, robber+, teacher") apply to the core rows below.
  auto road = find("Road: Player(s) with majority");
  REQUIRE(!road.empty());
  CHECK(road.front()->core);
  CHECK(road.front()->triggers == std::vector<std::string>{"castle", "robbers+", "teacher"});
  // A raw row's own robber icon.
  auto fairy = find("Fairy bonus");
  REQUIRE(!fairy.empty());
  CHECK(fairy.front()->triggers == std::vector<std::string>{"robbers"});
  CHECK(fairy.front()->kind == "meeple");
  CHECK(!fairy.front()->description.uniform);
  CHECK(fairy.front()->description.c1.find("follower") != std::string::npos);
  CHECK(fairy.front()->description.c2.find("meeple") != std::string::npos);

  // "1/2 primary points scored (rounded up)": half of what the counting figure beside
  // the robber scored, not half of the feature; the one expression of the row.
  auto robber = find("Robber beside scoring");
  REQUIRE(robber.size() == 1);
  REQUIRE(robber.front()->points.size() == 1);
  const auto& stolen = robber.front()->points.front();
  CHECK(stolen.points.op == extract::PointsOp::fraction);
  CHECK(stolen.points.value == 1);
  CHECK(stolen.points.denominator == 2);
  CHECK(stolen.points.basis == "primary");
  CHECK(stolen.points.rounding == "up");
  CHECK(stolen.when == "true");
  CHECK(robber.front()->when == "Robbers");

  // The teacher's rows: equal points to the feature's scoring, one per feature block.
  std::size_t teacher = 0;
  for (const auto& r : seed().rules)
    if (r.rules.text == "Equal points to feature scoring") {
      ++teacher;
      CHECK(!r.points_unparsed);
      REQUIRE(r.points.size() == 1);
      CHECK(r.points.front().points.op == extract::PointsOp::multiply);
      CHECK(r.points.front().points.value == 1);
      CHECK(r.points.front().points.basis == "feature");
      CHECK(r.when.find("Teacher") != std::string::npos);
    }
  CHECK(teacher == 13);
}

TEST_CASE("rows shown by page-computed step classes belong to that step") {
  // `showStep<X>_Messages` and `showStep<X>_Complete` rows are shown by the page's script
  // (schema/selectors.yaml `structural`), not by a selection: the rule the row holds is
  // under step <X>, and its condition is only what the class requires (Messages) or none.
  std::string text;
  support::DiagnosticSink sink;
  ingest::read_inputs({test::source_path("corpus/wica/scoring-during-turn-sequence.xml")}, {}, sink,
                      [&](const ingest::SiteInfo&, ingest::Page&& page) { text = page.revision.text; });
  REQUIRE(!text.empty());
  const std::string mark = "class=\"showStep";
  std::map<std::string, std::size_t> rows;
  for (std::size_t at = text.find(mark); at != std::string::npos; at = text.find(mark, at + 1)) {
    std::size_t begin = at + mark.size(), end = text.find('"', begin);
    REQUIRE(end != std::string::npos);
    std::string name = text.substr(begin, end - begin);  // "1A_Messages", "2B-2_Complete"
    std::size_t us = name.find('_');
    REQUIRE(us != std::string::npos);
    std::string step = name.substr(0, us), what = name.substr(us + 1);
    if (what == "Empty") continue;  // "no particular actions" rows: non-rules
    std::size_t row = text.rfind("|-", at);
    REQUIRE(row != std::string::npos);
    const extract::Rule* first = nullptr;
    for (const auto& r : seed().rules)
      if (r.source.offset >= static_cast<std::int64_t>(row) && (!first || r.source.offset < first->source.offset))
        first = &r;
    REQUIRE(first);
    INFO("row of showStep" << name << ": rule " << first->id);
    CHECK(first->parent.empty());
    CHECK(first->step.rfind("Step " + step + ":", 0) == 0);
    CHECK(first->when == (what == "Messages" ? "Messages" : "true"));
    ++rows[what];
  }
  CHECK(rows["Messages"] == 4);
  CHECK(rows["Complete"] == 1);
}

TEST_CASE("rule ids are unique, readable and sub-rules sit under their parent") {
  std::set<std::string> ids;
  for (const auto& r : seed().rules) {
    CHECK(ids.insert(r.id).second);
    CHECK(r.id.rfind("carcassonne-scoring-during-turn-sequence/", 0) == 0);
    if (!r.parent.empty()) {
      CHECK(ids.count(r.parent) == 1);
      CHECK(r.id.rfind(r.parent + "/", 0) == 0);
    }
  }
  // Repeated descriptions are told apart by their condition, and reported.
  CHECK(seed().id_collisions > 0);
  CHECK(ids.count("carcassonne-scoring-during-turn-sequence/step-3b-resolve-completed-features-special-figures/road/"
                  "road-with-labyrinth-s-labyrinth") == 1);
  // Per-edition wording is kept apart, never concatenated.
  for (const auto& r : seed().rules) CHECK(r.description.text.find("followermeeple") == std::string::npos);
}

TEST_CASE("a block's image cell with a scoring class names the block and is no rule") {
  // The monastery block's image cell carries class="scoringTile" itself; it once became
  // an empty rule that every monastery row hung under.
  for (const auto& r : seed().rules) {
    INFO(r.id);
    CHECK(!(empty_text(r.description) && empty_text(r.rules)));
  }
  std::size_t images = 0;
  for (const auto& n : seed().non_rules)
    if (n.reason == "block-image") {
      ++images;
      CHECK(n.text.find("Cloister") != std::string::npos);
      CHECK(n.scoring_cells == 1);
    }
  CHECK(images == 1);
  CHECK(seed().cells.by_use.at("block-image") == 1);
  auto monastery = find("Monastery / Shrine / Abbey");
  REQUIRE(!monastery.empty());
  CHECK(monastery.front()->block == "Cloister");
  CHECK(monastery.front()->parent.empty());
}

TEST_CASE("trigger icons are found wherever the description's text walk stops") {
  // collect() stops at a trigger box and at subtrees it reads none or part of (a
  // reference template shown as an image); the icons are looked for only there, so a
  // box in such a subtree and a box inside a box must still count.
  const auto path = std::filesystem::temp_directory_path() / "wikic-extract-trigger-boxes.wiki";
  {
    std::ofstream out(path);
    out << "== Scoring ==\n{| class=\"wikitable\"\n|-\n"
           "| class=\"scoringFeature\" | Road bonus <span class=\"wica-white-box\">\u2192 "
           "[[File:Figure_Robber.png|20px]]</span>\n| 2 points / tile\n|-\n"
           "| class=\"scoringFeature\" | Field bonus {{Feature|name=Field|variant=image|text=<span "
           "class=\"wica-white-box\">[[File:Token_Castle.png|20px]]</span>}}\n| 3 points / tile\n|-\n"
           "| class=\"scoringFeature\" | City bonus <span class=\"wica-white-box\">[[File:Figure_Robber.png|20px]]"
           "<span class=\"wica-white-box\">[[File:Figure_Teacher.png|20px]]</span></span>\n| 4 points / tile\n|}\n";
  }
  const extract::PageRules page = test::compile_page(path.string());
  std::filesystem::remove(path);
  std::map<std::string, std::vector<std::string>> triggers;
  for (const auto& r : page.rules) triggers[r.description.text.str()] = r.triggers;
  CHECK(triggers["Road bonus"] == std::vector<std::string>{"robbers"});
  CHECK(triggers["Field bonus"] == std::vector<std::string>{"castle"});
  CHECK(triggers["City bonus"] == std::vector<std::string>{"robbers", "teacher"});
}

TEST_CASE("a table in the row after a rule holds that rule's sub-rules") {
  // "Land surveyor action for monastic features … Depending on active scoring tile", then
  // a row of <hr> and the table of the three scoring tiles it depends on.
  auto action = find("action for monastic features");
  REQUIRE(action.size() == 1);
  std::vector<std::string> tiles;
  for (const auto& r : seed().rules)
    if (r.parent == action.front()->id) tiles.push_back(r.description.text);
  CHECK(tiles == std::vector<std::string>{"Hermit Monastery scoring tile", "Pilgrimage Route scoring tile",
                                          "Wealth scoring tile"});
  // Nested twice: Catapult → Playing catch → its four outcomes.
  auto catapult = find("Catapult"), playing = find("Playing catch"), caught = find("Caught");
  REQUIRE(catapult.size() == 1);
  REQUIRE(playing.size() == 1);
  REQUIRE(caught.size() == 1);
  CHECK(playing.front()->parent == catapult.front()->id);
  CHECK(caught.front()->parent == playing.front()->id);
  std::size_t outcomes = 0;
  for (const auto& r : seed().rules) outcomes += r.parent == playing.front()->id;
  CHECK(outcomes == 4);
  // A rule whose next row is a plain spacer keeps its siblings as siblings.
  auto bets = find("Betting chip 2/6");
  REQUIRE(bets.size() == 1);
  CHECK(bets.front()->parent.empty());
  CHECK(seed().sub_rules > 0);
}

TEST_CASE("a note's edition is in its wording, its expansions in its when") {
  // `<ul class="showC1"><li class="showDoubleSizedTiles">A double-sized tile counts as 1
  // tile</li>` under the watchtower: for DoubleSizedTiles readers, in the C1 wording only.
  auto watchtower = find("Watchtower: Player with a meeple on road segment");
  REQUIRE(watchtower.size() == 1);
  std::size_t found = 0;
  for (const auto& n : watchtower.front()->notes) {
    if (n.text.uniform || n.text.c1 != "A double-sized tile counts as 1 tile") continue;
    ++found;
    CHECK(n.when == "DoubleSizedTiles");
    CHECK(n.text.c2.empty());
    CHECK(n.text.we.empty());
  }
  CHECK(found == 1);
  // No note condition names an edition: that is what the per-edition wording says.
  for (const auto& r : seed().rules)
    for (const auto& n : r.notes) {
      INFO(r.id << " note when " << n.when);
      for (const char* e : {"C1", "C2", "WE"}) {
        std::size_t at = n.when.find(e);
        bool atom = at != std::string::npos && (at == 0 || std::string_view(" (!").find(n.when[at - 1]) != std::string_view::npos) &&
                    (at + 2 == n.when.size() || n.when[at + 2] == ' ' || n.when[at + 2] == ')');
        CHECK_FALSE(atom);
      }
    }
}

TEST_CASE("wikic compile writes rules files that validate and are byte-identical run to run") {
  test::ScratchDir a, b;
  std::string corpus = test::source_path("corpus/wica");
  auto ra = test::run_wikic("compile " + corpus + " --out " + a.path.string());
  auto rb = test::run_wikic("compile " + corpus + " --out " + b.path.string());
  CHECK(ra.status == 0);
  for (const char* name : {"rules.yaml", "rules.xml", "rules.json", "diagnostics.txt"}) {
    INFO(name);
    std::string text = test::slurp(a / name);
    CHECK(!text.empty());
    CHECK(text == test::slurp(b / name));
  }
  std::string xsd = test::source_path("schema/rules.xsd");
  std::string xml_cmd = "xmllint --noout --schema " + xsd + " " + (a / "rules.xml").string() + " 2>/dev/null";
  CHECK(std::system(xml_cmd.c_str()) == 0);
  std::string json_cmd = "python3 -c 'import json,sys,jsonschema; jsonschema.validate(json.load(open(sys.argv[2])), "
                         "json.load(open(sys.argv[1])))' " +
                         test::source_path("schema/rules.schema.json") + " " + (a / "rules.json").string();
  CHECK(std::system(json_cmd.c_str()) == 0);
  // The YAML is the same document: every rule id of the JSON appears in it.
  std::string yaml = test::slurp(a / "rules.yaml");
  CHECK(yaml.find("wikic-rules: \"1\"") != std::string::npos);
  CHECK(ra.err.find("wikic: rules: 1 page, ") != std::string::npos);
}

TEST_CASE("wikic query lists the visible rules in the edition's wording") {
  test::ScratchDir out;
  auto compiled = test::run_wikic("compile " + test::source_path("corpus/wica") + " --out " + out.path.string());
  REQUIRE(compiled.status == 0);
  auto c1 = test::run_wikic("query " + (out / "rules.yaml").string() + " --edition C1 --with Fairy");
  CHECK(c1.status == 0);
  CHECK(c1.out.find("#### Fairy\n- [meeple] Fairy bonus: Player with fairy assigned to follower: 1 point / turn start") !=
        std::string::npos);
  CHECK(c1.out.find("meeple\n") == std::string::npos);
  CHECK(c1.out.find("Road with well") == std::string::npos);  // Wells not selected

  auto c2 = test::run_wikic("query " + (out / "rules.json").string() + " --edition C2 --with Inns,Wells --format json");
  CHECK(c2.status == 0);
  CHECK(c2.out.find("\"description\": \"Road with well(s)\"") != std::string::npos);
  CHECK(c2.out.find("(+2) points / well on road with inn") != std::string::npos);
  auto without_inns = test::run_wikic("query " + (out / "rules.json").string() + " --with Wells --format yaml");
  CHECK(without_inns.out.find("Road with well(s)") != std::string::npos);
  CHECK(without_inns.out.find("(+2) points / well on road with inn\"]") == std::string::npos);

  // Sub-rules are indented by their depth; a rule with no text of its own ends at its
  // description.
  auto catapult = test::run_wikic("query " + (out / "rules.yaml").string() + " --with Catapult");
  CHECK(catapult.out.find("- [feature] Catapult: Depends on token\n"
                          "  - [feature] Archery tournament: Depends on the outcome\n"
                          "    - [feature] Token which lands closest to the target fair tile: Hurler 5 points\n") !=
        std::string::npos);
  auto revolt = test::run_wikic("query " + (out / "rules.yaml").string() + " --with PeasantRevolts");
  CHECK(revolt.out.find("- [meeple] Peasant revolt: Protecting a phantom\n"
                        "  - [meeple] Protecting phantom during placement: (-4) points\n") != std::string::npos);
}

TEST_CASE("extraction never crashes on damaged pages (slices of the seed, odd markup)") {
  std::string seed_text = test::slurp(WIKIC_SHARED_DIR "/peers/data/sdts.restored.wiki");
  REQUIRE(seed_text.size() > 100000);
  std::vector<std::string> inputs = {
      "", "{|", "{{ScoringRow}}", "{{ScoringRow|rules=|description=}}\n|}", "{| class=\"scoringCoreLegend\"\n|-\n|",
      "{|\n|-\n| class=\"scoringTile\" rowspan=99999999999 | a || b\n|}",
      "{|\n|-\n| class=\"scoringMeeple\" | x\n|-\n|}\n{{ScoringBegin|name=X}}{{ScoringRowEnd}}{{ScoringRowEnd}}",
      std::string(5000, '{') + std::string(5000, '|'), "<!-- unclosed comment class=\"scoringTile\""};
  // Deterministic slices: cutting anywhere leaves unclosed tables, spans and templates.
  std::uint32_t x = 12345;
  for (int i = 0; i < 12; ++i) {
    x = x * 1103515245u + 12345u;
    std::size_t begin = x % seed_text.size();
    x = x * 1103515245u + 12345u;
    inputs.push_back(seed_text.substr(begin, x % 20000));
  }
  ingest::SiteInfo site = ingest::default_site();
  for (const auto& text : inputs) {
    ingest::Page page;
    page.title = "Damaged";
    page.revision.text = text;
    page.source.file = "damaged.wiki";
    expand::TemplateStore store(site);
    support::DiagnosticSink sink;
    auto rules = cli::Pipeline(store, sink).compile(page);
    CHECK(rules.cells.unaccounted <= rules.cells.total);
    for (const auto& r : rules.rules) CHECK(!r.id.empty());
  }
}

TEST_CASE("comments are found wherever they open, among the '!' and '<' of other markup") {
  // The scan looks for the '!' of "<!--": a lone '!', a "<!" or "<!-" that opens nothing,
  // a comment right after a '!' or at the very start, and one never closed.
  ingest::Page page;
  page.title = "Comments";
  page.revision.text = "<!--a-->x ! y <! z <!- w<!--b-->!<!--c--> !! <!-- d";
  page.source.file = "comments.wiki";
  ingest::SiteInfo site = ingest::default_site();
  expand::TemplateStore store(site);
  support::DiagnosticSink sink;
  auto rules = cli::Pipeline(store, sink).compile(page);
  std::vector<std::pair<std::string, std::uint32_t>> comments;
  for (const auto& n : rules.non_rules)
    if (n.reason == "comment") comments.emplace_back(n.text, n.column);
  const std::vector<std::pair<std::string, std::uint32_t>> expected = {{"a", 1}, {"b", 25}, {"c", 34}, {"d", 46}};
  CHECK(comments == expected);
}

TEST_CASE("wikic/db.hpp loads rules.json and rules.yaml into the same structs") {
  std::string error;
  auto json = db::load(test::source_path("tests/golden/wica/rules.json"), error);
  REQUIRE_MESSAGE(json, error);
  auto yaml = db::load(test::source_path("tests/golden/wica/rules.yaml"), error);
  REQUIRE_MESSAGE(yaml, error);
  REQUIRE(json->pages.size() == 1);
  REQUIRE(yaml->pages.size() == 1);
  const auto& a = json->pages[0].rules;
  const auto& b = yaml->pages[0].rules;
  REQUIRE(a.size() == b.size());
  CHECK(a.size() == seed().rules.size());
  for (std::size_t i = 0; i < a.size(); ++i) {
    CHECK(a[i].id == b[i].id);
    CHECK(a[i].when == b[i].when);
    CHECK(a[i].rules.in("C1") == b[i].rules.in("C1"));
    CHECK(a[i].points.size() == b[i].points.size());
    CHECK(a[i].source.offset == b[i].source.offset);
  }
  auto wells = std::find_if(a.begin(), a.end(), [](const db::Rule& r) { return r.description.in("C2") == "Road with well(s)"; });
  REQUIRE(wells != a.end());
  CHECK(wells->when == "Wells");
  CHECK(wells->references == std::vector<std::string>{"Feature:Well", "Feature:Inn"});
  CHECK(!db::load("/nonexistent/rules.json", error));
  CHECK(error.find("cannot open") != std::string::npos);
}

TEST_CASE("an empty rule database is still a valid document in every format") {
  emit::RulesDatabase empty;
  empty.header.sitename = "Test";
  auto files = empty.render();
  auto json = nlohmann::json::parse(files.json);
  CHECK(json["pages"].empty());
  CHECK(json["summary"]["rules"] == 0);
  CHECK(files.yaml.find("pages: []\nsummary:\n  pages: 0\n") != std::string::npos);
  CHECK(files.xml.find("<pages>\n  </pages>") != std::string::npos);
  std::string error;
  auto db = db::parse(files.yaml, "yaml", error);
  REQUIRE_MESSAGE(db, error);
  CHECK(db->sitename == "Test");
}

TEST_CASE("rules.json prints every string exactly as nlohmann's dump does, control characters included") {
  emit::RulesDatabase db;
  extract::PageRules page;
  page.title = "Odd \"quoted\" \\ page";
  extract::Rule rule;
  rule.id = "odd/rule";
  rule.description.text = std::string("tab\there, bell\x07, nul-free \x01\x1f, newline\n, quote \" and \\ and UTF-8 \xC3\xA9 \xE2\x86\x92");
  rule.rules.text = "\b\f\r";
  page.rules.push_back(rule);
  db.add(page);
  auto files = db.render();
  auto json = nlohmann::ordered_json::parse(files.json);
  const auto& r = json["pages"][0]["rules"][0];
  CHECK(r["description"] == rule.description.text.str());
  CHECK(r["rules"] == rule.rules.text.str());
  CHECK(json["pages"][0]["title"] == page.title);
  // The rule is one line, as nlohmann's dump() prints it, eight spaces in; the page
  // around it is laid out as dump(2) lays it out, four spaces in.
  CHECK(files.json.find("\n      \"rules\": [\n        " + r.dump() + "\n      ],\n") != std::string::npos);
  CHECK(files.json.find("\n    {\n      \"title\": " + json["pages"][0]["title"].dump() + ",\n") != std::string::npos);
}

TEST_CASE("SharedText reads as the string it was made from and its copies share it") {
  const extract::SharedText none, blank(""), robber("Road (robber)");
  CHECK(none.empty());
  CHECK(blank.empty());
  CHECK(none == blank);
  CHECK(none == "");
  CHECK(std::string(none.c_str()).empty());
  CHECK(robber == "Road (robber)");
  CHECK(robber != "Road (robber");
  CHECK(robber.size() == std::size_t{13});
  CHECK(std::string(robber.c_str()) == "Road (robber)");  // terminated
  CHECK(robber.find("robber") == std::size_t{6});
  CHECK(robber.starts_with("Road"));
  const extract::SharedText copy = robber;
  CHECK(copy.same(robber));
  const extract::SharedText again("Road (robber)");
  CHECK(!again.same(robber));
  CHECK(again == robber);
  CHECK(extract::SharedText("Road") < robber);
  std::string as_string = robber;
  CHECK(as_string == "Road (robber)");
  extract::SharedText moved = std::move(as_string);
  CHECK(moved == robber);
}

TEST_CASE("SharedText: the last holder frees the text, whichever threads dropped the other copies") {
  // release() frees without a locked subtract when it sees a count of 1. Copies made and
  // dropped on other threads must leave the text whole for the holders still alive (the
  // suite runs under AddressSanitizer, which reports a text freed too early or twice).
  const std::string words(100, 'w');
  for (int round = 0; round < 20; ++round) {
    auto kept = std::make_unique<extract::SharedText>(words);
    std::vector<std::thread> threads;
    for (int t = 0; t < 4; ++t)
      threads.emplace_back([first = *kept] {
        std::vector<extract::SharedText> copies(200, first);
        for (auto& copy : copies) copy = extract::SharedText();
      });
    const extract::SharedText mine = *kept;
    kept.reset();  // `mine` may now be the last holder, or a thread's copies outlive it
    for (auto& thread : threads) thread.join();
    CHECK(mine == words);
  }
}

TEST_CASE("text_hash reads every byte of a text of any length, and only its bytes") {
  // Its last bytes are read by loads that overlap earlier ones (sixteen, eight or four
  // bytes, or three single bytes): a change of any one byte at any length changes the
  // hash, and the bytes around a view (here a larger buffer) are never read.
  std::string buffer(96, 'a');
  for (std::size_t i = 0; i < buffer.size(); ++i) buffer[i] = static_cast<char>('a' + i * 7 % 26);
  for (std::size_t length = 0; length <= 48; ++length) {
    INFO("length " << length);
    const std::string_view text(buffer.data() + 16, length);
    const std::uint64_t h = extract::text_hash(text);
    // The same bytes elsewhere hash alike, whatever stands around them.
    std::string copy = "zz" + std::string(text) + "zz";
    CHECK(extract::text_hash(std::string_view(copy).substr(2, length)) == h);
    buffer[15] ^= 0x55;
    buffer[16 + length] ^= 0x55;
    CHECK(extract::text_hash(text) == h);
    buffer[15] ^= 0x55;
    buffer[16 + length] ^= 0x55;
    for (std::size_t at = 0; at < length; ++at) {
      buffer[16 + at] ^= 0x20;
      CHECK(extract::text_hash(text) != h);
      buffer[16 + at] ^= 0x20;
    }
    if (length > 0) CHECK(extract::text_hash(text.substr(0, length - 1)) != h);
  }
}

TEST_CASE("a page's rules share one string for their source and structure") {
  // Rule texts are not interned (see PageExtractor::shared): a repeated cell or note
  // shares its first copy's strings, other equal texts may be strings of their own.
  const auto& rules = seed().rules;
  REQUIRE(rules.size() > 100);
  std::size_t shared_sections = 0;
  for (std::size_t i = 0; i < rules.size(); ++i) {
    const extract::Rule& r = rules[i];
    CHECK(r.source.page.same(rules[0].source.page));
    CHECK(r.source.file.same(rules[0].source.file));
    CHECK(r.source.page == seed().title);
    if (i > 0 && r.section == rules[i - 1].section) {
      CHECK(r.section.same(rules[i - 1].section));
      ++shared_sections;
    }
  }
  CHECK(shared_sections > rules.size() / 2);
}

TEST_CASE("a class list is split at HTML whitespace only, whatever the lengths of its names") {
  // The split reads a word at a time: names of 7 to 17 bytes put a separator on either
  // side of a word's edge and at a value's end, and a control byte (not whitespace) in a
  // name, found the same way, must not split it. (A newline would end the cell's line.)
  struct Case {
    std::string classes;
    bool scoring;
  };
  const std::vector<Case> cases = {
      {"abcdefg scoringMeeple", true},
      {"scoringMeeple", true},
      {"abcdefgh\tscoringMeeple", true},
      {"abcdefghijklmno\fscoringMeeple", true},
      {"abcdefghijklmnopq\rscoringMeeple x", true},
      {"wica-white-box scoringMeeple", true},
      {"scoringMeeple\t ", true},
      {"abcdefgh\x01scoringMeeple", false},
      {"scoringMeeple\x01", false},
      {"abcdefghijklmnopqrstuvw\x02scoringMeeple", false},
      {"xscoringMeeple abcdefghij", false},
      {"abcdefghij scoringMeeplX", false},
  };
  ingest::SiteInfo site = ingest::default_site();
  for (const auto& c : cases) {
    INFO(c.classes);
    ingest::Page page;
    page.title = "Classes";
    page.revision.text = "{|\n|-\n| class=\"" + c.classes + "\" | some text\n|}\n";
    page.source.file = "classes.wiki";
    expand::TemplateStore store(site);
    support::DiagnosticSink sink;
    auto rules = cli::Pipeline(store, sink).compile(page);
    CHECK(rules.cells.total == (c.scoring ? 1u : 0u));
  }
}

TEST_CASE("a rules cell repeated word for word reads as the first one, node by node") {
  // The three rows' rules cells are the same text; extraction reads the first and takes
  // that reading for the repeats once they match node by node, own conditions included
  // (looked up per node in the page's table of distinct conditions, which here has fewer
  // entries than a cell has nodes: under the sanitizers a lookup by the wrong index
  // reads past it).
  auto page = test::compile_page(test::source_path("corpus/extract/repeated-cells.wiki"));
  REQUIRE(page.rules.size() == 3);
  const extract::Rule& first = page.rules.front();
  CHECK(first.description.text == "First road");
  CHECK(first.when == "Inns");
  CHECK(std::string(first.rules.c1).find("follower on the inn road") != std::string::npos);
  CHECK(std::string(first.rules.text).find("meeple on the inn road") != std::string::npos);
  CHECK(first.points.size() == 3);
  for (const auto& r : page.rules) {
    CHECK(r.rules.text == first.rules.text);
    CHECK(r.rules.c1 == first.rules.c1);
    CHECK(r.rules.c2 == first.rules.c2);
    CHECK(r.when == first.when);
    CHECK(r.points.size() == first.points.size());
  }
  CHECK(page.rules[1].description.text == "Second road");
  CHECK(page.rules[2].description.text == "Third road");
}

TEST_CASE("a row that starts with trigger arrows is blank only when nothing else follows them") {
  // The first byte of a row's text is found without building the text; past an arrow
  // the rest is read to tell whether cleaning trims the text to nothing (then the row,
  // which holds an <hr>, is a spacer) or keeps the arrow. The first and third rows
  // (lines 4 and 8 of the page text, which starts after the file's header comment) are
  // arrows and whitespace alone, the third through an entity; the others go on with a word.
  auto page = test::compile_page(test::source_path("corpus/extract/arrow-rows.wiki"));
  std::vector<std::size_t> spacers;
  for (const auto& n : page.non_rules)
    if (n.reason == "spacer") spacers.push_back(n.line);
  CHECK(spacers == std::vector<std::size_t>{4, 8});
}

TEST_CASE("the walk still reads inside a rule's cells after their text is collected") {
  // A rule's cells are walked again after collect() read their text: an element there can
  // be a non-rule, a phase box there starts a phase for the rows below, and a ScoringRow
  // the parser kept inline in a cell is a rule of its own (the seed page has those). A
  // walk that skipped what collect() had read would lose all three.
  ingest::Page page;
  page.title = "Inside cells";
  page.revision.text =
      "{|\n"
      "|-\n"
      "| class=\"scoringTile\" | First rule || 1 point <div>Transmogrifying in progress</div>\n"
      "|-\n"
      "| class=\"scoringTile\" | Second rule || 2 points <div class=\"fake-h4\">Phase two</div>\n"
      "|-\n"
      "| class=\"scoringTile\" | Third rule || 3 points\n"
      "|}\n";
  page.source.file = "inside.wiki";
  ingest::SiteInfo site = ingest::default_site();
  expand::TemplateStore store(site);
  support::DiagnosticSink sink;
  auto rules = cli::Pipeline(store, sink).compile(page);
  auto rule = [&](std::string_view description) -> const extract::Rule* {
    for (const auto& r : rules.rules)
      if (r.description.text.view() == description) return &r;
    return nullptr;
  };
  REQUIRE(rule("First rule"));
  REQUIRE(rule("Second rule"));
  REQUIRE(rule("Third rule"));
  CHECK(rule("Second rule")->phase.view().empty());
  CHECK(rule("Third rule")->phase.view() == "Phase two");
  std::size_t placeholders = 0;
  for (const auto& n : rules.non_rules)
    if (n.reason == "placeholder" && n.text == "Transmogrifying in progress") ++placeholders;
  CHECK(placeholders == 1);
}
