// Tests of the tree-level selector work: path conditions on parsed documents, the
// tree lints (unsatisfiable content, repeated conditions), and the offline projection
// on fixtures and on the seed page (`wikic select`). Kept apart from select_test so the
// condition language is tested even while the parse stage is being changed.
#include <doctest/doctest.h>

#include <algorithm>
#include <stdexcept>

#include "parse/parser.hpp"
#include "select/probe_table.hpp"
#include "select/tree_conditions.hpp"
#include "util/run.hpp"

using namespace wikic::select;
using wikic::support::DiagnosticSink;

namespace {

const char* kFixture =
    "{|\n"
    "|- class=\"showInns\"\n"
    "| Inn row <span class=\"showC1\">follower</span><span class=\"showC2\">meeple</span>\n"
    "|- class=\"showWells\"\n"
    "| Wells row\n"
    "|- class=\"showCircusAndNotAcrobats\"\n"
    "| Circus only <span class=\"showC1\">a<span class=\"showC2\">dead</span></span>\n"
    "|}\n"
    "<div class=\"hideWhenDone\">Transmogrifying...</div>\n"
    "<div data-dynamic-selector=\"['OR','showInns','showWells']\">inns or wells</div>\n"
    "<div class=\"showStep1A_Messages\">dispatch reminder</div>\n"
    "{{ScoringRow|selectorid=showWells|description=x}}\n";

struct Projected {
  std::string text;
  std::vector<std::string> diagnostics;
};

Projected project(const std::string& text, Selection s, TreeOptions options = {}) {
  DiagnosticSink sink;
  wikic::parse::Document doc = wikic::parse::parse_document(text, sink, {});
  TreeConditions c = tree_conditions(doc, "f", sink, Vocabulary::builtin(), options);
  Projected out{project_text(doc, c, s), {}};
  for (const auto& d : sink.all()) out.diagnostics.push_back(d.format());
  return out;
}

std::size_t count(const std::string& hay, const std::string& needle) {
  std::size_t n = 0;
  for (auto p = hay.find(needle); p != std::string::npos; p = hay.find(needle, p + 1)) ++n;
  return n;
}

}  // namespace

TEST_CASE("projection of a fixture: rows, wording, structural ids, dynamic selectors") {
  Selection inns;
  inns.edition = Edition::C2;
  inns.expansions = {"Inns"};
  auto p = project(kFixture, inns);
  CHECK(p.text == "Inn row meeple\ninns or wells\n");

  Selection c1;
  c1.edition = Edition::C1;
  c1.expansions = {"Wells", "Circus", "Messages"};
  p = project(kFixture, c1);
  CHECK(p.text == "Wells row\nCircus only a\ninns or wells\ndispatch reminder\n");

  Selection we;
  we.edition = Edition::WE;
  we.expansions = {"Inns", "Acrobats", "Circus"};
  CHECK(project(kFixture, we).text == "Inn row meeple\ninns or wells\n");
}

TEST_CASE("tree lints: content that can never be shown, with position") {
  auto p = project(kFixture, Selection{});
  REQUIRE(p.diagnostics.size() == 1);
  CHECK(p.diagnostics[0] ==
        "f:7:37: warning: content can never be shown: 'showC2' (C2) contradicts the enclosing condition "
        "C1 & Circus & !Acrobats");
  // Repeating the enclosing condition is reported only when asked for (--lint redundant).
  const std::string repeated = "<span class=\"showC1\"><span class=\"showC1\">followers</span></span>\n";
  CHECK(project(repeated, Selection{}).diagnostics.empty());
  TreeOptions redundant;
  redundant.lint_redundant = true;
  auto r = project(repeated, Selection{}, redundant);
  REQUIRE(r.diagnostics.size() == 1);
  CHECK(r.diagnostics[0] == "f:1:22: warning: class 'showC1' repeats a condition already implied by the enclosing C1");
}

