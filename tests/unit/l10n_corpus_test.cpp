// Acceptance of the translation report on the corpus fixtures of corpus/l10n/: `wikic l10n`
// runs on each fixture and its report must equal the hand counts in
// corpus/l10n/expected/<fixture>.yaml (written from how the fixtures were built, never from
// wikic's output): completeness and unit lists per page and language, the evidence used,
// the marker problems, the deliberate defects as findings, the lines of Page/xx that show
// raw table markup, and the rule differences against English.
#include <doctest/doctest.h>

#include <yaml-cpp/yaml.h>

#include <map>
#include <set>

#include "ingest/input.hpp"
#include "l10n/source_page.hpp"
#include "util/run.hpp"

using wikic::test::run_wikic;
using wikic::test::ScratchDir;
using wikic::test::source_path;

namespace {

struct Run {
  YAML::Node expected;
  std::map<std::string, YAML::Node> by_language;  ///< out/l10n/<lang>.yaml
  YAML::Node summary;
  std::string err;
  int status = -1;
};

const Run& run(const std::string& fixture) {
  static std::map<std::string, Run> runs;
  auto it = runs.find(fixture);
  if (it != runs.end()) return it->second;
  Run r;
  r.expected = YAML::LoadFile(source_path("corpus/l10n/expected/" + fixture + ".yaml"));
  ScratchDir dir;
  auto result = run_wikic("l10n " + source_path(r.expected["fixture"].as<std::string>()) + " --out " + dir.path.string());
  r.status = result.status;
  r.err = result.err;
  for (const auto& page : r.expected["pages"])
    for (const auto& lang : page["languages"]) {
      std::string code = lang.first.as<std::string>();
      if (!r.by_language.count(code)) r.by_language[code] = YAML::LoadFile((dir / "l10n" / (code + ".yaml")).string());
    }
  r.summary = YAML::LoadFile((dir / "l10n" / "summary.yaml").string());
  return runs.emplace(fixture, std::move(r)).first->second;
}

YAML::Node entry(const Run& r, const std::string& lang, const std::string& page) {
  for (const auto& p : r.by_language.at(lang)["pages"])
    if (p["page"].as<std::string>() == page) return p;
  return {};
}

std::vector<std::string> strings(const YAML::Node& n) {
  std::vector<std::string> out;
  if (n && n.IsSequence())
    for (const auto& x : n) out.push_back(x.as<std::string>());
  return out;
}

std::vector<int> ints(const YAML::Node& n) {
  std::vector<int> out;
  if (n && n.IsSequence())
    for (const auto& x : n) out.push_back(x.as<int>());
  return out;
}

const char* const kFixtures[] = {"scoring-after-the-game", "turn-sequence-multilingual"};

// Calls check(hand count, report entry) for every page and language the fixtures' hand
// counts list; the report must have an entry for each.
template <class Check>
void each_language(Check check) {
  for (const char* fixture : kFixtures) {
    const Run& r = run(fixture);
    for (const auto& page : r.expected["pages"]) {
      std::string title = page["page"].as<std::string>();
      for (const auto& l : page["languages"]) {
        std::string lang = l.first.as<std::string>();
        INFO(fixture << " " << title << " " << lang);
        YAML::Node got = entry(r, lang, title);
        REQUIRE(got);
        check(l.second, got);
      }
    }
  }
}

}  // namespace

