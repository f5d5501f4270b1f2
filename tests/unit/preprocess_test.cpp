// Unit tests of the preprocess stage: MediaWiki-shaped trees for key cases, losslessness
// on random and hostile input and on every parserTests input, diagnostics, and the
// collapse → restore → preprocess property of line restoration.
#include <doctest/doctest.h>

#include <algorithm>
#include <chrono>
#include <filesystem>
#include <fstream>
#include <random>
#include <sstream>
#include <string>

#include "preprocess/preprocessor.hpp"
#include "preprocess/printers.hpp"
#include "preprocess/restore_lines.hpp"

using namespace wikic::preprocess;

namespace {

// ../shared (parserTests, peers' data): read at test time, never copied into the repo.
std::filesystem::path shared_dir() {
#ifdef WIKIC_SHARED_DIR
  if (std::string(WIKIC_SHARED_DIR).size() > 0) return WIKIC_SHARED_DIR;
#endif
  return std::filesystem::path(WIKIC_SOURCE_DIR) / ".." / "shared";
}

Options oracle_options(bool inclusion = false) {
  Options o;
  o.extension_tags = oracle_extension_tags();
  o.for_inclusion = inclusion;
  o.report_unclosed = false;
  return o;
}

std::string xml(std::string_view text, bool inclusion = false) {
  return to_xml(preprocess(text, oracle_options(inclusion)));
}

// A tree's XML without its <root>…</root>, to place a snippet's tree inside a longer text's.
std::string inner(const std::string& xml) { return xml.substr(6, xml.size() - 6 - 7); }

std::string read(const std::filesystem::path& p) {
  std::ifstream in(p, std::ios::binary);
  std::stringstream s;
  s << in.rdbuf();
  return s.str();
}

// The tree's shape with whitespace removed from text: what line restoration must keep.
void signature(const Tree& tree, NodeId id, std::string& out) {
  const Node& n = tree.node(id);
  if (n.kind == NodeKind::Text || n.kind == NodeKind::Comment) {
    for (char c : tree.text(n))
      if (c != ' ' && c != '\n' && c != '\t') out += c;
    return;
  }
  out += '(';
  out += n.kind == NodeKind::Heading ? "h" + std::to_string(n.level) : to_string(n.kind);
  if (n.line_start) out += ":ls";
  if (n.kind == NodeKind::ExtensionTag || n.kind == NodeKind::Ignore || n.kind == NodeKind::Equals)
    out += tree.text(n);
  for (NodeId c : tree.children(id)) signature(tree, c, out);
  out += ')';
}

std::string signature(std::string_view text) {
  Tree t = preprocess(text);
  std::string out;
  signature(t, t.root, out);
  return out;
}

// A page as the seed was captured: every newline collapsed to a space.
std::string collapse_newlines(std::string text) {
  std::replace(text.begin(), text.end(), '\n', ' ');
  return text;
}

// What line restoration (Always) gives back from `original` collapsed.
std::string restored_from_collapsed(const std::string& original) {
  return restore_lines(collapse_newlines(original), RestoreMode::Always).text;
}

}  // namespace

TEST_CASE("templates, arguments and parts follow MediaWiki's structure") {
  CHECK(xml("{{a|b=c|d}}") ==
        "<root><template><title>a</title><part><name>b</name><equals>=</equals><value>c</value></part>"
        "<part><name index=\"1\"/><value>d</value></part></template></root>");
  CHECK(xml("x\n{{{1|}}}") ==
        "<root>x\n<tplarg lineStart=\"1\"><title>1</title><part><name index=\"1\"/><value/></part></tplarg></root>");
  CHECK(xml("{{{{{x}}}}}") == "<root><template><title><tplarg><title>x</title></tplarg></title></template></root>");
  CHECK(xml("{{{{x}}}}") == "<root>{<tplarg><title>x</title></tplarg>}</root>");
  CHECK(xml("{{a|b") == "<root>{{a|b</root>");
  CHECK(xml("{{a|b=c") == "<root>{{a|b<equals>=</equals>c</root>");
  CHECK(xml("[[a|{{b}}]]") == "<root>[[a|<template><title>b</title></template>]]</root>");
  CHECK(xml("{{a|[[b|c]]}}") ==
        "<root><template><title>a</title><part><name index=\"1\"/><value>[[b|c]]</value></part></template></root>");
}

TEST_CASE("comments on their own line take the newline; headings number in order") {
  CHECK(xml("a\n  <!-- b -->  \nc") == "<root>a\n<comment>  &lt;!-- b --&gt;  \n</comment>c</root>");
  CHECK(xml("==a==\n=b=") == "<root><h level=\"2\" i=\"1\">==a==</h>\n<h level=\"1\" i=\"2\">=b=</h></root>");
  CHECK(xml("{{a|\n==b==\n}}") ==
        "<root><template><title>a</title><part><name index=\"1\"/><value>\n<possible-h level=\"2\" i=\"1\">==b==</possible-h>\n"
        "</value></part></template></root>");
}

