// `wikic l10n` as a translator's nightly job runs it, on corpus/l10n/unit/roads.xml (a
// small export: source page, French unit pages and translation page, Czech unit pages):
// the files it writes, completeness, findings with line numbers, --lang, --previous,
// byte-identical reruns, and `wikic compile` writing the same report.
#include <doctest/doctest.h>

#include <yaml-cpp/yaml.h>

#include <filesystem>

#include "util/run.hpp"

using wikic::test::run_wikic;
using wikic::test::ScratchDir;
using wikic::test::slurp;
using wikic::test::source_path;
using wikic::test::spit;

namespace {

const std::string kRoads = "corpus/l10n/unit/roads.xml";

YAML::Node page_entry(const YAML::Node& lang, const std::string& page) {
  for (const auto& p : lang["pages"])
    if (p["page"].as<std::string>() == page) return p;
  return {};
}

std::vector<std::string> ids(const YAML::Node& list) {
  std::vector<std::string> out;
  for (const auto& x : list) out.push_back(x.as<std::string>());
  return out;
}

}  // namespace

TEST_CASE("wikic l10n writes every report file, byte-identical from run to run") {
  ScratchDir dir;
  auto a = run_wikic("l10n " + source_path(kRoads) + " --out " + (dir / "a").string());
  auto b = run_wikic("l10n " + source_path(kRoads) + " --out " + (dir / "b").string());
  CHECK(a.status == 0);
  CHECK(b.status == 0);
  for (const char* name : {"fr.yaml", "fr.xml", "fr.json", "cs.yaml", "cs.xml", "cs.json", "summary.yaml", "index.html"}) {
    INFO(name);
    std::string x = slurp(dir / "a" / "l10n" / name);
    CHECK_FALSE(x.empty());
    CHECK(x == slurp(dir / "b" / "l10n" / name));
  }
  CHECK(a.err.find("wikic: l10n: cs 44% (4/9, 0 fuzzy), fr 77% (7/9, 1 fuzzy)\n") != std::string::npos);
  // Findings are GNU-style diagnostics naming the translation page and line.
  CHECK(a.err.find("#Roads/fr:13:1: warning: [fr] unit 7: selector-lost: selector classes missing: showCathedrals") !=
        std::string::npos);
  // No temporary files left behind.
  for (const auto& e : std::filesystem::directory_iterator(dir / "a" / "l10n"))
    CHECK(e.path().filename().string().find(".tmp") == std::string::npos);
}

TEST_CASE("the French report: completeness, statuses with their evidence, findings with lines") {
  ScratchDir dir;
  auto r = run_wikic("l10n " + source_path(kRoads) + " --out " + dir.path.string());
  REQUIRE(r.status == 0);
  YAML::Node fr = YAML::LoadFile((dir / "l10n" / "fr.yaml").string());
  YAML::Node p = page_entry(fr, "Roads");
  REQUIRE(p);
  CHECK(p["translation_page"].as<std::string>() == "Roads/fr");
  CHECK(p["total"].as<int>() == 9);
  CHECK(p["translated"].as<int>() == 7);
  CHECK(p["fuzzy"].as<int>() == 1);
  CHECK(p["untranslated"].as<int>() == 1);
  CHECK(p["percent_complete"].as<int>() == 77);
  CHECK(p["percent_translate_bar"].as<int>() == 78);
  CHECK(ids(p["units"]["fuzzy"]) == std::vector<std::string>{"5"});
  CHECK(ids(p["units"]["untranslated"]) == std::vector<std::string>{"8"});
  std::map<std::string, std::string> evidence;
  for (const auto& u : p["unit_status"]) evidence[u["id"].as<std::string>()] = u["evidence"].as<std::string>();
  CHECK(evidence["Page display title"] == "units");
  CHECK(evidence["2"] == "both");
  CHECK(evidence["8"] == "translation-page");
  std::vector<std::string> found;
  for (const auto& f : p["findings"]) {
    std::string lines;
    for (const auto& l : f["lines"]) lines += " " + l.as<std::string>();
    found.push_back(f["unit"].as<std::string>() + " " + f["kind"].as<std::string>() + " " +
                    f["severity"].as<std::string>() + lines);
  }
  CHECK(found == std::vector<std::string>{"7 number-changed error 13", "7 selector-lost error 13"});
  // The rules of the French page against the English ones: the inn's points changed.
  YAML::Node rules = p["rules"];
  CHECK(rules["compared"].as<bool>());
  CHECK(rules["translation_from"].as<std::string>() == "translation-page");
  bool points_changed = false;
  for (const auto& d : rules["differences"])
    if (d["kind"].as<std::string>() == "points-different" && d["description"].as<std::string>() == "Road with an inn")
      points_changed = d["source"].as<std::string>() == "add 2" && d["translation"].as<std::string>() == "add 3";
  CHECK(points_changed);
  // The dashboard shows the language and the findings table.
  std::string html = slurp(dir / "l10n" / "index.html");
  CHECK(html.find("id=\"lang-fr\"") != std::string::npos);
  CHECK(html.find("selector-lost") != std::string::npos);
}

