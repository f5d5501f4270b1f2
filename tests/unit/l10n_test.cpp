// The Translate model on small inputs: unit splitting and markers, tvars, unit pages and
// translation pages, fuzzy marks and wrappers, completeness, structural findings, and
// `--previous`. The fixtures of corpus/l10n/ are checked against their hand counts in
// l10n_corpus_test.cpp.
#include <doctest/doctest.h>

#include "cli/pipeline.hpp"
#include "ingest/input.hpp"
#include "l10n/report.hpp"
#include "l10n/source_page.hpp"
#include "l10n/structure.hpp"
#include "l10n/translations.hpp"

using namespace wikic;
using namespace wikic::l10n;

namespace {

const char* kSource =
    "<languages/>\n"
    "<translate>\n"
    "== General info == <!--T:1-->\n"
    "\n"
    "<!--T:2-->\n"
    "A road scores '''1''' point per tile.\n"
    "Second line of the same unit.\n"
    "\n"
    "\n"
    "<!--T:3-->\n"
    "See <tvar name=page>[[Carcassonne]]</tvar> and <tvar|n>{{Feature|Road}}</>.\n"
    "</translate>\n"
    "{{UX|seotitle=<translate><!--T:4--> Scoring</translate>}}\n";

}  // namespace

TEST_CASE("units split at empty lines; markers at the start and at a heading's line end") {
  support::DiagnosticSink sink;
  SourcePage page = parse_source_page("Scoring", kSource, "x.xml", sink);
  CHECK(page.translatable);
  CHECK(page.has_languages_tag);
  REQUIRE(page.units.size() == 5);
  CHECK(page.units[0].id == "Page display title");
  CHECK(page.units[0].text == "Scoring");
  CHECK(page.units[1].id == "1");
  CHECK(page.units[1].text == "== General info ==");
  CHECK(page.units[1].heading_marker);
  CHECK(page.units[1].at == support::Position{3, 1});
  CHECK(page.units[2].id == "2");
  CHECK(page.units[2].text == "A road scores '''1''' point per tile.\nSecond line of the same unit.");
  CHECK(page.units[2].at.line == 5);
  CHECK(page.units[2].last_line == 7);
  CHECK(page.units[3].id == "3");
  CHECK(page.units[4].id == "4");
  CHECK(page.units[4].text == "Scoring");
  CHECK(page.units[4].inline_unit);
  CHECK_FALSE(page.units[3].inline_unit);
  CHECK(page.findings.empty());
  CHECK(sink.warnings() == 0);
  // The template keeps everything but the units, translate tags dropped.
  std::string rebuilt;
  for (const auto& piece : page.pieces) rebuilt += piece.is_unit ? page.units[piece.unit].rendered : piece.literal;
  CHECK(rebuilt.find("<translate>") == std::string::npos);
  CHECK(rebuilt.find("{{UX|seotitle= Scoring}}") == std::string::npos);  // the unit is trimmed
  CHECK(rebuilt.find("{{UX|seotitle=Scoring}}") != std::string::npos);
}

TEST_CASE("tvars: the new and the old syntax read as $name for translators") {
  support::DiagnosticSink sink;
  SourcePage page = parse_source_page("Scoring", kSource, "x.xml", sink);
  const auto& u = page.units[3];
  REQUIRE(u.tvars.size() == 2);
  CHECK(u.tvars[0].name == "page");
  CHECK(u.tvars[0].value == "[[Carcassonne]]");
  CHECK_FALSE(u.tvars[0].old_syntax);
  CHECK(u.tvars[1].name == "n");
  CHECK(u.tvars[1].old_syntax);
  CHECK(u.definition == "See $page and $n.");
  CHECK(u.rendered == "See [[Carcassonne]] and {{Feature|Road}}.");
  CHECK(substitute_tvars("Voir $page et $n.", u.tvars) == "Voir [[Carcassonne]] et {{Feature|Road}}.");
  std::string def;
  auto quoted = find_tvars("a <tvar name=\"x y\">v</tvar> b <tvar>broken", &def, nullptr);
  REQUIRE(quoted.size() == 1);
  CHECK(quoted[0].name == "x y");
  CHECK(def == "a $x y b <tvar>broken");
}

