// Runs the preprocessor corpus (corpus/preprocess/*.txt, parserTests-style sections):
// each test's `!! pp-xml` must equal our MediaWiki-style XML, and every tree must print
// back its input. WIKIC_CORPUS_FILE picks one file (ctest runs one entry per file);
// WIKIC_UPDATE=1 rewrites the expectations with our output for review in the diff.
#include <doctest/doctest.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include "preprocess/preprocessor.hpp"
#include "preprocess/printers.hpp"

namespace {

using namespace wikic::preprocess;

// One `!! name` section: header line index, content lines.
struct Section {
  std::string name;
  std::string content;
  std::size_t first_line = 0, end_line = 0;  // content lines [first, end)
};

struct Case {
  std::string title;
  std::vector<Section> sections;
  const Section* find(const std::string& name) const {
    for (const auto& s : sections)
      if (s.name == name) return &s;
    return nullptr;
  }
};

std::vector<std::string> split_lines(const std::string& text) {
  std::vector<std::string> lines;
  std::size_t start = 0;
  while (start <= text.size()) {
    std::size_t nl = text.find('\n', start);
    if (nl == std::string::npos) {
      if (start < text.size()) lines.push_back(text.substr(start));
      break;
    }
    lines.push_back(text.substr(start, nl - start));
    start = nl + 1;
  }
  return lines;
}

// Section content is its lines joined with '\n' (no final newline; a last empty line
// gives the text a trailing newline), as in MediaWiki's parserTests format.
std::vector<Case> parse_corpus(const std::vector<std::string>& lines) {
  std::vector<Case> cases;
  Case current;
  Section* open = nullptr;
  auto close_section = [&](std::size_t line) {
    if (!open) return;
    open->end_line = line;
    std::string content;
    for (std::size_t k = open->first_line; k < line; ++k) {
      if (k > open->first_line) content += '\n';
      content += lines[k];
    }
    open->content = content;
    open = nullptr;
  };
  for (std::size_t k = 0; k < lines.size(); ++k) {
    const std::string& line = lines[k];
    if (line.rfind("!! ", 0) != 0) continue;
    close_section(k);
    std::string name = line.substr(3);
    while (!name.empty() && name.back() == ' ') name.pop_back();
    if (name == "end") {
      const Section* t = current.find("test");
      current.title = t ? t->content : "";
      cases.push_back(current);
      current = Case{};
      continue;
    }
    current.sections.push_back(Section{name, "", k + 1, k + 1});
    open = &current.sections.back();
  }
  return cases;
}

bool has_option(const Case& c, const std::string& option) {
  const Section* s = c.find("options");
  if (!s) return false;
  std::istringstream words(s->content);
  std::string w;
  while (words >> w)
    if (w == option) return true;
  return false;
}

Options options_for(const Case& c) {
  Options o;
  o.for_inclusion = has_option(c, "transclusion");
  // Expectations come from the oracle wiki, so its strip list applies unless the test
  // asks for wikic's own tag list.
  o.extension_tags = has_option(c, "wikic-tags") ? default_extension_tags() : oracle_extension_tags();
  o.report_unclosed = false;
  return o;
}

void run_file(const std::filesystem::path& path, bool update) {
  std::ifstream in(path, std::ios::binary);
  REQUIRE_MESSAGE(in, "cannot open " << path);
  std::stringstream buffer;
  buffer << in.rdbuf();
  std::vector<std::string> lines = split_lines(buffer.str());
  std::vector<Case> cases = parse_corpus(lines);
  CHECK_MESSAGE(!cases.empty(), path << " has no tests");
  std::vector<std::pair<const Section*, std::string>> rewrites;
  std::size_t passed = 0;
  for (const Case& c : cases) {
    const Section* wikitext = c.find("wikitext");
    const Section* expected = c.find("pp-xml");
    REQUIRE_MESSAGE(wikitext, path << ": test '" << c.title << "' has no wikitext");
    Tree tree = preprocess(wikitext->content, options_for(c));
    std::string xml = to_xml(tree);
    CHECK_MESSAGE(to_wikitext(tree) == wikitext->content, path << ": '" << c.title << "' is not lossless");
    if (update) {
      if (expected && expected->content != xml) rewrites.emplace_back(expected, xml);
      continue;
    }
    REQUIRE_MESSAGE(expected, path << ": test '" << c.title << "' has no pp-xml");
    CHECK_MESSAGE(xml == expected->content, path << ": '" << c.title << "'\n  input:    " << wikitext->content
                                                  << "\n  expected: " << expected->content << "\n  actual:   " << xml);
    if (xml == expected->content) ++passed;
  }
  MESSAGE(path.filename().string() << ": " << passed << "/" << cases.size() << " match");
  if (update && !rewrites.empty()) {
    std::string out;
    std::size_t k = 0;
    for (auto& [section, xml] : rewrites) {
      for (; k < section->first_line; ++k) out += lines[k] + '\n';
      out += xml + '\n';
      k = section->end_line;
    }
    for (; k < lines.size(); ++k) out += lines[k] + '\n';
    std::ofstream(path, std::ios::binary) << out;
    MESSAGE("updated " << rewrites.size() << " expectations in " << path);
  }
}

}  // namespace

TEST_CASE("preprocess corpus") {
  const char* one = std::getenv("WIKIC_CORPUS_FILE");
  const char* update = std::getenv("WIKIC_UPDATE");
  bool updating = update && std::string(update) == "1";
  if (one && *one) {
    run_file(one, updating);
    return;
  }
  for (const auto& entry : std::filesystem::directory_iterator(std::string(WIKIC_SOURCE_DIR) + "/corpus/preprocess"))
    if (entry.path().extension() == ".txt") run_file(entry.path(), updating);
}
