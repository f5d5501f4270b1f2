// Unit tests of src/expand: the #expr evaluator against MediaWiki's own answers
// (corpus/expr/expr.txt, filled by scripts/regen-expr-oracle.sh), PHP number
// printing and rounding, and #ifexpr truthiness.
#include <doctest/doctest.h>

#include "expand/expr.hpp"
#include "util/run.hpp"

using namespace wikic::expand;

TEST_CASE("#expr agrees with MediaWiki 1.39 on every oracle case") {
  std::ifstream in(wikic::test::source_path("corpus/expr/expr.txt"));
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
    INFO("corpus/expr/expr.txt:" << line_no << ": {{#expr:" << expression << "}}");
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

// ------------------------------------------------------------------ expansion

#include <memory>

#include "expand/expander.hpp"
#include "ingest/input.hpp"
#include "parse/from_expansion.hpp"
#include "parse/printer.hpp"

namespace {
struct Expanded {
  // The expansion's line indexes read the page's text when a warning is located, so the
  // page lives as long as the expansion (declared first: destroyed last).
  std::unique_ptr<wikic::ingest::Page> page;
  wikic::support::DiagnosticSink sink;
  wikic::expand::Expansion result;
  std::vector<std::string> messages() const {
    std::vector<std::string> out;
    for (const auto& d : sink.all()) out.push_back(d.format());
    return out;
  }
};

/// Expands `text` as page `title`, with `templates` (title, text) in the store.
Expanded expand_with(const std::string& title, const std::string& text,
                     const std::vector<std::pair<std::string, std::string>>& templates, bool expand_all = false) {
  using namespace wikic;
  const auto& site = ingest::default_site();
  expand::TemplateStore store(site);
  for (const auto& [t, body] : templates) store.add(ingest::page_from_wikitext(t, body, "t.wiki", site));
  Expanded e;
  expand::ExpandOptions options;
  options.expand_all = expand_all;
  expand::Expander expander(store, options, e.sink);
  e.page = std::make_unique<ingest::Page>(ingest::page_from_wikitext(title, text, "page.wiki", site));
  e.result = expander.expand_page(*e.page);
  return e;
}
}  // namespace

TEST_CASE("the seed page keeps its semantic templates and expands Translate and magic words") {
  using namespace wikic;
  std::vector<ingest::Page> pages;
  support::DiagnosticSink sink;
  ingest::read_inputs({wikic::test::source_path("corpus/wica/scoring-during-turn-sequence.xml")}, {}, sink,
                      [&](const ingest::SiteInfo&, ingest::Page&& p) { pages.push_back(std::move(p)); });
  REQUIRE(pages.size() == 1);
  expand::TemplateStore store(ingest::default_site());
  expand::Expander expander(store, {}, sink);
  auto result = expander.expand_page(pages[0]);
  std::map<std::string, int> kinds;
  for (const auto& node : result.semantic) ++kinds[node.name];
  CHECK(kinds["ScoringRow"] == 5);
  CHECK(kinds["Feature"] + kinds["Figure"] == 26);
  // {{#translation:}} is empty on the source page, {{PAGELANGUAGE}} is "en", {{{1|}}} is "".
  CHECK(result.text.find("[[:Scoring During Turn Sequence]]") != std::string::npos);
  CHECK(result.text.find("[[:Expansion Selector Labels/en]]") != std::string::npos);
  CHECK(result.text.find("data-fixed-edition=\"\"") != std::string::npos);
  CHECK(result.text.find("{{") == std::string::npos);
  // Every ScoringRow has its selector as an expanded parameter.
  for (const auto& node : result.semantic)
    if (node.name == "ScoringRow") {
      CHECK(node.spec->kind == expand::SemanticKind::row);
      REQUIRE(node.find("description"));
    }
  auto printed = result.text_with_semantic_calls();
  CHECK(printed.find("{{ScoringRow|") != std::string::npos);
  CHECK(printed.find(std::string(expand::kMarkerPrefix)) == std::string::npos);
}

TEST_CASE("expansion diagnostics name the call and its template chain") {
  auto e = expand_with("Page", "a\n{{Outer}}", {{"Template:Outer", "x {{Inner}}"}, {"Template:Inner", "{{Missing}}"}});
  CHECK(e.result.text == "a\nx [[:Template:Missing]]");
  REQUIRE(e.messages().size() == 1);
  CHECK(e.messages()[0] ==
        "t.wiki#Template:Inner:1:1: warning: template 'Template:Missing' is not in the input; rendered as a link, as "
        "MediaWiki does (in Template:Inner called at t.wiki#Template:Outer:1:3) (in Template:Outer called at "
        "page.wiki#Page:2:1)");
}

TEST_CASE("template loops use MediaWiki's message") {
  auto e = expand_with("Page", "{{Loop}}", {{"Template:Loop", "[{{Loop}}]"}});
  CHECK(e.result.text == "[<span class=\"error\">Template loop detected: [[Template:Loop]]</span>]");
  REQUIRE(e.messages().size() == 1);
  CHECK(e.messages()[0] == "t.wiki#Template:Loop:1:2: warning: template loop detected: Template:Loop (in "
                           "Template:Loop called at page.wiki#Page:1:1)");
}

TEST_CASE("semantic templates: unknown and missing parameters are warnings") {
  auto e = expand_with("Page", "{{ScoringRow|description=d|colour=red}}", {});
  REQUIRE(e.result.semantic.size() == 1);
  auto m = e.messages();
  REQUIRE(m.size() == 2);
  CHECK(m[0] == "page.wiki#Page:1:1: warning: unknown parameter 'colour' of semantic template ScoringRow");
  CHECK(m[1] == "page.wiki#Page:1:1: warning: semantic template ScoringRow is missing its required parameter 'rules'");
}

TEST_CASE("semantic templates stay nodes unless --expand-all, and nest") {
  std::vector<std::pair<std::string, std::string>> templates = {{"Template:Feature", "[[{{{name}}}|{{{text|{{{name}}}}}}]]"}};
  auto kept = expand_with("Page", "{{ScoringRow|description=Road with {{Feature|name=Well|text=well(s)}}|rules=1}}", templates);
  REQUIRE(kept.result.semantic.size() == 2);
  CHECK(kept.result.semantic[0].name == "Feature");
  CHECK(kept.result.text_with_semantic_calls() ==
        "{{ScoringRow|description=Road with {{Feature|name=Well|text=well(s)}}|rules=1}}");
  auto all = expand_with("Page", "x {{Feature|name=Well|text=well(s)}}", templates, true);
  CHECK(all.result.semantic.empty());
  CHECK(all.result.text == "x [[Well|well(s)]]");
}

TEST_CASE("provenance: argument text comes from the call site, template text from the template") {
  auto e = expand_with("Page", "{{T|hello}}", {{"Template:T", "<{{{1}}}>"}});
  const auto& r = e.result;
  REQUIRE(r.text == "<hello>");
  wikic::expand::Piece p{r.text, r.segments};
  const auto* at_arg = p.origin_at(1);
  const auto* at_tpl = p.origin_at(0);
  REQUIRE(at_arg);
  REQUIRE(at_tpl);
  CHECK(r.sources[at_arg->source].title == "Page");
  CHECK(at_arg->span.begin == 4);  // "hello" in "{{T|hello}}"
  CHECK(r.sources[at_tpl->source].title == "Template:T");
  CHECK(r.calls[at_tpl->chain].template_title == "Template:T");
}

TEST_CASE("provenance: text after a semantic marker or a call's output maps byte for byte") {
  // A marker (or a magic word's value) is not the bytes of its call, so the page text
  // after it must start a segment of its own instead of being folded into the call's.
  using namespace wikic;
  const auto& site = ingest::default_site();
  expand::TemplateStore store(site);
  support::DiagnosticSink expand_sink;
  expand::Expander expander(store, {}, expand_sink);
  // locate() reads the page's text through its line index: the page outlives the result.
  auto page = ingest::page_from_wikitext("Page", "{{Feature|name=Well}} then\nsome <span>open\n", "page.wiki", site);
  auto r = expander.expand_page(page);
  REQUIRE(r.semantic.size() == 1);
  const std::string& marker = r.semantic[0].marker;
  REQUIRE(r.text == marker + " then\nsome <span>open\n");
  expand::Piece p{r.text, r.segments};
  // The marker itself stands for the whole call.
  const auto* at_marker = p.origin_at(3);
  REQUIRE(at_marker);
  CHECK(at_marker->span.begin == 0);
  CHECK(at_marker->span.end == 21);
  // "<span>" is at byte 32 of the page; its place in the expansion is after the marker.
  std::size_t span_at = r.text.find("<span>");
  auto loc = r.locate_offset(span_at);
  CHECK(loc.file == "page.wiki#Page");
  CHECK(loc.at.line == 2);
  CHECK(loc.at.column == 6);
  auto first_after = r.locate_offset(marker.size());  // the space after the call
  CHECK(first_after.at.line == 1);
  CHECK(first_after.at.column == 22);

  support::DiagnosticSink sink;
  parse::ParseOptions options;
  options.page = "page.wiki#Page";
  parse::parse_expansion(r, sink, options);
  std::vector<std::string> unclosed;
  for (const auto& d : sink.all())
    if (d.message.find("never closed") != std::string::npos) unclosed.push_back(d.format());
  REQUIRE(unclosed.size() == 1);
  CHECK(unclosed[0] == "page.wiki#Page:2:6: warning: <span> opened here is never closed");

  // The same for a magic word's value followed by page text.
  auto magic = ingest::page_from_wikitext("Page", "{{PAGENAME}}<span>x", "page.wiki", site);
  auto m = expander.expand_page(magic);
  REQUIRE(m.text == "Page<span>x");
  auto after = m.locate_offset(4);
  CHECK(after.at.line == 1);
  CHECK(after.at.column == 13);
}

TEST_CASE("parse_expansion finds semantic markers by their numbers, and by search when unnumbered") {
  using namespace wikic;
  auto e = expand_with("Page",
                       "{{ScoringRow|description=d {{Feature|name=Well}}|rules=r {{Feature|name=Road}}}}\n"
                       "{{Feature|name=City}} <span>x\n",
                       {});
  expand::Expansion& r = e.result;
  REQUIRE(r.semantic.size() == 4);  // the two nested Features first, then the row, then City
  // Text that merely looks like a marker: lowercase digits, a number past the last node,
  // a cut-off marker at the very end. None is a node.
  const std::string prefix(expand::kMarkerPrefix), suffix(expand::kMarkerSuffix);
  r.text += prefix + "0000000a" + suffix + prefix + "000000FF" + suffix + prefix + "0000000";
  support::DiagnosticSink sink;
  parse::ParseOptions options;
  auto numbered = parse::parse_expansion(r, sink, options);
  const std::string expected = parse::to_sexpr(numbered);
  std::size_t semantic_nodes = 0;
  for (parse::NodeId id = 0; id < numbered.size(); ++id)
    semantic_nodes += numbered.node(id).kind == parse::NodeKind::SemanticTemplate;
  CHECK(semantic_nodes == 4);
  CHECK(sink.warnings() == 1);  // the unclosed <span>, located through the expansion
  CHECK(sink.all()[0].file == "page.wiki#Page");
  CHECK(sink.all()[0].where.line == 2);
  CHECK(sink.all()[0].where.column == 23);

  // The same expansion with the row's and City's markers swapped (an expansion whose
  // markers do not carry their node's number) parses to the same document.
  std::string& row = r.semantic[2].marker;
  std::string& city = r.semantic[3].marker;
  const std::size_t row_at = r.text.find(row), city_at = r.text.find(city);
  REQUIRE(row_at != std::string::npos);
  REQUIRE(city_at != std::string::npos);
  r.text.replace(row_at, row.size(), city);
  r.text.replace(city_at, city.size(), row);
  std::swap(row, city);
  support::DiagnosticSink searched_sink;
  auto searched = parse::parse_expansion(r, searched_sink, options);
  CHECK(parse::to_sexpr(searched) == expected);
  CHECK(searched_sink.warnings() == 1);
}

TEST_CASE("Translate markup is transparent and its units are kept as regions") {
  auto e = expand_with("Page/fr", "<languages/>\n<translate><!--T:1--> Unit {{#translation:}}</translate>", {});
  CHECK(e.result.text == "<languages/>\n Unit /fr");
  REQUIRE(e.result.translate_regions.size() == 1);
  CHECK(e.result.translate_regions[0].begin == 13);
}

TEST_CASE("limits are diagnostics with MediaWiki's output, never a crash") {
  SUBCASE("template depth 100") {
    std::vector<std::pair<std::string, std::string>> chain;
    for (int i = 1; i <= 105; ++i)
      chain.emplace_back("Template:D" + std::to_string(i), std::to_string(i) + " {{D" + std::to_string(i + 1) + "}}");
    auto e = expand_with("Page", "{{D1}}", chain);
    CHECK(e.result.text.find("100 {{<span class=\"error\">Expansion depth limit exceeded</span>}}") != std::string::npos);
    REQUIRE(e.messages().size() == 1);
    INFO(e.messages()[0]);
    CHECK(e.messages()[0] == "t.wiki#Template:D100:1:7: warning: expansion depth limit (100) exceeded (in "
                             "Template:D100 called at t.wiki#Template:D99:1:4) (in Template:D99 called at "
                             "t.wiki#Template:D98:1:4) (in Template:D98 called at t.wiki#Template:D97:1:4) (... 96 "
                             "more calls) (in Template:D1 called at page.wiki#Page:1:1)");
  }
  SUBCASE("post-expand include size of 2 MB") {
    std::vector<std::pair<std::string, std::string>> doubling{{"Template:B0", std::string(1000, 'x')}};
    for (int i = 1; i <= 11; ++i)
      doubling.emplace_back("Template:B" + std::to_string(i),
                            "{{B" + std::to_string(i - 1) + "}}{{B" + std::to_string(i - 1) + "}}");
    auto e = expand_with("Page", "{{B11}}", doubling);
    CHECK(e.result.text ==
          "[[:Template:B10]]<!-- WARNING: template omitted, post-expand include size too large -->"
          "[[:Template:B10]]<!-- WARNING: template omitted, post-expand include size too large -->");
    REQUIRE_FALSE(e.messages().empty());
    CHECK(e.messages()[0] == "t.wiki#Template:B11:1:1: warning: post-expand include size limit (2097152 bytes) "
                             "exceeded; Template:B10 omitted (in Template:B11 called at page.wiki#Page:1:1)");
  }
  SUBCASE("an unsupported parser function stays visible") {
    auto e = expand_with("Page", "{{#invoke:Module|f}}", {});
    CHECK(e.result.text == "{{#invoke:Module|f}}");
    REQUIRE(e.messages().size() == 1);
    CHECK(e.messages()[0] == "page.wiki#Page:1:1: warning: unsupported parser function '#invoke' kept as text");
  }
}

TEST_CASE("string parser functions") {
  auto e = expand_with("Page",
                       "{{padleft:7|3}}|{{padright:ab|5|xy}}|{{urlencode:a b/é}}|{{urlencode:a b|PATH}}|{{urlencode:a "
                       "b|WIKI}}|{{anchorencode:Step 3B: Resolve}}|{{#titleparts:A/B/C|1|2}}|{{lc:ÉA}}|{{uc:éa}}|"
                       "{{lcfirst:AB}}|{{ucfirst:ab}}|{{#tag:b|x|class=\"c\"}}",
                       {});
  CHECK(e.result.text == "007|abxyx|a+b%2F%C3%A9|a%20b|a_b|Step_3B:_Resolve|B|éa|ÉA|aB|Ab|<b class=\"c\">x</b>");
}

#include "parse/printer.hpp"
#include "select/tree_conditions.hpp"

TEST_CASE("a page built in a previous page's recycled storage equals one built fresh") {
  // Pipeline::compile hands each page's expansion, document and conditions to the next
  // page; nothing of the earlier page may show through in the later one's result.
  using namespace wikic;
  const auto& site = ingest::default_site();
  expand::TemplateStore store(site);
  support::DiagnosticSink sink;
  expand::Expander expander(store, {}, sink);
  auto first = ingest::page_from_wikitext(
      "First",
      "== Scoring ==\n{{ScoringRow|selectorid=showInns|rules='''(+1)''' per {{Feature|name=Inn}} tile}}\n"
      "<span class=\"showCathedrals\">long text of the first page, longer than the second</span>\n"
      "{{ScoringRow|selectorid=showCathedrals|rules=x}}\n",
      "first.wiki", site);
  auto second = ingest::page_from_wikitext(
      "Second", "{{ScoringRow|selectorid=showKingAndRobber|rules=''(+2)'' {{Feature|name=King}}}}\n<div class=\"showInns\">y\n",
      "second.wiki", site);
  parse::ParseOptions options;
  auto fresh = expander.expand_page(second);
  auto fresh_doc = parse::parse_expansion(fresh, sink, options);
  auto fresh_conditions = select::tree_conditions(fresh_doc, "second.wiki", sink);

  auto old = expander.expand_page(first);
  auto old_doc = parse::parse_expansion(old, sink, options);
  auto old_conditions = select::tree_conditions(old_doc, "first.wiki", sink);
  REQUIRE(old.semantic.size() == 3);
  auto again = expander.expand_page(second, std::move(old));
  auto again_doc = parse::parse_expansion(again, sink, options, std::move(old_doc));
  auto again_conditions = select::tree_conditions(again_doc, "second.wiki", sink, select::Vocabulary::builtin(), {},
                                                  std::move(old_conditions));

  CHECK(again.text == fresh.text);
  REQUIRE(again.segments.size() == fresh.segments.size());
  for (std::size_t i = 0; i < fresh.segments.size(); ++i) {
    CHECK(again.segments[i].begin == fresh.segments[i].begin);
    CHECK(again.segments[i].end == fresh.segments[i].end);
    CHECK(again.segments[i].origin.span.begin == fresh.segments[i].origin.span.begin);
    CHECK(again.segments[i].origin.source == fresh.segments[i].origin.source);
  }
  REQUIRE(again.semantic.size() == fresh.semantic.size());
  for (std::size_t i = 0; i < fresh.semantic.size(); ++i) {
    CHECK(again.semantic[i].name == fresh.semantic[i].name);
    REQUIRE(again.semantic[i].parameters.size() == fresh.semantic[i].parameters.size());
    for (std::size_t k = 0; k < fresh.semantic[i].parameters.size(); ++k) {
      CHECK(again.semantic[i].parameters[k].value.text == fresh.semantic[i].parameters[k].value.text);
      CHECK(again.semantic[i].parameters[k].value.segments.size() ==
            fresh.semantic[i].parameters[k].value.segments.size());
    }
  }
  CHECK(again.sources.size() == fresh.sources.size());
  CHECK(again.calls.size() == fresh.calls.size());
  CHECK(parse::to_sexpr(again_doc) == parse::to_sexpr(fresh_doc));
  CHECK(again_doc.source_count() == fresh_doc.source_count());
  REQUIRE(again_conditions.full.size() == fresh_conditions.full.size());
  for (std::size_t i = 0; i < fresh_conditions.full.size(); ++i) {
    CHECK(select::to_string(again_conditions.full[i]) == select::to_string(fresh_conditions.full[i]));
    CHECK(again_conditions.hidden[i] == fresh_conditions.hidden[i]);
  }
  CHECK(again_conditions.projection_only.size() == fresh_conditions.projection_only.size());
}