TEST_CASE("include-control tags depend on the mode") {
  CHECK(xml("<noinclude>a</noinclude>b") == "<root><ignore>&lt;noinclude&gt;</ignore>a<ignore>&lt;/noinclude&gt;</ignore>b</root>");
  CHECK(xml("<noinclude>a</noinclude>b", true) == "<root><ignore>&lt;noinclude&gt;a&lt;/noinclude&gt;</ignore>b</root>");
  CHECK(xml("x<onlyinclude>a</onlyinclude>y", true) ==
        "<root><ignore>x&lt;onlyinclude&gt;</ignore>a<ignore>&lt;/onlyinclude&gt;y</ignore></root>");
  CHECK(xml("<nowiki>{{a}}</nowiki>") ==
        "<root><ext><name>nowiki</name><attr/><inner>{{a}}</inner><close>&lt;/nowiki&gt;</close></ext></root>");
}

TEST_CASE("tag names are matched whole, whatever their length or case") {
  // The preprocessor rejects '<' before names of a length no tag has without running the
  // tag rule; names one byte off a tag's length, or past the 64-byte cap, stay text.
  Options o;
  o.extension_tags = {"ref", "syntaxhighlight"};
  o.report_unclosed = false;
  auto tree = [&](std::string_view text) { return to_xml(preprocess(text, o)); };
  CHECK(tree("<ref>a</ref>") == "<root><ext><name>ref</name><attr/><inner>a</inner><close>&lt;/ref&gt;</close></ext></root>");
  CHECK(tree("<REF name=x>a</Ref >") ==
        "<root><ext><name>REF</name><attr> name=x</attr><inner>a</inner><close>&lt;/Ref &gt;</close></ext></root>");
  CHECK(tree("<re>a</re><refs>b</refs>") == "<root>&lt;re&gt;a&lt;/re&gt;&lt;refs&gt;b&lt;/refs&gt;</root>");
  CHECK(tree("<syntaxhighlight/>x") == "<root><ext><name>syntaxhighlight</name><attr/></ext>x</root>");
  CHECK(tree("<syntaxhighlightx>a</syntaxhighlightx>") ==
        "<root>&lt;syntaxhighlightx&gt;a&lt;/syntaxhighlightx&gt;</root>");
  std::string long_name = "<r" + std::string(80, 'e') + ">a";
  CHECK(tree(long_name) == "<root>" + std::string("&lt;r") + std::string(80, 'e') + "&gt;a</root>");
  CHECK(tree("a<ref") == "<root>a&lt;ref</root>");
  CHECK(tree("a<") == "<root>a&lt;</root>");
  CHECK(tree("<span>x</span><!-- c -->") == "<root>&lt;span&gt;x&lt;/span&gt;<comment>&lt;!-- c --&gt;</comment></root>");
}

TEST_CASE("extension tags are a parameter") {
  Options o;
  o.extension_tags = {"ref"};
  Tree t = preprocess("<ref>{{a}}</ref><nowiki>{{b}}</nowiki>", o);
  CHECK(to_xml(t) ==
        "<root><ext><name>ref</name><attr/><inner>{{a}}</inner><close>&lt;/ref&gt;</close></ext>&lt;nowiki&gt;"
        "<template><title>b</title></template>&lt;/nowiki&gt;</root>");
}

TEST_CASE("spans point into the source") {
  std::string text = "ab{{c|d=e}}";
  Tree t = preprocess(text);
  NodeId tpl = t.node(t.root).last_child;
  CHECK(t.node(tpl).kind == NodeKind::Template);
  CHECK(t.text(t.node(tpl)) == "{{c|d=e}}");
  NodeId part = t.node(t.node(tpl).first_child).next_sibling;
  CHECK(t.text(t.node(part)) == "d=e");
  CHECK(t.text(t.node(t.node(part).last_child)) == "e");
}

TEST_CASE("lossless on random markup-heavy input") {
  const std::string atoms[] = {"{", "}", "[", "]", "|", "=", "<", ">", "-", "\n", " ", "\t", "a", "!", "/",
                               "<!--", "-->", "<nowiki>", "</nowiki>", "<pre>", "</pre>", "<noinclude>",
                               "</noinclude>", "<includeonly>", "</includeonly>", "<onlyinclude>", "</onlyinclude>",
                               "==", "{{", "}}", "{{{", "}}}", "-{", "}-", "[[", "]]", "<ref/>", "\xC3\xA9"};
  std::mt19937 rng(12345);
  std::uniform_int_distribution<std::size_t> pick(0, std::size(atoms) - 1), len(0, 60);
  for (int round = 0; round < 20000; ++round) {
    std::string text;
    for (std::size_t k = len(rng); k > 0; --k) text += atoms[pick(rng)];
    for (bool inclusion : {false, true}) {
      Tree t = preprocess(text, oracle_options(inclusion));
      std::string back = to_wikitext(t);
      if (back != text) FAIL("not lossless (inclusion=" << inclusion << "): " << text);
    }
  }
}