TEST_CASE("duplicated, missing and misplaced markers are diagnostics with line:col") {
  support::DiagnosticSink sink;
  std::string text =
      "<translate>\n<!--T:1-->\nFirst.\n\n<!--T:1-->\nAgain one.\n\nNo marker here.\n\n"
      "<!--T:5-->\nTwo markers <!--T:6--> inside.\n</translate>";
  SourcePage page = parse_source_page("P", text, "f.xml", sink);
  REQUIRE(page.findings.size() == 4);
  CHECK(page.findings[0].kind == "marker-duplicated");
  CHECK(page.findings[0].unit == "1");
  CHECK(page.findings[0].at == support::Position{5, 1});
  CHECK(page.findings[1].kind == "marker-missing");
  CHECK(page.findings[1].at == support::Position{8, 1});
  CHECK(page.findings[2].kind == "marker-multiple");
  CHECK(page.findings[3].kind == "marker-position");
  CHECK(page.findings[3].at == support::Position{11, 13});
  CHECK(sink.warnings() == 4);
  CHECK(sink.all()[0].format() == "f.xml#P:5:1: warning: unit marker T:1 is used again (first on line 2)");
}

TEST_CASE("translate tags: unclosed and nested ones are reported") {
  support::DiagnosticSink sink;
  auto a = parse_source_page("P", "<translate>\n<!--T:1-->\nx\n", "f", sink);
  CHECK_FALSE(a.translatable);
  REQUIRE(a.findings.size() == 1);
  CHECK(a.findings[0].kind == "translate-unclosed");
  auto b = parse_source_page("P", "<translate><translate>x</translate></translate>", "f", sink);
  CHECK(b.findings.front().kind == "translate-nested");
  // <nowiki> hides tags, as Translate's armourNowiki does.
  auto c = parse_source_page("P", "<nowiki><translate></nowiki> text", "f", sink);
  CHECK_FALSE(c.translatable);
}

TEST_CASE("unit page titles") {
  auto n = parse_unit_page_title("Translations:Carcassonne Scoring After the Game/12/fr");
  REQUIRE(n);
  CHECK(n->page == "Carcassonne Scoring After the Game");
  CHECK(n->unit == "12");
  CHECK(n->language == "fr");
  auto t = parse_unit_page_title("Translations:A/B/Page display title/cs");
  REQUIRE(t);
  CHECK(t->page == "A/B");
  CHECK(t->unit == "Page display title");
  CHECK_FALSE(parse_unit_page_title("Translations:Nothing"));
}

namespace {

struct Export {
  Collector collector;
  void add(const std::string& title, const std::string& text) {
    const auto& site = ingest::default_site();
    collector.add(site, ingest::page_from_wikitext(title, text, "mini.xml", site));
  }
};

const char* kPage =
    "<languages/>\n<translate>\n"
    "== Roads == <!--T:1-->\n\n"
    "<!--T:2-->\n"
    "A road scores '''1''' point per tile.\n\n"
    "<!--T:3-->\n"
    "{| class=\"wica-table\"\n|- class=\"showInns\"\n| {{Feature|Inn}} || '''2''' points\n|}\n\n"
    "<!--T:4-->\n"
    "Nothing to translate here.\n"
    "</translate>\n";

Report build(Export& e, Options options = {}) {
  support::DiagnosticSink sink;
  options.compare_rules = false;
  return e.collector.build(options, {}, sink);
}

const PageLanguage& entry(const Report& r, const std::string& lang) {
  for (const auto& e : r.entries)
    if (e.language == lang) return e;
  FAIL("no entry for " << lang);
  return r.entries.front();
}

}  // namespace

