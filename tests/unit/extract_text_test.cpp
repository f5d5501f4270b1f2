// How extraction reads cell text and classes where it takes short cuts: whitespace in
// rule texts of every length (short pieces, long ones checked sixteen bytes a step),
// non-rule and heading starts decided from a cell's first text, and class attributes
// read against the table of known classes.
#include <doctest/doctest.h>

#include <cstdint>
#include <string>
#include <vector>

#include "cli/pipeline.hpp"
#include "extract/rules.hpp"
#include "ingest/input.hpp"

using namespace wikic;

namespace {

extract::PageRules compile_text(const std::string& text) {
  ingest::Page page;
  page.title = "Text";
  page.revision.text = text;
  page.source.file = "text.wiki";
  ingest::SiteInfo site = ingest::default_site();
  expand::TemplateStore store(site);
  support::DiagnosticSink sink;
  return cli::Pipeline(store, sink).compile(page);
}

/// What a reader sees of `raw`: every run of spaces and tabs one space, none at the ends.
std::string collapsed(const std::string& raw) {
  std::string out;
  bool space = false;
  for (char c : raw) {
    if (c == ' ' || c == '\t') {
      space = !out.empty();
      continue;
    }
    if (space) out += ' ';
    space = false;
    out += c;
  }
  return out;
}

/// Compiles `page` (a table whose rows' rules texts read alike in every edition) and
/// checks each rule's text against `expected`, in order.
void check_rules_texts(const std::string& page, const std::vector<std::string>& expected) {
  auto p = compile_text(page);
  REQUIRE(p.rules.size() == expected.size());
  for (std::size_t i = 0; i < expected.size(); ++i) {
    CHECK(p.rules[i].rules.uniform);
    CHECK(p.rules[i].rules.text == expected[i]);
  }
}

/// The texts of the non-rules a table of one-cell rows, `rows` then `others`, gives the
/// "no-actions" reason.
std::vector<std::string> no_action_texts(const std::vector<std::string>& rows, const std::vector<std::string>& others) {
  std::string page = "{|\n";
  for (const auto& r : rows) page += "|-\n| " + r + "\n";
  for (const auto& r : others) page += "|-\n| " + r + "\n";
  page += "|}\n";
  std::vector<std::string> found;
  for (const auto& n : compile_text(page).non_rules)
    if (n.reason == "no-actions") found.push_back(n.text);
  return found;
}

std::size_t count_reason(const extract::PageRules& p, const std::string& reason) {
  std::size_t n = 0;
  for (const auto& r : p.non_rules) n += r.reason == reason;
  return n;
}

}  // namespace

TEST_CASE("rule texts collapse their whitespace wherever it falls, in short and long pieces") {
  // Words and blanks of every length, so that runs of two spaces or a tab fall inside,
  // across and at the edges of the blocks the cleaner checks at once.
  const std::vector<std::string> words = {"a", "tile", "follower", "completedcityorroad", "x", "meeples'", "12"};
  const std::vector<std::string> blanks = {" ", "  ", "\t", " \t ", "   ", " "};
  std::uint32_t x = 2026;
  auto next = [&](std::uint32_t n) {
    x = x * 1103515245u + 12345u;
    return (x >> 16) % n;
  };
  std::string page = "{|\n";
  std::vector<std::string> expected;
  for (int row = 0; row < 60; ++row) {
    std::string desc = "Rule " + std::to_string(row), rules;
    std::uint32_t pieces = 1 + next(12);
    for (std::uint32_t i = 0; i < pieces; ++i) {
      rules += words[next(static_cast<std::uint32_t>(words.size()))];
      if (i + 1 < pieces || next(2)) rules += blanks[next(static_cast<std::uint32_t>(blanks.size()))];
    }
    // A span splits the text into runs that are cleaned as one text.
    if (next(3) == 0) rules += "<span>" + std::string(1 + next(3), ' ') + "end</span>";
    page += "|-\n| class=\"scoringTile\" | " + desc + "\n| " + rules + "\n";
    expected.push_back(collapsed(rules));
    if (expected.back().find("<span>") != std::string::npos) {
      std::string& e = expected.back();
      std::string::size_type at = e.find("<span>");
      std::string tail = e.substr(at + 6);
      tail.erase(tail.find("</span>"));
      e = collapsed(e.substr(0, at) + " " + tail);
    }
  }
  page += "|}\n";
  check_rules_texts(page, expected);
}