TEST_CASE("the source pages split into the hand-counted units, inline and heading units, tvars") {
  for (const char* fixture : kFixtures) {
    const Run& r = run(fixture);
    std::map<std::string, std::string> texts;
    wikic::support::DiagnosticSink quiet;
    wikic::ingest::read_inputs({source_path(r.expected["fixture"].as<std::string>())}, {}, quiet,
                               [&](const wikic::ingest::SiteInfo&, wikic::ingest::Page&& p) {
                                 texts[p.title] = p.revision.text;
                               });
    for (const auto& page : r.expected["pages"]) {
      std::string title = page["page"].as<std::string>();
      INFO(fixture << " " << title);
      REQUIRE(texts.count(title));
      auto src = wikic::l10n::parse_source_page(title, texts[title], "f", quiet);
      std::vector<std::string> units, inline_units, heading_units;
      std::set<std::string> seen;
      for (const auto& u : src.units) {
        if (u.is_title || u.id.empty() || !seen.insert(u.id).second) continue;
        units.push_back(u.id);
        if (u.inline_unit) inline_units.push_back(u.id);
        if (u.heading_marker) heading_units.push_back(u.id);
      }
      CHECK(units == strings(page["units"]));
      CHECK(inline_units == strings(page["inline_units"]));
      CHECK(heading_units == strings(page["heading_units"]));
      for (const auto& t : page["tvars"]) {
        std::string id = t.first.as<std::string>();
        INFO("unit " << id);
        auto at = src.find(id);
        REQUIRE(at != static_cast<std::size_t>(-1));
        REQUIRE(src.units[at].tvars.size() == 1);
        const auto& tvar = src.units[at].tvars[0];
        CHECK(tvar.name == t.second["name"].as<std::string>());
        CHECK(tvar.old_syntax == (t.second["syntax"].as<std::string>() == "old"));
        CHECK(tvar.value == t.second["value"].as<std::string>());
        CHECK(src.units[at].definition.find("$" + tvar.name) != std::string::npos);
      }
    }
  }
}

TEST_CASE("completeness per page and language equals the hand count") {
  for (const char* fixture : kFixtures) REQUIRE(run(fixture).status == 0);
  each_language([](const YAML::Node& want, const YAML::Node& got) {
    for (const char* key : {"total", "translated", "fuzzy", "untranslated", "percent_complete", "percent_translate_bar"}) {
      INFO(key);
      CHECK(got[key].as<int>() == want[key].as<int>());
    }
    CHECK(strings(got["units"]["translated"]) == strings(want["translated_units"]));
    CHECK(strings(got["units"]["fuzzy"]) == strings(want["fuzzy_units"]));
    CHECK(strings(got["units"]["untranslated"]) == strings(want["untranslated_units"]));
    std::string page_want = want["translation_page"].IsNull() ? "" : want["translation_page"].as<std::string>();
    CHECK(got["translation_page"].as<std::string>() == page_want);
    // Evidence: which kinds of pages the statuses came from.
    std::set<std::string> used;
    for (const auto& u : got["unit_status"]) {
      std::string e = u["evidence"].as<std::string>();
      if (e == "both") used.insert({"units", "translation-page"});
      else if (e != "none") used.insert(e);
    }
    auto evidence = strings(want["evidence"]);
    CHECK(used == std::set<std::string>(evidence.begin(), evidence.end()));
    // Where the units that are not translated sit in Page/xx.
    if (want["page_lines"]) {
      // The unit's lines must overlap the hand-counted range (ranges of a few units
      // leave out a first `|- valign="top"` line that is part of the unit's definition).
      std::map<std::string, std::pair<int, int>> lines_of;
      for (const auto& u : got["unit_status"])
        if (u["line"]) lines_of[u["id"].as<std::string>()] = {u["line"].as<int>(), u["last_line"].as<int>()};
      for (const auto& pl : want["page_lines"]) {
        std::string id = pl.first.as<std::string>();
        auto range = ints(pl.second);
        INFO("unit " << id);
        REQUIRE(lines_of.count(id));
        CHECK(lines_of[id].first <= range.at(1));
        CHECK(lines_of[id].second >= range.at(0));
      }
    }
  });
}