TEST_CASE("statuses from unit pages: !!FUZZY!! is outdated, a missing page untranslated") {
  Export e;
  e.add("Roads", kPage);
  e.add("Translations:Roads/Page display title/fr", "Routes");
  e.add("Translations:Roads/1/fr", "== Routes ==");
  e.add("Translations:Roads/2/fr", "!!FUZZY!!Une route rapporte '''1''' point par tuile.");
  e.add("Translations:Roads/3/fr",
        "{| class=\"wica-table\"\n|- class=\"showInns\"\n| {{Feature|Inn}} || '''3''' points\n|}");
  e.add("Translations:Roads/1/en", "== Roads ==");
  CHECK(e.collector.has_translations());
  Report r = build(e);
  REQUIRE(r.languages == std::vector<std::string>{"fr"});  // the source language is not reported
  const auto& fr = entry(r, "fr");
  CHECK(fr.counts.total == 5);
  CHECK(fr.counts.translated == 3);
  CHECK(fr.counts.fuzzy == 1);
  CHECK(fr.counts.untranslated == 1);
  CHECK(fr.counts.percent_complete() == 60);
  CHECK(fr.counts.percent_translate_bar() == 60);
  CHECK(fr.units[2].id == "2");
  CHECK(fr.units[2].status == Status::fuzzy);
  CHECK(fr.units[2].evidence == "units");
  CHECK(fr.units[4].status == Status::untranslated);
  CHECK(fr.units[4].evidence == "none");
  bool number_changed = false;
  for (const auto& f : fr.findings)
    if (f.unit == "3" && f.kind == "number-changed") number_changed = f.severity == Severity::error;
  CHECK(number_changed);
}

TEST_CASE("statuses from the translation page: source text = untranslated, mw-translate-fuzzy = outdated") {
  Export e;
  e.add("Roads", kPage);
  e.add("Roads/nl",
        "<languages/>\n\n== Wegen ==\n\n"
        "<div class=\"mw-translate-fuzzy\">\nEen weg levert '''1''' punt per tegel op.\n</div>\n\n"
        "{| class=\"wica-table\"\n| {{Feature|Inn}} || '''2''' punten |- class=\"showInns\"\n|}\n\n"
        "Nothing to translate here.\n");
  Report r = build(e);
  const auto& nl = entry(r, "nl");
  CHECK(nl.translation_page == "Roads/nl");
  CHECK(nl.counts.total == 5);
  CHECK(nl.counts.translated == 2);
  CHECK(nl.counts.fuzzy == 1);
  CHECK(nl.counts.untranslated == 2);  // the title (no unit page) and unit 4
  CHECK(nl.units[1].evidence == "translation-page");
  CHECK(nl.units[1].line == 3);
  CHECK(nl.units[2].status == Status::fuzzy);
  CHECK(nl.units[2].line == 6);
  CHECK(nl.units[2].translation == "Een weg levert '''1''' punt per tegel op.");
  CHECK(nl.units[3].line == 9);
  // Unit 3 lost its row line: `|- class="showInns"` now sits after text, shown as text.
  std::vector<std::uint32_t> broken;
  bool selector_lost = false;
  for (const auto& f : nl.findings) {
    if (f.unit == "3" && f.kind == "markup-broken") broken = f.lines;
    if (f.unit == "3" && f.kind == "selector-lost") selector_lost = true;
  }
  CHECK(broken == std::vector<std::uint32_t>{10});
  CHECK_FALSE(selector_lost);  // the class is still written, only in the wrong place
}

TEST_CASE("both kinds of evidence: the unit page decides, the translation page gives lines") {
  Export e;
  e.add("Roads", kPage);
  e.add("Translations:Roads/1/cs", "== Silnice ==");
  e.add("Roads/cs", "<languages/>\n== Silnice ==\n\nA road scores '''1''' point per tile.\n");
  Report r = build(e);
  const auto& cs = entry(r, "cs");
  CHECK(cs.units[1].evidence == "both");
  CHECK(cs.units[1].status == Status::translated);
  CHECK(cs.units[1].line == 2);
  CHECK(cs.units[2].evidence == "translation-page");
  CHECK(cs.units[2].status == Status::untranslated);
}