TEST_CASE("a rules text's runs are cleaned as one text, with a double space at every byte of a block") {
  // The runs of a reading are gathered and then cleaned sixteen bytes a step: a pair of
  // spaces (or a tab) at each offset of the first three blocks, a space as a block's last
  // byte, blank runs before and after, and texts that end inside a block or at its end.
  std::string page = "{|\n";
  std::vector<std::string> expected;
  for (int k = 0; k < 40; ++k) {
    const std::string blank = k % 3 == 0 ? "\t" : "  ";
    const std::string rules = "<span> </span>" + std::string(static_cast<std::size_t>(k), 'a') + blank + "b" +
                              std::string(static_cast<std::size_t>(k % 17), 'c') + " <span>d </span> ";
    page += "|-\n| class=\"scoringTile\" | Rule " + std::to_string(k) + "\n| " + rules + "\n";
    std::string e = std::string(static_cast<std::size_t>(k), 'a');
    if (!e.empty()) e += ' ';
    expected.push_back(e + "b" + std::string(static_cast<std::size_t>(k % 17), 'c') + " d");
  }
  page += "|}\n";
  check_rules_texts(page, expected);
}

TEST_CASE("a no-actions row is recognised however its first text is spaced or written") {
  const std::string start = "There are no particular actions for this";
  // Doubled spaces and tabs in the first text node, the start split over two nodes, and
  // an entity for its first letter: the cleaned text starts with the start every time.
  const std::vector<std::string> rows = {
      "There are no particular actions for this step",
      "There  are no particular\tactions for this step",
      "There are no '''particular''' actions for this step",
      "&#84;here are no particular actions for this step",
      "   There are no particular actions for this",
  };
  // Rows that start alike but differ: not one of them is a non-rule.
  const std::vector<std::string> others = {
      "There are no particular action",  // the text ends before the start does
      "There are  some particular actions for this step",
      "Therefore no particular actions for this step",
      "The rest",
      "There are no particular actions for thi",
  };
  auto found = no_action_texts(rows, others);
  REQUIRE(found.size() == rows.size());
  for (const auto& t : found) CHECK(t.starts_with(start));
}

TEST_CASE("a row's first text is found past comments, empty elements and blank nodes") {
  // A node whose first child is a text with a byte other than whitespace has that byte
  // at once; one whose first child is whitespace alone, a comment or an element is
  // searched, however deep the text stands, and a comment's own text never counts.
  const std::vector<std::string> rows = {
      "<!-- Road --> There are no particular actions for this step",
      "<span> </span> <span><!-- x --></span> '''There are no particular actions''' for this step",
      "<div>\n<span>\n</span><span><b>There</b></span> are no particular actions for this step</div>",
  };
  // The first text of these is a comment's, or an entity's before the start.
  const std::vector<std::string> others = {
      "<!-- There are no particular actions for this step --> Road",
      "&amp; There are no particular actions for this step",
  };
  CHECK(no_action_texts(rows, others).size() == rows.size());
}

TEST_CASE("a step title is read from the cell's bold run whatever its spacing") {
  auto p = compile_text(
      "{|\n|-\n| '''Step  2A:\tDraw''' - something\n|-\n| class=\"scoringTile\" | Tile\n| 1 point / tile\n"
      "|-\n| '''Stepping''' stones\n|-\n| class=\"scoringMeeple\" | Meeple\n| 2 points\n"
      "|-\n| '''Round 3 - Scoring'''\n|-\n| class=\"scoringFeature\" | Feature\n| 3 points\n|}\n");
  REQUIRE(p.rules.size() == 3);
  CHECK(p.rules[0].step == "Step 2A: Draw");
  CHECK(p.rules[1].step == "Step 2A: Draw");  // "Stepping" is no step
  CHECK(p.rules[2].round == "Round 3 - Scoring");
  CHECK(p.rules[2].step.empty());
}

TEST_CASE("class attributes are read class by class against the known classes") {
  auto p = compile_text(
      "{|\n"
      "|-\n| class=\"  scoringMeeple\tshowC1 \" | Spaced classes\n| 1 point\n"
      "|-\n| class=\"showC1 scoringFeature\" | Kind after a short class\n| 2 points\n"
      "|-\n| class=\"SCORINGTILE\" | Upper case is another class\n| 3 points\n"
      "|-\n| class=\"scoringTil\" | Too short\n| 4 points\n"
      "|-\n| class=\"scoringTile scoringMeeple\" | The first kind wins\n| class=\"showC2 scoringCore\" | 5 points\n"
      "|}\n");
  REQUIRE(p.rules.size() == 3);
  CHECK(p.rules[0].kind == "meeple");
  CHECK(p.rules[1].kind == "feature");
  CHECK(p.rules[2].kind == "tile");
  CHECK(p.rules[2].core);
  CHECK_FALSE(p.rules[0].core);
  // The two cells with unknown classes are no scoring cells: nothing to account for.
  CHECK(p.cells.total == 4);
  CHECK(p.cells.unaccounted == 0);
  CHECK(count_reason(p, "no-actions") == 0);
}

