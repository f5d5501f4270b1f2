// The MediaWiki differential suite: every case of corpus/expand/*.txt is expanded by
// wikic and compared with MediaWiki 1.39's own Parser::preprocess output, recorded by
// scripts/regen-expand-oracle.sh. A case may differ only if corpus/expand/
// known-differences.txt names it with a reason, and a listed case that passes fails
// the suite, so the list can only shrink.
#include <doctest/doctest.h>

#include <set>

#include "expand/expander.hpp"
#include "ingest/input.hpp"
#include "preprocess/preprocessor.hpp"
#include "util/run.hpp"

using namespace wikic;

namespace {
struct Case {
  std::string file;
  int line = 0;
  std::string name;
  std::string title = "Expansion test";
  std::string wikitext;
  std::string expanded;
};

struct Fixtures {
  std::vector<std::pair<std::string, std::string>> articles;
  std::vector<Case> cases;
};

/// Reads the fixture format of scripts/expand_fixtures.py (MediaWiki parserTests style).
void read_fixture(const std::filesystem::path& path, Fixtures& out) {
  std::ifstream in(path);
  std::vector<std::string> lines;
  for (std::string l; std::getline(in, l);) lines.push_back(l);
  std::size_t i = 0;
  auto section = [&](std::size_t& k) {
    std::string body;
    bool first = true;
    while (k < lines.size() && lines[k].rfind("!!", 0) != 0) {
      if (!first) body += '\n';
      body += lines[k++];
      first = false;
    }
    return body;
  };
  while (i < lines.size()) {
    if (lines[i] == "!! article") {
      ++i;
      std::string title = section(i);
      ++i;  // !! text
      std::string text = section(i);
      ++i;  // !! endarticle
      out.articles.emplace_back(title, text);
    } else if (lines[i] == "!! test") {
      Case c;
      c.file = path.filename().string();
      c.line = static_cast<int>(i) + 1;
      ++i;
      c.name = section(i);
      while (i < lines.size() && lines[i] != "!! end") {
        std::string marker = lines[i++];
        std::string body = section(i);
        if (marker == "!! options") {
          if (body.rfind("title=", 0) == 0) c.title = body.substr(6);
        } else if (marker == "!! wikitext") {
          c.wikitext = body;
        } else if (marker == "!! expanded") {
          c.expanded = body;
        }
      }
      ++i;
      out.cases.push_back(c);
    } else {
      ++i;
    }
  }
}
}  // namespace

TEST_CASE("expansion equals MediaWiki 1.39 on the differential suite") {
  Fixtures fx;
  std::vector<std::filesystem::path> files;
  for (const auto& e : std::filesystem::directory_iterator(wikic::test::source_path("corpus/expand")))
    if (e.path().extension() == ".txt" && e.path().filename() != "known-differences.txt") files.push_back(e.path());
  std::sort(files.begin(), files.end());
  for (const auto& f : files) read_fixture(f, fx);

  // Known differences: "file: test name" then " — reason".
  std::set<std::string> known;
  {
    std::ifstream in(wikic::test::source_path("corpus/expand/known-differences.txt"));
    for (std::string l; std::getline(in, l);) {
      if (l.empty() || l[0] == '#') continue;
      auto dash = l.find(" — ");
      REQUIRE_MESSAGE(dash != std::string::npos, "known-differences.txt: every entry needs ' — reason': " << l);
      known.insert(l.substr(0, dash));
    }
  }

  const auto& site = ingest::default_site();
  expand::TemplateStore store(site);
  for (const auto& [title, text] : fx.articles) store.add(ingest::page_from_wikitext(title, text, "fixture", site));
  expand::ExpandOptions options;
  options.expand_all = true;          // the oracle has no semantic templates
  options.translate = false;          // nor the Translate extension
  options.subpages_in_main = false;   // nor subpages in the main namespace
  options.extension_tags = preprocess::oracle_extension_tags();
  support::DiagnosticSink sink;
  expand::Expander expander(store, options, sink);

  int passed = 0;
  std::set<std::string> failed;
  for (const auto& c : fx.cases) {
    auto page = ingest::page_from_wikitext(c.title, c.wikitext, "fixture", site);
    page.language = "en";
    std::string got = expander.expand_page(page).text;
    std::string key = c.file + ": " + c.name;
    if (got == c.expanded) {
      ++passed;
      CHECK_MESSAGE(known.count(key) == 0, "passes now; remove it from known-differences.txt: " << key);
    } else {
      failed.insert(key);
      CHECK_MESSAGE(known.count(key) == 1, "corpus/expand/" << c.file << ":" << c.line << ": " << c.name
                                               << "\n--- MediaWiki\n" << c.expanded << "\n--- wikic\n" << got);
    }
  }
  MESSAGE("expansion oracle: " << passed << " of " << fx.cases.size() << " cases equal MediaWiki's output; "
                               << failed.size() << " known differences");
  CHECK(fx.cases.size() >= 250);
}
