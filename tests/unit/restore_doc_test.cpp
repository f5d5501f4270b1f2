// The property line restoration exists for, checked at the level that matters: a page
// written with real newlines, collapsed to one line and restored, parses to the same
// document tree (whitespace inside text aside) as the page as written.
#include <doctest/doctest.h>

#include "parse/parser.hpp"
#include "parse/printer.hpp"
#include "preprocess/restore_lines.hpp"
#include "util/run.hpp"

using namespace wikic;

TEST_CASE("collapse → restore → parse gives the original document tree") {
  std::size_t fixtures = 0;
  for (const auto& entry : std::filesystem::directory_iterator(wikic::test::source_path("corpus/restore-lines"))) {
    if (entry.path().extension() != ".wiki") continue;
    ++fixtures;
    std::string original = wikic::test::slurp(entry.path());
    std::string collapsed = original;
    for (char& c : collapsed)
      if (c == '\n') c = ' ';
    support::DiagnosticSink sink;
    auto restored = preprocess::restore_lines(collapsed, preprocess::RestoreMode::Always, {}, {&sink, "fixture"});
    REQUIRE(restored.restored);
    // The default S-expression folds whitespace runs and leaves out whitespace-only text.
    auto tree_of = [&](const std::string& text) {
      support::DiagnosticSink quiet;
      return parse::to_sexpr(parse::parse_document(text, quiet, {}));
    };
    INFO(entry.path().filename().string() << "\nrestored:\n" << restored.text);
    CHECK(tree_of(restored.text) == tree_of(original));
  }
  CHECK(fixtures >= 3);
}