TEST_CASE("a note repeated in other rules cells reads as it did, under its own condition") {
  // Extraction reads a note once per page and text: the same note under another
  // condition, in an edition's list or with other markup must still read as its own.
  auto p = compile_text(
      "{|\n"
      "|-\n| class=\"scoringFeature\" | First\n|\n2 points / tile\n* Only with the tower\n"
      "|-\n| class=\"scoringFeature\" | Second\n|\n3 points / tile\n* Only with the tower\n"
      "|-\n| class=\"scoringFeature\" | Third\n|\n4 points / tile\n"
      "<ul class=\"showCastles\"><li>Only with the tower</li></ul>\n"
      "|-\n| class=\"scoringFeature\" | Fourth\n|\n5 points / tile\n"
      "<ul class=\"showC1\"><li>Only with the tower</li></ul>\n"
      "|-\n| class=\"scoringFeature\" | Fifth\n|\n6 points / tile\n"
      "<ul class=\"showCastles\"><li>Only with the tower</li></ul>\n"
      "|-\n| class=\"scoringFeature\" | Sixth\n|\n7 points / tile\n* Only with the '''tower'''\n"
      "|-\n| class=\"scoringFeature\" | Seventh\n|\n8 points / tile\n* Only with the tower\n** and its wall\n"
      "|-\n| class=\"scoringFeature\" | Eighth\n|\n9 points / tile\n* Only with the tower\n"
      "|}\n");
  REQUIRE(p.rules.size() == 8);
  auto plain = [](const extract::Note& n, std::string_view text, std::string_view when) {
    return n.text.uniform && n.text.text == text && n.when == when;
  };
  for (std::size_t i : {0, 1, 5, 7}) {
    INFO(p.rules[i].description.text.str());
    REQUIRE(p.rules[i].notes.size() == 1);
    CHECK(plain(p.rules[i].notes[0], "Only with the tower", "true"));
  }
  for (std::size_t i : {2, 4}) {
    REQUIRE(p.rules[i].notes.size() == 1);
    CHECK(plain(p.rules[i].notes[0], "Only with the tower", "Castles"));
  }
  REQUIRE(p.rules[3].notes.size() == 1);
  const extract::Note& c1 = p.rules[3].notes[0];
  CHECK_FALSE(c1.text.uniform);
  CHECK(c1.text.c1 == "Only with the tower");
  CHECK(c1.text.c2.empty());
  CHECK(c1.when == "true");
  // A note with notes of its own is read afresh, its nested note after it.
  REQUIRE(p.rules[6].notes.size() == 2);
  CHECK(plain(p.rules[6].notes[0], "Only with the tower", "true"));
  CHECK(plain(p.rules[6].notes[1], "and its wall", "true"));
  // Repeats share the first reading's strings.
  CHECK(p.rules[1].notes[0].text.text.same(p.rules[0].notes[0].text.text));
}

TEST_CASE("a scoring expression reads alike however its rules text is split into runs") {
  // points_of gathers a reading from its runs, the short ones copied without memcpy (by
  // one byte, two overlapping four-byte or eight-byte words): spans split the clause into
  // runs of every length from 1 to 20, each of its own letter, so that a run copied
  // short, long or over its neighbour shows in the clause read.
  std::string page = "{|\n";
  std::vector<std::string> expected;
  for (int row = 0; row < 20; ++row) {
    std::string rules = "2 points / ", clause;
    for (int k = 0; k < 6; ++k) {
      const int length = 1 + (row * 7 + k * 5) % 20;
      const std::string piece(static_cast<std::size_t>(length), static_cast<char>('a' + (row + k) % 20));
      rules += "<span>" + piece + "</span>";
      clause += piece;
    }
    page += "|-\n| class=\"scoringTile\" | Rule " + std::to_string(row) + "\n| " + rules + "\n";
    expected.push_back(clause);
  }
  page += "|}\n";
  auto p = compile_text(page);
  REQUIRE(p.rules.size() == expected.size());
  for (std::size_t i = 0; i < expected.size(); ++i) {
    REQUIRE(p.rules[i].points.size() == 1);
    CHECK(p.rules[i].points[0].points.per == expected[i]);
    CHECK(p.rules[i].points[0].points.text == "2 points / " + expected[i]);
  }
}