TEST_CASE("hostile input: deep nesting is cut with a diagnostic, time stays linear") {
  wikic::support::DiagnosticSink sink;
  std::string deep;
  for (int k = 0; k < 200000; ++k) deep += "{{a|";
  auto start = std::chrono::steady_clock::now();
  Tree t = preprocess(deep, {}, {&sink, "deep"});
  CHECK(to_wikitext(t) == deep);
  CHECK(sink.warnings() >= 1);
  bool depth_reported = false;
  for (const auto& d : sink.all()) depth_reported |= d.message.find("nesting deeper") != std::string::npos;
  CHECK(depth_reported);
  std::string many;
  for (int k = 0; k < 100000; ++k) many += "<nowiki><pre>[[{{x}}<ref ";
  Tree t2 = preprocess(many);
  CHECK(to_wikitext(t2) == many);
  std::string closes(1000000, '}');
  CHECK(to_wikitext(preprocess(closes)) == closes);
  std::string eqs;
  for (int k = 0; k < 100000; ++k) eqs += "\n==a<!--b-->";
  CHECK(to_wikitext(preprocess(eqs)) == eqs);
  double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  CHECK(seconds < 20.0);
}

TEST_CASE("unclosed templates are reported at their line and column") {
  wikic::support::DiagnosticSink sink;
  preprocess("a\nb {{c|d", {}, {&sink, "f.wiki#P"});
  REQUIRE(sink.all().size() == 1);
  CHECK(sink.all()[0].format() == "f.wiki#P:2:3: warning: '{{' opened here is never closed; kept as text");
}

TEST_CASE("every parserTests input preprocesses losslessly") {
  std::filesystem::path dir = shared_dir() / "parsertests";
  if (!std::filesystem::exists(dir)) {
    MESSAGE("no " << dir << "; skipped");
    return;
  }
  std::size_t inputs = 0, files = 0;
  auto start = std::chrono::steady_clock::now();
  for (const auto& entry : std::filesystem::directory_iterator(dir)) {
    if (entry.path().extension() != ".txt") continue;
    ++files;
    std::istringstream in(read(entry.path()));
    std::string line, text;
    bool in_wikitext = false;
    auto flush = [&] {
      if (!in_wikitext) return;
      if (!text.empty() && text.back() == '\n') text.pop_back();
      ++inputs;
      for (bool inclusion : {false, true}) {
        Tree t = preprocess(text, oracle_options(inclusion));
        if (to_wikitext(t) != text) FAIL(entry.path().filename().string() << ": not lossless: " << text);
        (void)to_xml(t);
        (void)to_json(t);
      }
      text.clear();
      in_wikitext = false;
    };
    while (std::getline(in, line)) {
      if (line.rfind("!!", 0) == 0) {
        flush();
        std::string name = line.substr(2);
        name.erase(0, name.find_first_not_of(" \t"));
        name.erase(name.find_last_not_of(" \t\r") + 1);
        in_wikitext = name == "wikitext";
        continue;
      }
      if (in_wikitext) text += line + '\n';
    }
    flush();
  }
  double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  MESSAGE(inputs << " parserTests wikitext inputs from " << files << " files, both modes, in " << seconds << " s");
  CHECK(inputs > 2000);
}

TEST_CASE("a '<' is decided alike at every offset of the stop scan's blocks and at the end") {
  // The scan for the next stop passes a '<' whose first two name bytes rule out every
  // tag right in its block loop; a tag, a comment, a lone '<' at the end, and text tags
  // must give the tree they give alone, wherever the sixteen-byte blocks fall.
  for (std::string snippet : {"<span>s</span>", "<pre>x</pre>", "<!-- c -->", "<", "<s", "</s", "<ref/>",
                              "<nowiki>a</nowiki><td>", "<includeonly>i</includeonly>", "<!", "<!x", "<!-"}) {
    const std::string alone = inner(to_xml(preprocess(snippet)));
    for (std::size_t pad = 0; pad < 20; ++pad)
      for (std::size_t tail : {0, 1, 2, 3, 16, 17, 18}) {
        std::string text = "x" + std::string(pad, 'p') + snippet + std::string(tail, 't');
        CAPTURE(text);
        CHECK(to_xml(preprocess(text)) ==
              "<root>x" + std::string(pad, 'p') + alone + std::string(tail, 't') + "</root>");
      }
  }
}

TEST_CASE("braces and brackets are found at every offset, after any number of blocks without a stop") {
  // The stop scan compares '[' and '{' in one (a byte ORed with 0x20), and runs through
  // blocks without a stop in a loop of its own: a template, an argument, a link, a lone
  // brace, and bytes next to them in the code table (';', ESC, 'K', 'k', '}'), must give
  // the tree they give alone, wherever the blocks fall and however many come before.
  for (std::string snippet : {"{{t|a=[[b]]}}", "{{{1|x}}}", "[[l|{{t}}]]", "{", "[", "{x", "[x", ";{{t}}\x1b", "K[[k]]",
                              "{{t}}}"}) {
    const std::string alone = inner(to_xml(preprocess(snippet)));
    for (std::size_t pad = 0; pad < 70; ++pad)
      for (std::size_t tail : {0, 1, 15, 16, 17, 40}) {
        std::string text = "x" + std::string(pad, ';') + snippet + std::string(tail, 'K');
        CAPTURE(text);
        CHECK(to_xml(preprocess(text)) ==
              "<root>x" + std::string(pad, ';') + alone + std::string(tail, 'K') + "</root>");
      }
  }
}