TEST_CASE("--lang keeps only the languages asked for") {
  Export e;
  e.add("Roads", kPage);
  e.add("Translations:Roads/1/cs", "== Silnice ==");
  e.add("Translations:Roads/1/fr", "== Routes ==");
  Options o;
  o.languages = {"cs"};
  Report r = build(e, o);
  CHECK(r.languages == std::vector<std::string>{"cs"});
  CHECK(r.entries.size() == 1);
}

TEST_CASE("--previous: a changed definition makes a translation outdated without a fuzzy mark") {
  Export e;
  e.add("Roads", kPage);
  e.add("Translations:Roads/1/fr", "== Routes ==");
  e.add("Translations:Roads/2/fr", "Une route rapporte '''1''' point par tuile.");
  Report first = build(e);
  REQUIRE(first.sources.size() == 1);
  DefinitionHashes previous;
  for (const auto& [id, sha] : first.sources[0].definitions) previous["Roads"][id] = sha;
  previous["Roads"]["2"] = "0000000000000000000000000000000000000000";  // unit 2 was different then
  Options o;
  o.previous = previous;
  Report second = build(e, o);
  const auto& fr = entry(second, "fr");
  CHECK(fr.counts.outdated_unmarked == 1);
  CHECK(fr.units[2].outdated_unmarked);
  CHECK_FALSE(fr.units[1].outdated_unmarked);
  CHECK(fr.units[2].status == Status::translated);  // Translate's own count is unchanged
  bool found = false;
  for (const auto& f : fr.findings) found |= f.unit == "2" && f.kind == "outdated-unmarked";
  CHECK(found);
}

TEST_CASE("structural comparison of one unit") {
  auto kinds = [](const std::vector<Finding>& fs) {
    std::string s;
    for (const auto& f : fs) s += f.kind + "(" + to_string(f.severity) + ") ";
    return s;
  };
  CHECK(kinds(compare_unit("1", "<span class=\"showInns\">Inn</span>", "<span>Auberge</span>", "", {}, false, "P/fr", 1)) ==
        "selector-lost(error) ");
  CHECK(kinds(compare_unit("1", "<span class=\"showInns big\">Inn</span>", "<span class=\"showInns\">Auberge</span>", "",
                           {}, false, "P/fr", 1)) == "class-changed(warning) ");
  CHECK(kinds(compare_unit("1", "Scores '''2''' points", "Rapporte '''3''' points", "", {}, false, "P/fr", 1)) ==
        "number-changed(error) ");
  // A class lost from every edition variant of a row is one counted fact.
  auto lost = compare_unit("1", "<span class=\"showC1\">a</span><span class=\"showC1\">b</span>", "<span>a</span><span>b</span>",
                           "", {}, false, "P/fr", 1);
  REQUIRE(lost.size() == 1);
  CHECK(lost[0].message == "selector classes missing: showC1 \u00d72");
  CHECK(kinds(compare_unit("1", "{{Feature|Road}} [[Hans im Glück]]", "{{Figure|Road}} [[Hans im Glück/fr|HiG]]", "", {},
                           false, "P/fr", 1)) == "template-changed(warning) ");
  CHECK(kinds(compare_unit("1", "[[File:Road.png]] text", "[[Fichier:Route.png]] texte", "", {}, false, "P/fr", 1)) ==
        "file-changed(warning) ");
  CHECK(kinds(compare_unit("1", "See [[Inns]].", "Voir [[Cathedrals]].", "", {}, false, "P/fr", 1)) == "link-changed(info) ");
  CHECK(kinds(compare_unit("1", "Same text", "Same text", "", {}, false, "P/fr", 1)) == "untranslated-identical(info) ");
  std::vector<Tvar> tv{{"x", "{{X}}", false}};
  // The missing tvar's template is that one finding, not a template change too.
  CHECK(kinds(compare_unit("1", "a {{X}}", "b", "b", tv, true, "P/fr", 1)) == "tvar-missing(error) ");
  CHECK(kinds(compare_unit("1", "<span class=\"showGermanCathedrals\">x</span>", "<span class=\"showCathedrals\">y</span>", "",
                           {}, false, "P/fr", 1)) == "class-changed(error) ");
  CHECK(kinds(compare_unit("1", "'''<span class=\"showC1\">ferries</span>'''", "'''<span class=\"showC1\">bacs</span>'''", "",
                           {}, false, "P/fr", 1)) == "");
  auto cells = compare_unit("1", "{|\n| a || '''1'''\n|}", "{|\n| a | '''1'''\n|}", "", {}, false, "P/fr", 10);
  REQUIRE(cells.size() == 1);
  CHECK(cells[0].lines == std::vector<std::uint32_t>{11});
  CHECK(cells[0].leak_lines == std::vector<std::uint32_t>{11});
  auto broken = compare_unit("7", "{|\n|-\n| a\n|}", "{|\n| a |-\n|}", "", {}, false, "P/fr", 40);
  REQUIRE(broken.size() == 1);
  CHECK(broken[0].kind == "markup-broken");
  CHECK(broken[0].lines == std::vector<std::uint32_t>{41});
  CHECK(kinds(compare_unit("1", "<div>a</div>", "<div>b", "", {}, false, "P/fr", 1)) == "markup-broken(error) ");
  CHECK(kinds(compare_unit("1", "{{A|b}}", "{{A|c", "", {}, false, "P/fr", 1)).find("markup-broken") != std::string::npos);
}