TEST_CASE("wikic select on the seed page: inns without wells, one edition's wording") {
  std::string seed = wikic::test::source_path("corpus/wica/scoring-during-turn-sequence.xml");
  auto inns = wikic::test::run_wikic("select " + seed + " --edition C2 --with Inns");
  CHECK(inns.status == 0);
  CHECK(inns.out.rfind("# Carcassonne Scoring During Turn Sequence\n", 0) == 0);
  CHECK(inns.out.find("Road with inn(s)") != std::string::npos);
  std::string lower = inns.out;
  std::transform(lower.begin(), lower.end(), lower.begin(), [](unsigned char ch) { return std::tolower(ch); });
  CHECK(lower.find("well") == std::string::npos);
  // The seed's showC2 span inside a showC1 span (written twice, in both Messages variants).
  CHECK(inns.err.find(":56:324: warning: content can never be shown: 'showC2' (C2) contradicts the enclosing "
                      "condition C1 & Messages & Messages_ForC1") != std::string::npos);

  auto c1 = wikic::test::run_wikic("select " + seed + " --edition C1 --all-expansions");
  CHECK(c1.status == 0);
  CHECK(count(c1.out, "follower") > 50);
  CHECK(count(c1.out, "followermeeple") == 0);
  CHECK(count(c1.out, "followersmeeples") == 0);
  auto c2 = wikic::test::run_wikic("select " + seed + " --edition C2 --all-expansions");
  CHECK(count(c2.out, "follower") == 0);
  CHECK(count(c2.out, "meeple") > 50);

  auto bad = wikic::test::run_wikic("select " + seed + " --edition C2 --with Innz");
  CHECK(bad.err.find("--with: warning: unknown expansion id 'Innz' (closest known: showInns") != std::string::npos);
}

TEST_CASE("memoised path conditions: every node still reports, own and full agree with a fresh walk") {
  // The same dead pair twice: its lint is not memoised away at the second place.
  const std::string twice = "<span class=\"showC1\"><span class=\"showC2\">x</span></span>\n"
                            "<span class=\"showC1\"><span class=\"showC2\">y</span></span>\n";
  auto p = project(twice, Selection{});
  REQUIRE(p.diagnostics.size() == 2);
  CHECK(p.diagnostics[0].rfind("f:1:", 0) == 0);
  CHECK(p.diagnostics[1].rfind("f:2:", 0) == 0);

  DiagnosticSink sink;
  wikic::parse::Document doc = wikic::parse::parse_document(kFixture, sink, {});
  TreeConditions cold = tree_conditions(doc, "f", sink, Vocabulary::builtin());
  TreeConditions warm = tree_conditions(doc, "f", sink, Vocabulary::builtin());
  REQUIRE(cold.own.size() == doc.size());
  std::size_t with_own = 0;
  for (wikic::parse::NodeId id = 0; id < doc.size(); ++id) {
    CAPTURE(id);
    DiagnosticSink quiet;
    CHECK(to_string(cold.own[id]) == to_string(own_selector(doc, id, "f", quiet).condition));
    CHECK(to_string(cold.full[id]) == to_string(warm.full[id]));
    with_own += !cold.own[id].is_true();
  }
  CHECK(with_own >= 6);  // the rows, spans and divs of the fixture that carry a selector
}

TEST_CASE("the arena walk agrees with the walk in document order: hidden subtrees, repeated pairs") {
  // Nested and successive hidden subtrees with content after them, and rows and cells
  // that repeat one (parent condition, own condition) pair, which the arena walk takes
  // from its caches. A node under no parent sends tree_conditions to the walk in
  // document order, which reads every node's parent; the reached nodes must agree.
  const std::string text =
      "<div class=\"hideWhenDone\">a<div class=\"hideWhenDone\">b<span class=\"showC1\">c</span></div>d</div>\n"
      "after <b>bold</b>\n"
      "{|\n"
      "|- class=\"showInns\"\n"
      "| class=\"showC1\" | x || class=\"showC1\" | y\n"
      "|- class=\"showInns\"\n"
      "| class=\"showC1\" | z <div class=\"hideWhenDone\">w</div> v\n"
      "|}\n"
      "tail <span class=\"showC2\">t</span>\n";
  DiagnosticSink sink;
  wikic::parse::Document doc = wikic::parse::parse_document(text, sink, {});
  TreeConditions arena = tree_conditions(doc, "f", sink, Vocabulary::builtin());
  const std::size_t reached = doc.size();
  doc.add_node(wikic::parse::NodeKind::Text, 0, {0, 1}, wikic::parse::kNoNode);
  TreeConditions ordered = tree_conditions(doc, "f", sink, Vocabulary::builtin());
  std::size_t hidden = 0, shown_after_hidden = 0;
  for (std::size_t id = 0; id < reached; ++id) {
    CAPTURE(id);
    CHECK(to_string(arena.full[id]) == to_string(ordered.full[id]));
    CHECK(to_string(arena.own[id]) == to_string(ordered.own[id]));
    CHECK(arena.hidden[id] == ordered.hidden[id]);
    hidden += arena.hidden[id];
    if (hidden && !arena.hidden[id]) ++shown_after_hidden;
  }
  CHECK(hidden >= 9);  // the three divs and what they hold
  CHECK(shown_after_hidden > 0);
  CHECK(std::count_if(arena.full.begin(), arena.full.begin() + reached,
                      [](const Condition& c) { return to_string(c) == "C1 & Inns"; }) >= 3);
}