TEST_CASE("the Czech report comes from unit pages only, its rules from a page assembled like FuzzyBot's") {
  ScratchDir dir;
  auto r = run_wikic("l10n " + source_path(kRoads) + " --lang cs --out " + dir.path.string());
  REQUIRE(r.status == 0);
  CHECK_FALSE(std::filesystem::exists(dir / "l10n" / "fr.yaml"));
  YAML::Node p = page_entry(YAML::LoadFile((dir / "l10n" / "cs.yaml").string()), "Roads");
  REQUIRE(p);
  CHECK(p["translation_page"].as<std::string>().empty());
  CHECK(ids(p["units"]["translated"]) == std::vector<std::string>{"1", "3", "7", "8"});
  CHECK(ids(p["units"]["untranslated"]) == std::vector<std::string>{"Page display title", "2", "4", "5", "6"});
  CHECK(p["rules"]["translation_from"].as<std::string>() == "units");
  CHECK(p["findings"].size() == 0);
}

TEST_CASE("--previous marks translations whose source unit changed since the earlier run") {
  ScratchDir dir;
  REQUIRE(run_wikic("l10n " + source_path(kRoads) + " --out " + (dir / "night1").string()).status == 0);
  std::string xml = slurp(source_path(kRoads));
  auto at = xml.find("when it is completed.");
  REQUIRE(at != std::string::npos);
  xml.replace(at, 21, "once it is completed.");
  spit(dir / "changed.xml", xml);
  auto r = run_wikic("l10n " + (dir / "changed.xml").string() + " --previous " + (dir / "night1").string() + " --out " +
                     (dir / "night2").string());
  CHECK(r.status == 0);
  YAML::Node p = page_entry(YAML::LoadFile((dir / "night2" / "l10n" / "fr.yaml").string()), "Roads");
  CHECK(p["outdated_unmarked"].as<int>() == 1);
  std::vector<std::string> outdated;
  for (const auto& u : p["unit_status"])
    if (u["outdated_unmarked"]) outdated.push_back(u["id"].as<std::string>());
  CHECK(outdated == std::vector<std::string>{"2"});
  CHECK(r.err.find("outdated-unmarked") != std::string::npos);
  // An unreadable previous run is an I/O error.
  CHECK(run_wikic("l10n " + source_path(kRoads) + " --previous " + (dir / "nowhere").string() + " --out " +
                  (dir / "x").string())
            .status == 2);
}

TEST_CASE("wikic compile writes the translation report when the export holds translations") {
  ScratchDir dir;
  auto r = run_wikic("compile " + source_path(kRoads) + " --out " + dir.path.string());
  CHECK(r.status == 0);
  CHECK(std::filesystem::exists(dir / "l10n" / "summary.yaml"));
  CHECK(std::filesystem::exists(dir / "l10n" / "index.html"));
  CHECK(r.err.find("wikic: l10n: cs 44%") != std::string::npos);
  // …and not when it holds none.
  ScratchDir plain;
  REQUIRE(run_wikic("compile " + source_path("corpus/wica/scoring-during-turn-sequence.xml") + " --out " +
                    plain.path.string())
              .status == 0);
  CHECK_FALSE(std::filesystem::exists(plain / "l10n"));
}