TEST_CASE("links are taken whole at every offset of the stop scan's blocks, and recorded alike") {
  // At the top level the stop scan takes a `[[…]]` with no stop inside as text without
  // leaving the scan; one with a stop inside, with three brackets or without its close
  // is left to on_open. Wherever the blocks fall, the tree and the links recorded in the
  // plain runs must be those of the snippet alone.
  for (std::string snippet : {"[[a]]", "[[a]][[b]]", "[[a|b]] [[c]]x", "[[[a]]]", "[[a]b]]", "[[a{{t}}]]",
                              "[[a<!--c-->]]", "[[a\n=b]]", "[[a", "[[a]", "[[<span>a</span>]]", "-[[a]]-{",
                              "[[a]]{{t}}", "<span>[[a]]</span>", "[[a]]]", "[[\n]]"}) {
    PlainRuns alone_runs;
    const std::string alone = inner(to_xml(preprocess(snippet, {}, {}, Tree{}, nullptr, &alone_runs)));
    for (std::size_t pad = 0; pad < 40; ++pad)
      for (std::size_t tail : {0, 1, 2, 3, 16, 17, 18, 40}) {
        std::string text = "x" + std::string(pad, ';') + snippet + std::string(tail, 'K');
        CAPTURE(text);
        PlainRuns runs;
        CHECK(to_xml(preprocess(text, {}, {}, Tree{}, nullptr, &runs)) ==
              "<root>x" + std::string(pad, ';') + alone + std::string(tail, 'K') + "</root>");
        REQUIRE(runs.links.size() == alone_runs.links.size());
        for (std::size_t k = 0; k < runs.links.size(); ++k) {
          CHECK(runs.links[k].begin == alone_runs.links[k].begin + 1 + pad);
          CHECK(runs.links[k].end == alone_runs.links[k].end + 1 + pad);
        }
      }
  }
}

TEST_CASE("the tag tables follow each run's extension tags and mode, however many lists alternate") {
  // They are built once per tag list and mode and kept for the next runs: lists going
  // round, more of them than are kept, must each give their own answer.
  const std::string text = "<t0>a</t0><t5>b</t5><noinclude>c</noinclude>";
  for (int round = 0; round < 3; ++round)
    for (int list = 0; list < 12; ++list) {
      Options o;
      o.extension_tags = {"t" + std::to_string(list)};
      o.for_inclusion = list % 2 == 1;
      o.report_unclosed = false;
      Tree tree = preprocess(text, o);
      CAPTURE(list);
      std::size_t tags = 0;
      for (NodeId c : tree.children(tree.root)) tags += tree.node(c).kind == NodeKind::ExtensionTag ? 1 : 0;
      // t0 or t5 if listed; <noinclude> is an element (hidden) for inclusion only.
      CHECK(tags == (list == 0 || list == 5 ? 1u : 0u));
      CHECK(tree.extension_tags.size() == tags);
    }
}

TEST_CASE("restore mode words") {
  RestoreMode m{};
  CHECK(parse_restore_mode("always", m));
  CHECK(m == RestoreMode::Always);
  CHECK_FALSE(parse_restore_mode("sometimes", m));
  CHECK_FALSE(looks_collapsed("short {| |- |}"));
}

TEST_CASE("collapse → restore → preprocess gives the original tree (modulo whitespace)") {
  std::filesystem::path dir = std::filesystem::path(WIKIC_SOURCE_DIR) / "corpus" / "restore-lines";
  std::size_t fixtures = 0;
  for (const auto& entry : std::filesystem::directory_iterator(dir)) {
    if (entry.path().extension() != ".wiki") continue;
    ++fixtures;
    std::string original = read(entry.path());
    while (!original.empty() && original.back() == '\n') original.pop_back();
    std::string collapsed = collapse_newlines(original);
    wikic::support::DiagnosticSink sink;
    RestoreResult r = restore_lines(collapsed, RestoreMode::Always, {}, {&sink, entry.path().filename().string()});
    CHECK(r.restored);
    CHECK(sink.warnings() == 1);
    INFO(entry.path().filename().string() << "\nrestored:\n" << r.text);
    CHECK(signature(r.text) == signature(original));
    MESSAGE(entry.path().filename().string() << ": " << std::count(original.begin(), original.end(), '\n')
                                             << " original line breaks, " << r.replaced + r.inserted << " restored");
    // In place (the pipeline's way, which overwrites blanks when nothing is inserted):
    // the same text, counts and warning.
    std::string in_place = collapsed;
    wikic::support::DiagnosticSink in_place_sink;
    RestoreResult p = restore_lines_in_place(in_place, RestoreMode::Always, {}, {&in_place_sink, "in place"});
    CHECK(p.restored);
    CHECK(p.text.empty());
    CHECK(in_place == r.text);
    CHECK(p.replaced == r.replaced);
    CHECK(p.inserted == r.inserted);
    CHECK(in_place_sink.warnings() == 1);
    // Never: unchanged. Auto on the original: not collapsed, unchanged.
    CHECK(restore_lines(collapsed, RestoreMode::Never).text == collapsed);
    CHECK_FALSE(restore_lines(original, RestoreMode::Auto).restored);
  }
  CHECK(fixtures >= 3);
}