TEST_CASE("condition columns: recycled arrays, copies that outlive a recycling, nodes the walk does not reach") {
  DiagnosticSink sink;
  wikic::parse::Document big = wikic::parse::parse_document(kFixture, sink, {});
  TreeConditions first = tree_conditions(big, "f", sink, Vocabulary::builtin());
  REQUIRE(first.full.size() == big.size());
  std::vector<std::string> before;
  for (const Condition& c : first.full) before.push_back(to_string(c));
  CHECK(std::count_if(first.full.begin(), first.full.end(), [](const Condition& c) { return !c.is_true(); }) >= 6);
  CHECK_THROWS_AS((void)first.full.at(big.size()), std::out_of_range);
  TreeConditions kept = first;  // shares the first walk's table

  // A small page, plus nodes under no parent (the parser builds none, but a Document
  // can hold them): recycling the first walk's arrays must not leave its values there.
  wikic::parse::Document small =
      wikic::parse::parse_document("<div class=\"hideWhenDone\"><span class=\"showC1\">x</span></div>\n", sink, {});
  std::size_t reached = small.size();
  while (small.size() < big.size()) small.add_node(wikic::parse::NodeKind::Text, 0, {0, 1}, wikic::parse::kNoNode);
  std::size_t stale = 0;
  for (std::size_t id = reached; id < big.size(); ++id) stale += !first.full[id].is_true() || first.hidden[id];
  REQUIRE(stale > 0);  // so the check below could fail
  TreeConditions second = tree_conditions(small, "f", sink, Vocabulary::builtin(), {}, std::move(first));
  REQUIRE(second.full.size() == small.size());
  REQUIRE(second.own.size() == small.size());
  for (std::size_t id = reached; id < small.size(); ++id) {
    CAPTURE(id);
    CHECK(second.full[id].is_true());
    CHECK(second.own[id].is_true());
    CHECK(second.hidden[id] == 0);
  }
  // The reached nodes as a walk into new arrays sees them.
  TreeConditions fresh = tree_conditions(small, "f", sink, Vocabulary::builtin());
  for (std::size_t id = 0; id < small.size(); ++id) {
    CAPTURE(id);
    CHECK(to_string(second.full[id]) == to_string(fresh.full[id]));
    CHECK(to_string(second.own[id]) == to_string(fresh.own[id]));
    CHECK(second.hidden[id] == fresh.hidden[id]);
  }
  CHECK(std::count(fresh.hidden.begin(), fresh.hidden.end(), 1) >= 2);  // the hideWhenDone div and what it holds
  CHECK(std::count_if(fresh.own.begin(), fresh.own.end(), [](const Condition& c) { return to_string(c) == "C1"; }) == 1);

  // The copy still reads the first walk's conditions.
  REQUIRE(kept.full.size() == before.size());
  for (std::size_t id = 0; id < before.size(); ++id) CHECK(to_string(kept.full[id]) == before[id]);
}