TEST_CASE("the source page's marker problems are reported with their lines") {
  for (const char* fixture : kFixtures) {
    const Run& r = run(fixture);
    for (const auto& page : r.expected["pages"]) {
      std::string title = page["page"].as<std::string>();
      INFO(fixture << " " << title);
      std::vector<std::string> want, got;
      for (const auto& m : page["findings"]) {
        std::string lines;
        for (int l : ints(m["lines"])) lines += " " + std::to_string(l);
        want.push_back((m["unit"] && !m["unit"].IsNull() ? m["unit"].as<std::string>() : std::string()) + " " +
                       m["kind"].as<std::string>() + lines);
      }
      for (const auto& s : r.summary["sources"])
        if (s["page"].as<std::string>() == title)
          for (const auto& f : s["findings"]) {
            std::string kind = f["kind"].as<std::string>();
            if (kind != "marker-duplicated" && kind != "marker-missing") continue;
            std::string lines;
            for (int l : ints(f["lines"])) lines += " " + std::to_string(l);
            got.push_back(f["unit"].as<std::string>() + " " + kind + lines);
          }
      CHECK(got == want);
    }
  }
}

TEST_CASE("every deliberate defect is a finding of its unit, and the leaking lines are found") {
  each_language([](const YAML::Node& want, const YAML::Node& got) {
    std::set<std::pair<std::string, std::string>> found;
    std::map<std::string, std::vector<int>> broken_lines;
    for (const auto& f : got["findings"]) {
      found.emplace(f["unit"].as<std::string>(), f["kind"].as<std::string>());
      if (f["kind"].as<std::string>() == "markup-broken") {
        auto& v = broken_lines[f["unit"].as<std::string>()];
        for (int x : ints(f["lines"])) v.push_back(x);
      }
    }
    std::set<std::string> fuzzy;
    for (const auto& u : strings(want["fuzzy_units"])) fuzzy.insert(u);
    std::set<std::pair<std::string, std::string>> expected;
    for (const auto& f : want["findings"]) {
      std::string unit = f["unit"].as<std::string>(), kind = f["kind"].as<std::string>();
      expected.emplace(unit, kind);
      for (const auto& also : f["also"]) expected.emplace(unit, also["kind"].as<std::string>());
      INFO("unit " << unit << " " << kind);
      CHECK(found.count({unit, kind}) == 1);
      // The line where the markup breaks, in Page/xx (or in the unit page without one).
      int at = f["broken_at"] ? f["broken_at"].as<int>() : f["unit_lines"] ? ints(f["unit_lines"]).at(0) : 0;
      if (kind == "markup-broken" && at) {
        const auto& lines = broken_lines[unit];
        CHECK(std::find(lines.begin(), lines.end(), at) != lines.end());
      }
    }
    // For units that are not fuzzy the hand count lists every defect: nothing else may
    // be reported as an error or warning.
    for (const auto& f : got["findings"]) {
      std::string unit = f["unit"].as<std::string>(), kind = f["kind"].as<std::string>();
      if (fuzzy.count(unit) || f["severity"].as<std::string>() == "info") continue;
      if (kind == "marker-duplicated" || kind == "marker-missing") continue;
      INFO("unexpected finding: unit " << unit << " " << kind << ": " << f["message"].as<std::string>());
      CHECK(expected.count({unit, kind}) == 1);
    }
    CHECK(ints(got["leak_lines"]) == ints(want["leak_lines"]));
  });
}

TEST_CASE("rule differences against English name the English rules the hand count names") {
  each_language([](const YAML::Node& want, const YAML::Node& got) {
    CHECK(got["rules"]["compared"].as<bool>());
    std::set<std::pair<std::string, std::string>> found;
    for (const auto& d : got["rules"]["differences"])
      found.emplace(d["description"].as<std::string>(), d["kind"].as<std::string>());
    for (const auto& d : want["rule_differences"]) {
      std::string description = d["description"].as<std::string>(), kind = d["difference"].as<std::string>();
      // "moved" (a row now outside its table) is a page-structure fact the leak lines
      // already report; the rule comparison does not look at table membership.
      if (kind == "moved") continue;
      INFO(description << " " << kind);
      CHECK(found.count({description, kind}) == 1);
    }
  });
}