TEST_CASE("line restoration finds a table's markers at every offset of its sixteen-byte search") {
  // The scan for the next table or heading marker compares sixteen bytes at once, with a
  // plain loop for the last bytes, and folds bytes with 0x20 so that one compare takes
  // two stops: bytes that fold onto a stop without being one ('\\', '\n' is absent here,
  // a '!' outside a table, \x03) must change nothing, wherever the blocks fall.
  const std::string table = "{| class=\"t\"\n|-\n! h1 !! h2\n|-\n| a\\b || c!d\x03 || [[L|x]]\n|}";
  for (std::size_t pad = 0; pad < 40; ++pad)
    for (std::size_t tail : {0, 1, 15, 16, 17}) {
      std::string original = "Text! " + std::string(pad, 'p') + " \x03 x\n" + table;
      if (tail > 0) original += "\n" + std::string(tail, 't');
      std::string collapsed = collapse_newlines(original);
      RestoreResult r = restore_lines(collapsed, RestoreMode::Always);
      CAPTURE(pad);
      CAPTURE(tail);
      CHECK(r.text == original);
    }
}

TEST_CASE("line restoration's search of a text run's last bytes stops at the run's end") {
  // A text run's last bytes are searched as one block that reads on into the node after
  // it, the bits past the run cleared: a '|' or '!' in a comment or template must not be
  // taken for a marker, nor the node passed over (a block-style call starts a row), at
  // every length of the run before it.
  for (std::size_t pad = 0; pad < 40; ++pad) {
    const std::string p(pad, 'p');
    for (const std::string& original :
         {"{|\n|-\n| " + p + "\n{{Row |a}}\n| x <!-- | ! -->|| y\n|}",
          "{|\n|-\n! h" + p + "<!--|-->!! g {{t|!}}\n|-\n| " + p + "{{t|x}}|| z\n|}\nend"}) {
      CAPTURE(original);
      CHECK(restored_from_collapsed(original) == original);
    }
  }
}

TEST_CASE("a cell's attributes are told from its text up to the '|' after them") {
  // The attribute test walks the cell's text up to the '|' it stopped at, which ends its
  // loops: a quote or value left open there, a valueless name or an empty value make the
  // '|' a new cell; a closed name=value pair makes it the attribute separator.
  for (std::string original : {"{|\n| class=\"x\" | y\n|}", "{|\n| class=x | y\n|}", "{|\n| a=\"\" b | y\n|}",
                               "{|\n| class=\"x\n| y\n|}", "{|\n| a b\n| y\n|}",
                               "{|\n| a=\n| y\n|}", "{|\n| a='x\n| y\n|}", "{|\n| a\t=\t'x'\t| y\n|}"}) {
    CAPTURE(original);
    CHECK(restored_from_collapsed(original) == original);
  }
}

TEST_CASE("a cell's quoted attribute value closes only before its '|', at any length") {
  // The close of a quoted value is searched sixteen bytes at a time up to the end of the
  // page: a quote found after the '|' (in the next cell, or among the last bytes of the
  // page) does not close it, and the close is found at every offset of a block.
  for (std::size_t length = 0; length < 40; ++length) {
    const std::string value(length, 'v');
    CAPTURE(length);
    for (const std::string& original :
         {"{|\n| a=\"" + value + "\" | y\n|}", "{|\n| a=\"" + value + "\n| y \"\n|}",
          "{|\n| a='" + value + "'\t| y'\n|}", "{|\n| b=1 a='" + value + "\n| z'",
          "{|\n| b=1 a='" + value + "\n| '"}) {
      CAPTURE(original);
      CHECK(restored_from_collapsed(original) == original);
    }
  }
}