TEST_CASE("condition columns: a table kept from page to page reads as a fresh walk's") {
  // Recycled arrays that nothing else holds keep their table of conditions for the next
  // page (which adds only what it lacks); a walk the arena cannot do (nodes under no
  // parent) starts the table afresh. Each page must read as a walk into new arrays.
  DiagnosticSink sink;
  std::vector<wikic::parse::Document> pages;
  pages.push_back(wikic::parse::parse_document(kFixture, sink, {}));
  pages.push_back(wikic::parse::parse_document(
      "<span class=\"showC2 showInns\">a</span><div class=\"hideWhenDone\"><b class=\"showC1\">b</b></div>\n", sink, {}));
  pages.push_back(wikic::parse::parse_document("<div class=\"showWells\">x<span class=\"showC1\">y</span></div>\n", sink, {}));
  pages.back().add_node(wikic::parse::NodeKind::Text, 0, {0, 1}, wikic::parse::kNoNode);
  struct Seen {
    std::vector<std::string> full, own;
    std::vector<std::uint8_t> hidden;
    std::size_t reports = 0;
  };
  auto seen = [](const TreeConditions& c, std::size_t reports) {
    Seen s;
    for (const Condition& x : c.full) s.full.push_back(to_string(x));
    for (const Condition& x : c.own) s.own.push_back(to_string(x));
    s.hidden = c.hidden;
    s.reports = reports;
    return s;
  };
  const std::size_t order[] = {0, 1, 0, 2, 1, 0, 1, 2, 2, 0};
  std::vector<Seen> fresh;
  for (std::size_t page : order) {
    DiagnosticSink s;
    TreeConditions c = tree_conditions(pages[page], "f", s, Vocabulary::builtin());
    fresh.push_back(seen(c, s.all().size()));
  }
  // No other walk in between, so each one recycles the table of the one before.
  TreeConditions recycled;
  for (std::size_t i = 0; i < std::size(order); ++i) {
    CAPTURE(i);
    DiagnosticSink s;
    recycled = tree_conditions(pages[order[i]], "f", s, Vocabulary::builtin(), {}, std::move(recycled));
    Seen now = seen(recycled, s.all().size());
    CHECK(now.full == fresh[i].full);
    CHECK(now.own == fresh[i].own);
    CHECK(now.hidden == fresh[i].hidden);
    CHECK(now.reports == fresh[i].reports);
  }
  CHECK(std::count(fresh[0].full.begin(), fresh[0].full.end(), "C1 & Inns") >= 1);
  CHECK(std::count(fresh[1].hidden.begin(), fresh[1].hidden.end(), 1) >= 2);
  CHECK(fresh[0].reports > 0);  // the dead span: the reporting pair is walked every time
}

TEST_CASE("diagnostics in document order when the arena holds the nodes in another order") {
  // The walk reads the arena front to back; a Document whose nodes were not made in
  // document order (the parser makes none) must still report in document order.
  const std::string text = "<span class=\"showC1\"><span class=\"showC2\">x</span></span>\n"
                           "<span class=\"showC1\"><span class=\"showC2\">y</span></span>\n";
  DiagnosticSink parsed_sink;
  wikic::parse::Document parsed = wikic::parse::parse_document(text, parsed_sink, {});
  (void)tree_conditions(parsed, "f", parsed_sink, Vocabulary::builtin());
  REQUIRE(parsed_sink.all().size() == 2);

  using wikic::parse::NodeKind;
  wikic::parse::Document doc;
  std::string_view source = doc.source(doc.add_source(text));
  auto element = [&](std::uint32_t begin, std::uint32_t end, wikic::parse::NodeId parent, std::uint32_t value_at) {
    wikic::parse::NodeId id = doc.add_node(NodeKind::Element, 0, {begin, end}, parent);
    doc.mutable_node(id).name = "span";
    wikic::parse::Attribute a;
    a.name = source.substr(value_at - 7, 5);
    a.value = source.substr(value_at, 6);
    a.has_value = true;
    a.span = {value_at - 7, value_at + 7};
    doc.mutable_node(id).attr_begin = doc.add_attribute(a);
    doc.mutable_node(id).attr_count = 1;
    return id;
  };
  const auto line2 = static_cast<std::uint32_t>(text.find('\n') + 1);
  wikic::parse::NodeId root = doc.add_node(NodeKind::Document, 0, {0, static_cast<std::uint32_t>(text.size())},
                                           wikic::parse::kNoNode);
  wikic::parse::NodeId first = element(0, line2 - 1, root, 13);
  wikic::parse::NodeId second = element(line2, static_cast<std::uint32_t>(text.size()) - 1, root, line2 + 13);
  // Each inner span is made after both outer ones, the second's before the first's.
  element(line2 + 21, line2 + 50, second, line2 + 34);
  element(21, 50, first, 34);
  REQUIRE(doc.attributes(doc.node(4))[0].value == "showC2");

  DiagnosticSink sink;
  TreeConditions c = tree_conditions(doc, "f", sink, Vocabulary::builtin());
  REQUIRE(sink.all().size() == 2);
  for (std::size_t i = 0; i < 2; ++i) CHECK(sink.all()[i].format() == parsed_sink.all()[i].format());
  CHECK(to_string(c.full[3]) == to_string(c.full[4]));
  CHECK(!c.full[3].is_true());
}

