// Runs document-tree fixtures (corpus/parse/*.txt, parserTests-like sections
// `!! test` / `!! wikitext` / `!! tree` / `!! diagnostics` / `!! end`) and compares the
// S-expression and the diagnostics. `--update` (or WIKIC_UPDATE=1) rewrites the
// expectations in place for review with `git diff`; everything else in the file is kept.
#include <cstdlib>
#include <fstream>
#include <iostream>
#include <sstream>
#include <string>
#include <vector>

#include "parse/parser.hpp"
#include "parse/printer.hpp"

namespace {

using namespace wikic;

struct Case {
  std::string name;
  std::string wikitext;
  std::string tree;
  std::string diagnostics;
  bool has_diagnostics = false;
};

// A file is a sequence of verbatim text and cases, so an update can write it back.
struct Chunk {
  std::string verbatim;  // used when !is_case
  bool is_case = false;
  Case c;
};

std::vector<std::string> split_lines(const std::string& text) {
  std::vector<std::string> lines;
  std::string line;
  std::istringstream in(text);
  while (std::getline(in, line)) lines.push_back(line);
  return lines;
}

std::string join(const std::vector<std::string>& lines, std::size_t b, std::size_t e) {
  std::string out;
  for (std::size_t i = b; i < e; ++i) {
    if (i > b) out += '\n';
    out += lines[i];
  }
  return out;
}

bool is_directive(const std::string& line) { return line.rfind("!! ", 0) == 0 || line == "!!"; }

std::vector<Chunk> read_cases(const std::string& text, std::string& error) {
  std::vector<Chunk> chunks;
  auto lines = split_lines(text);
  std::size_t i = 0;
  std::string verbatim;
  while (i < lines.size()) {
    if (lines[i] != "!! test") {
      verbatim += lines[i] + "\n";
      ++i;
      continue;
    }
    if (!verbatim.empty()) chunks.push_back({verbatim, false, {}});
    verbatim.clear();
    Chunk chunk;
    chunk.is_case = true;
    ++i;
    std::size_t start = i;
    while (i < lines.size() && !is_directive(lines[i])) ++i;
    chunk.c.name = join(lines, start, i);
    while (i < lines.size() && lines[i] != "!! end") {
      std::string section = lines[i].substr(3);
      ++i;
      start = i;
      while (i < lines.size() && !is_directive(lines[i])) ++i;
      std::string body = join(lines, start, i);
      if (section == "wikitext") chunk.c.wikitext = body;
      else if (section == "tree") chunk.c.tree = body;
      else if (section == "diagnostics") {
        chunk.c.diagnostics = body;
        chunk.c.has_diagnostics = true;
      } else {
        error = "unknown section '!! " + section + "' in test '" + chunk.c.name + "'";
        return {};
      }
    }
    if (i >= lines.size()) {
      error = "test '" + chunk.c.name + "' has no '!! end'";
      return {};
    }
    ++i;  // !! end
    chunks.push_back(std::move(chunk));
  }
  if (!verbatim.empty()) chunks.push_back({verbatim, false, {}});
  return chunks;
}

void run_case(const Case& c, std::string& tree, std::string& diagnostics) {
  support::DiagnosticSink sink;
  parse::Document doc = parse::parse_document(c.wikitext, sink);
  tree = parse::to_sexpr(doc);
  while (!tree.empty() && tree.back() == '\n') tree.pop_back();
  diagnostics.clear();
  for (const auto& d : sink.all()) {
    if (!diagnostics.empty()) diagnostics += '\n';
    diagnostics += std::to_string(d.where.line) + ":" + std::to_string(d.where.column) + ": " +
                   support::to_string(d.severity) + ": " + d.message;
  }
}

std::string write_cases(const std::vector<Chunk>& chunks) {
  std::string out;
  for (const Chunk& ch : chunks) {
    if (!ch.is_case) {
      out += ch.verbatim;
      continue;
    }
    out += "!! test\n" + ch.c.name + "\n!! wikitext\n" + ch.c.wikitext + "\n!! tree\n" +
           ch.c.tree + "\n";
    if (ch.c.has_diagnostics) out += "!! diagnostics\n" + ch.c.diagnostics + "\n";
    out += "!! end\n";
  }
  return out;
}

}  // namespace

int main(int argc, char** argv) {
  bool update = std::getenv("WIKIC_UPDATE") != nullptr;
  std::vector<std::string> files;
  for (int i = 1; i < argc; ++i) {
    std::string a = argv[i];
    if (a == "--update") update = true;
    else files.push_back(a);
  }
  if (files.empty()) {
    std::cerr << "usage: parse_corpus [--update] corpus/parse/FILE.txt...\n";
    return 2;
  }
  int failures = 0;
  std::size_t cases = 0;
  for (const std::string& file : files) {
    std::ifstream in(file, std::ios::binary);
    if (!in) {
      std::cerr << file << ": cannot read\n";
      return 2;
    }
    std::stringstream buf;
    buf << in.rdbuf();
    std::string error;
    std::vector<Chunk> chunks = read_cases(buf.str(), error);
    if (!error.empty()) {
      std::cerr << file << ": " << error << "\n";
      return 2;
    }
    bool changed = false;
    for (Chunk& ch : chunks) {
      if (!ch.is_case) continue;
      ++cases;
      std::string tree, diags;
      run_case(ch.c, tree, diags);
      bool tree_ok = tree == ch.c.tree;
      bool diag_ok = diags == (ch.c.has_diagnostics ? ch.c.diagnostics : std::string());
      if (tree_ok && diag_ok) continue;
      if (update) {
        ch.c.tree = tree;
        ch.c.diagnostics = diags;
        ch.c.has_diagnostics = !diags.empty();
        changed = true;
        continue;
      }
      ++failures;
      std::cerr << file << ": FAIL: " << ch.c.name << "\n";
      if (!tree_ok)
        std::cerr << "--- expected tree\n" << ch.c.tree << "\n+++ actual tree\n" << tree << "\n";
      if (!diag_ok)
        std::cerr << "--- expected diagnostics\n" << ch.c.diagnostics
                  << "\n+++ actual diagnostics\n" << diags << "\n";
    }
    if (changed) {
      std::ofstream out(file, std::ios::binary | std::ios::trunc);
      out << write_cases(chunks);
      std::cerr << file << ": expectations updated\n";
    }
  }
  std::cout << cases << " cases, " << failures << " failed\n";
  return failures == 0 ? 0 : 1;
}