TEST_CASE("a cell attribute's name is told at every length, up to a byte that is no lowercase letter") {
  // Lowercase letters at the start of a name are counted eight bytes at a time (when eight
  // bytes are left in the page): the count must stop at the first other byte, whether it
  // is a name byte (uppercase, digit, '-', ':'), a byte that sits next to the letters
  // ('`', '{', '@', '['), or a UTF-8 byte of 0x80 or more, and a name may run past eight.
  for (std::size_t length = 1; length < 20; ++length) {
    const std::string name(length, 'k');
    CAPTURE(length);
    for (std::string tail : {"", "Z", "9", "-x", ":y", "az"}) {
      const std::string original = "{|\n| " + name + tail + "=\"v\" | y\n|}";
      CAPTURE(original);
      CHECK(restored_from_collapsed(original) == original);
    }
    for (std::string tail : {"`", "{", "@", "[", "\xc3\xa9", "\xff"}) {
      const std::string original = "{|\n| " + name + tail + "=\"v\"\n| y\n|}";
      CAPTURE(original);
      CHECK(restored_from_collapsed(original) == original);
    }
    // At the end of the page, fewer than eight bytes from the name's start.
    const std::string at_end = "{|\n| " + name + "=1 |y";
    CAPTURE(at_end);
    CHECK(restored_from_collapsed(at_end) == at_end);
  }
}

TEST_CASE("line restoration sees each node as one byte, also where a look-around reaches it") {
  // The scanner reads the page in place, a node (template, comment) counting as one
  // opaque byte: a heading's closing '=' run searched past a node, cell attributes whose
  // text holds one, a marker's next byte at the end of a text run, the byte before a list
  // item, and what follows `|}` must all see that byte, as a copy with placeholders did.
  auto restored = [](const std::string& original, bool in_place) {
    std::string collapsed = collapse_newlines(original);
    if (!in_place) return restore_lines(collapsed, RestoreMode::Always).text;
    restore_lines_in_place(collapsed, RestoreMode::Always);
    return collapsed;
  };
  for (bool in_place : {false, true}) {
    CAPTURE(in_place);
    for (std::string original :
         {"Text\n== a {{t}} b ==\nmore", "Text\n== a <!-- c --> b ==\nmore", "Text\n== a {{t}} b ==",
          "Text\n== a ==\n", "{|\n| style=\"{{t}}\" | y\n|}", "{|\n| a={{t}} | y\n|}", "{|\n|-\n|{{t}}\n|}",
          "{|\n|-\n{{Row |a}}\n|}", "{{t}}\n* item", "{|\n|}\n{{t}}", "{|\n|-\n| x\n|}\n{{t}}<!-- c -->\n* y",
          "{|\n|-\n! h {{t}}!! g\n|}", "{|\n|-\n| x {{t}}|| y\n|}"}) {
      CAPTURE(original);
      CHECK(restored(original, in_place) == original);
    }
    // A node after a name ends the attributes: the '|' starts a cell.
    CHECK(restored("{| | a=\"x\" {{t}} | y |}", in_place) == "{|\n| a=\"x\" {{t}}\n| y\n|}");
  }
}

TEST_CASE("line restoration steps over the links the preprocessor took whole") {
  // A `[[…]]` taken whole as text holds no line start ('|' and '!' in it are link syntax):
  // the scanner jumps from its `[[` to its end. Links not taken whole (a template or an
  // inner link in them, left open) are counted bracket by bracket as before.
  const std::string table =
      "{| class=\"t\"\n|-\n| [[a|b]] || [[File:c.png|x25px|left]] [[d]]]\n| x [[e|f [[g]] h]] y [[i|{{t}}]]\n"
      "| z [[ [[j|k]] ]] w\n|-\n! [[l|!]] !! m\n|}";
  for (std::string original : {table, "[[n|o]]\n" + table + "\n[[p|q]]", "Text [[r]]\n" + table + "\n[[s]]]"}) {
    std::string collapsed = collapse_newlines(original);
    CAPTURE(original);
    CHECK(restore_lines(collapsed, RestoreMode::Always).text == original);
  }
}

TEST_CASE("a page found collapsed is restored alike from the newlines its detection noted") {
  // In Auto mode the newlines the detection found are merged with the restored ones, in
  // Always mode the text is searched for them: the same newlines, text and counts.
  std::filesystem::path seed = shared_dir() / "peers" / "data" / "sdts.collapsed.wiki";
  if (!std::filesystem::exists(seed)) return;
  std::string collapsed = read(seed);
  // A few newlines of its own: at the start, the end, and among the ones restored.
  for (std::size_t at : {std::size_t{0}, collapsed.size() / 3, collapsed.size() / 2, collapsed.size() - 1})
    collapsed.insert(at, "\n");
  REQUIRE(looks_collapsed(collapsed));
  std::string automatic = collapsed, always = collapsed, counted = collapsed;
  RestoreResult a = restore_lines_in_place(automatic, RestoreMode::Auto);
  RestoreResult b = restore_lines_in_place(always, RestoreMode::Always);
  // With the count the export reader makes, the search for them stops at the last.
  const auto newlines = static_cast<std::size_t>(std::count(collapsed.begin(), collapsed.end(), '\n'));
  RestoreResult c = restore_lines_in_place(counted, RestoreMode::Auto, {}, {}, newlines);
  REQUIRE(a.restored);
  CHECK(automatic == always);
  CHECK(counted == always);
  CHECK(a.replaced == b.replaced);
  CHECK(a.inserted == b.inserted);
  CHECK(c.replaced == b.replaced);
  CHECK(c.inserted == b.inserted);
  CHECK(a.plain_runs.newlines_known == b.plain_runs.newlines_known);
  CHECK(a.plain_runs.newlines == b.plain_runs.newlines);
  CHECK(c.plain_runs.newlines == b.plain_runs.newlines);
  // A count of a page with a newline per kilobyte or more says it is not collapsed, on
  // its own.
  std::string lined = collapsed;
  CHECK_FALSE(restore_lines_in_place(lined, RestoreMode::Auto, {}, {}, lined.size() / 1000 + 1).restored);
  CHECK(lined == collapsed);
  std::vector<std::uint32_t> every;
  for (std::size_t k = 0; k < automatic.size(); ++k)
    if (automatic[k] == '\n') every.push_back(static_cast<std::uint32_t>(k));
  if (a.plain_runs.newlines_known) CHECK(a.plain_runs.newlines == every);
}