TEST_CASE("the selector memo table finds what it holds, tells colliding keys apart and stays bounded") {
  struct Entry {
    int key;
    std::string value;
  };
  ProbeTable<Entry> table(1000);
  // Hashes that share their slot bits and their tag: only the key tells them apart.
  auto hash = [](int key) { return key < 500 ? mix64(static_cast<std::uint64_t>(key)) : std::uint64_t{42}; };
  auto find = [&](int key) { return table.find(hash(key), [&](const Entry& e) { return e.key == key; }); };
  for (int k = 0; k < 600; ++k) {
    REQUIRE(find(k) == nullptr);
    table.insert(hash(k), Entry{k, std::to_string(k)});
  }
  CHECK(table.size() == 600);
  for (int k = 0; k < 600; ++k) {
    CAPTURE(k);
    const Entry* e = find(k);
    REQUIRE(e != nullptr);
    CHECK(e->value == std::to_string(k));
  }
  CHECK(find(600) == nullptr);
  CHECK(find(-1) == nullptr);
  // Full: the next insert starts over instead of growing without end.
  for (int k = 600; k < 1000; ++k) table.insert(hash(k), Entry{k, "v"});
  CHECK(table.size() == 1000);
  table.insert(hash(1000), Entry{1000, "last"});
  CHECK(table.size() == 1);
  CHECK(find(5) == nullptr);
  REQUIRE(find(1000) != nullptr);
  CHECK(find(1000)->value == "last");
}

TEST_CASE("class and data-dynamic-selector are found in any letter case, and only those names") {
  // Names are compared eight bytes at a time (the longer one in overlapping words): a
  // difference in the first, a middle or the last byte, or in length, is another name.
  const std::string text =
      "<span CLASS=\"showC1\">a</span><span clasS=\"showC2\">b</span><span claSs=\"showInns\">c</span>"
      "<span classx=\"showC1\">d</span><span clas=\"showC1\">e</span><span xlass=\"showC1\">f</span>"
      "<div Data-Dynamic-SELECTOR=\"['OR','showInns','showWells']\">g</div>"
      "<div data-dynamic-selectos=\"['OR','showInns','showWells']\">h</div>"
      "<div data-dynamic_selector=\"['OR','showInns','showWells']\">i</div>"
      "<div eata-dynamic-selector=\"['OR','showInns','showWells']\">j</div>\n";
  DiagnosticSink sink;
  wikic::parse::Document doc = wikic::parse::parse_document(text, sink, {});
  TreeConditions c = tree_conditions(doc, "f", sink, Vocabulary::builtin());
  std::vector<std::string> own;
  for (wikic::parse::NodeId id = 0; id < doc.size(); ++id)
    if (doc.node(id).kind == wikic::parse::NodeKind::Element) own.push_back(to_string(c.own[id]));
  REQUIRE(own.size() == 10);
  CHECK(own[0] == "C1");
  CHECK(own[1] == "C2");
  CHECK(own[2] == "Inns");
  for (std::size_t i : {3, 4, 5, 7, 8, 9}) CHECK(own[i] == "true");
  CHECK(own[6] == "Inns | Wells");
}

TEST_CASE("memo keys compare equal exactly when every byte is the same, at every length") {
  // same_bytes reads keys of 8 to 24 bytes as three overlapping words: a difference at
  // any position, for lengths around those bounds, must still be seen.
  for (std::size_t n = 0; n <= 40; ++n) {
    std::string a(n, 'x');
    for (std::size_t i = 0; i < n; ++i) a[i] = static_cast<char>('a' + (i * 7) % 26);
    std::string b = a;
    CAPTURE(n);
    CHECK(same_bytes(a, b));
    for (std::size_t i = 0; i < n; ++i) {
      CAPTURE(i);
      std::string c = a;
      c[i] = static_cast<char>(c[i] ^ 0x20);
      CHECK(!same_bytes(a, c));
      CHECK(!same_bytes(c, a));
    }
    CHECK(!same_bytes(a, a + "y"));
    if (n > 0) CHECK(!same_bytes(a, std::string_view(a).substr(1)));
  }
}