TEST_CASE("the report files: every language, the summary and a self-contained dashboard") {
  Export e;
  e.add("Roads", kPage);
  e.add("Translations:Roads/1/fr", "== Routes ==");
  Report r = build(e);
  auto files = render_report(r);
  std::vector<std::string> names;
  for (const auto& [n, _] : files) names.push_back(n);
  CHECK(names == std::vector<std::string>{"fr.yaml", "fr.xml", "fr.json", "summary.yaml", "index.html"});
  const std::string& html = files.back().second;
  CHECK(html.find("http") == std::string::npos);  // no external resource
  CHECK(html.find("<svg") != std::string::npos);
  CHECK(render_report(r) == files);
  CHECK(files[0].second.find("percent_complete: 20") != std::string::npos);
}

TEST_CASE("rules compared: a translation that loses a rule text's alternatives differs in parts") {
  // The source's rules cell writes two alternatives (showInns, showNotInns); the French
  // page keeps one wording without its span, so its rule has no parts.
  const char* source =
      "<languages/>\n<translate>\n<!--T:1-->\n"
      "{|\n|-\n| class=\"scoringFeature\" | Road\n"
      "| '''2''' points / <span class=\"showInns\">inn</span><span class=\"showNotInns\">tile</span>\n|}\n"
      "</translate>\n";
  Export e;
  e.add("Roads", source);
  e.add("Translations:Roads/1/fr", "{|\n|-\n| class=\"scoringFeature\" | Route\n| '''2''' points / tuile\n|}");
  e.add("Roads/fr", "<languages/>\n{|\n|-\n| class=\"scoringFeature\" | Route\n| '''2''' points / tuile\n|}\n");
  support::DiagnosticSink sink;
  Options options;
  auto compile = [&](ingest::Page& page) {
    expand::TemplateStore store(ingest::default_site());
    return cli::Pipeline(store, sink).compile(page);
  };
  Report r = e.collector.build(options, compile, sink);
  const auto& fr = entry(r, "fr");
  REQUIRE(fr.rules_compared);
  const RuleDifference* parts = nullptr;
  for (const auto& d : fr.rule_differences)
    if (d.kind == "parts-different") parts = &d;
  REQUIRE(parts);
  CHECK(parts->source_value == "parts true, Inns, !Inns");
  CHECK(parts->translation_value == "no parts");
}