TEST_CASE("the seed page is detected as collapsed and restored") {
  std::filesystem::path peers = shared_dir() / "peers" / "data";
  if (!std::filesystem::exists(peers / "sdts.collapsed.wiki")) return;
  std::string collapsed = read(peers / "sdts.collapsed.wiki");
  CHECK(looks_collapsed(collapsed));
  RestoreResult r = restore_lines(collapsed, RestoreMode::Auto);
  REQUIRE(r.restored);
  std::size_t lines = std::count(r.text.begin(), r.text.end(), '\n');
  MESSAGE("seed: " << lines << " line breaks restored (" << r.inserted << " inserted)");
  CHECK(lines > 1400);
  CHECK(to_wikitext(preprocess(r.text)) == r.text);
}

namespace {

// Node by node, every field but the node ids: plain runs may only spare work, never
// change the tree. (A run taking the known tree's nodes keeps them where that tree had
// them, so the arenas differ in layout; the trees read through them must not.)
bool same_node(const Tree& a, NodeId x_id, const Tree& b, NodeId y_id) {
  if ((x_id == kNoNode) != (y_id == kNoNode)) return false;
  if (x_id == kNoNode) return true;
  const Node &x = a.nodes[x_id], &y = b.nodes[y_id];
  if (x.span.begin != y.span.begin || x.span.end != y.span.end || x.kind != y.kind || x.level != y.level ||
      x.line_start != y.line_start || x.possible != y.possible ||
      (x.first_child == kNoNode) != (y.first_child == kNoNode) || (x.last_child == kNoNode) != (y.last_child == kNoNode))
    return false;
  if (x.kind == NodeKind::ExtensionTag) {
    const ExtensionTagParts &p = a.extension_tag(x), &q = b.extension_tag(y);
    if (p.name.begin != q.name.begin || p.name.end != q.name.end || p.attributes.begin != q.attributes.begin ||
        p.attributes.end != q.attributes.end || p.has_inner != q.has_inner || p.has_close != q.has_close ||
        (p.has_inner && (p.inner.begin != q.inner.begin || p.inner.end != q.inner.end)) ||
        (p.has_close && (p.close.begin != q.close.begin || p.close.end != q.close.end)))
      return false;
  } else if (x.index != y.index) {
    return false;
  }
  NodeId cx = x.first_child, cy = y.first_child, lx = kNoNode, ly = kNoNode;
  for (; cx != kNoNode && cy != kNoNode; lx = cx, ly = cy, cx = a.nodes[cx].next_sibling, cy = b.nodes[cy].next_sibling)
    if (!same_node(a, cx, b, cy)) return false;
  return cx == kNoNode && cy == kNoNode && lx == x.last_child && ly == y.last_child;
}

bool same_tree(const Tree& a, const Tree& b) {
  return a.root != kNoNode && b.root != kNoNode && a.nodes[a.root].next_sibling == kNoNode &&
         b.nodes[b.root].next_sibling == kNoNode && same_node(a, a.root, b, b.root);
}

}  // namespace

TEST_CASE("plain runs of a text give the tree of it with any blanks turned into newlines") {
  // Atoms around line starts: headings and '=' after a newline, comments alone on a line,
  // templates at a line start, links and tags spanning blanks, unclosed pieces.
  const std::string atoms[] = {" ", " ", " ", "\t", "\n", "=", "==", "a", "|", "-", "{", "}", "[", "]", "<", ">",
                               "{{", "}}", "{{{", "}}}", "[[", "]]", "-{", "}-", "<!--", "-->", "<!-- c -->",
                               "<ref>", "</ref>", "<ref ", "<pre ", "</pre>", "<nowiki>", "<span ", "<noinclude>",
                               "</noinclude>", "<includeonly>", "</includeonly>", "== h ==", "{{T |a=b}}", "{|",
                               "|-", "|}", "||", "!", "<section ", "\xC3\xA9"};
  std::mt19937 rng(20261123);
  std::uniform_int_distribution<std::size_t> pick(0, std::size(atoms) - 1), len(0, 80);
  std::bernoulli_distribution flip(0.5);
  std::size_t compared = 0, taken = 0, lent = 0;
  for (int round = 0; round < 20000; ++round) {
    std::string text;
    for (std::size_t k = len(rng); k > 0; --k) text += atoms[pick(rng)];
    PlainRuns runs;
    // Restored in place, as restoration does: the tree of the text before is of the
    // same bytes, and every other round lends it, its nodes taken by the second run.
    std::string restored = text;
    Tree before = preprocess(restored, {}, {}, Tree{}, nullptr, &runs);
    REQUIRE(runs.recorded);
    // Lent, the blanks in its top-level templates and arguments stay (restoration turns
    // only top-level text into newlines), and the lineStart of each may change.
    const bool lend = round % 2 == 0;
    std::vector<bool> kept(restored.size(), false);
    if (lend) {
      runs.tree = &before;
      for (NodeId c : before.children(before.root)) {
        const Node& n = before.node(c);
        if (n.kind == NodeKind::Template || n.kind == NodeKind::Argument)
          for (std::uint32_t k = n.span.begin; k < n.span.end; ++k) kept[k] = true;
      }
    }
    for (std::size_t k = 0; k < restored.size(); ++k)
      if ((restored[k] == ' ' || restored[k] == '\t') && !kept[k] && flip(rng)) restored[k] = '\n';
    Tree expected = preprocess(restored);
    Tree got = preprocess(restored, {}, {}, Tree{}, &runs, nullptr);
    ++compared;
    taken += runs.spans.empty() ? 0 : 1;
    lent += lend && before.nodes.empty() ? 1 : 0;
    if (!same_tree(expected, got)) FAIL("trees differ\ncollapsed: " << text << "\nrestored: " << restored);
  }
  CHECK(taken > compared / 2);
  CHECK(lent > compared / 4);
  {
    // A heading now before a template taken whole renumbers the headings inside it, and
    // the newline before it gives it its lineStart.
    std::string page = "a == x == {{T|\n== y ==\n}} c";
    PlainRuns lent_runs;
    Tree before = preprocess(page, {}, {}, Tree{}, nullptr, &lent_runs);
    lent_runs.tree = &before;
    page[1] = page[9] = '\n';
    Tree expected = preprocess(page);
    Tree got = preprocess(page, {}, {}, Tree{}, &lent_runs, nullptr);
    CHECK(before.nodes.empty());
    CHECK(same_tree(expected, got));
  }
  // Runs recorded with other settings or on a text of another length are not taken:
  // without `pre` as a tag, all of this is plain; with it, not.
  Options nowiki_only;
  nowiki_only.extension_tags = {"nowiki"};
  PlainRuns runs;
  preprocess("a <pre>x</pre> b", nowiki_only, {}, Tree{}, nullptr, &runs);
  REQUIRE(runs.spans.size() == 1);
  CHECK(same_tree(preprocess("a <pre>x</pre>\nb"), preprocess("a <pre>x</pre>\nb", {}, {}, Tree{}, &runs, nullptr)));
  CHECK(same_tree(preprocess("{{x}} <pre>x</pre> b", nowiki_only),
                  preprocess("{{x}} <pre>x</pre> b", nowiki_only, {}, Tree{}, &runs, nullptr)));
  // A transclusion neither records nor takes them.
  Options inclusion;
  inclusion.for_inclusion = true;
  PlainRuns none;
  preprocess("a b", inclusion, {}, Tree{}, nullptr, &none);
  CHECK_FALSE(none.recorded);
}

TEST_CASE("restoration's plain runs give the restored page's tree") {
  std::vector<std::pair<std::string, std::string>> pages;  // name, collapsed text
  std::filesystem::path dir = std::filesystem::path(WIKIC_SOURCE_DIR) / "corpus" / "restore-lines";
  for (const auto& entry : std::filesystem::directory_iterator(dir)) {
    if (entry.path().extension() != ".wiki") continue;
    std::string collapsed = collapse_newlines(read(entry.path()));
    pages.emplace_back(entry.path().filename().string(), collapsed);
  }
  std::filesystem::path seed = shared_dir() / "peers" / "data" / "sdts.collapsed.wiki";
  if (std::filesystem::exists(seed)) pages.emplace_back("seed", read(seed));
  REQUIRE(pages.size() >= 3);
  std::size_t with_spans = 0;
  for (auto& [name, collapsed] : pages) {
    INFO(name);
    std::string text = collapsed;
    RestoreResult r = restore_lines_in_place(text, RestoreMode::Always);
    REQUIRE(r.restored);
    CHECK(r.plain_runs.recorded == (r.inserted == 0));
    if (!r.plain_runs.recorded) continue;
    // A page opening with a heading has none: collapsed, the heading runs to its end.
    with_spans += r.plain_runs.spans.empty() ? 0 : 1;
    CHECK(same_tree(preprocess(text), preprocess(text, {}, {}, Tree{}, &r.plain_runs, nullptr)));
  }
  CHECK(with_spans >= 2);
}
