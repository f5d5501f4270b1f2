// End-to-end tests of the `wikic` command as a maintainer runs it: listing, compiling
// (atomic, byte-identical outputs), exit codes and the closing summary line.
#include <doctest/doctest.h>

#include <algorithm>
#include <tuple>
#include <utility>
#include <vector>

#include <sys/stat.h>

#include "util/run.hpp"

using wikic::test::run_wikic;
using wikic::test::ScratchDir;
using wikic::test::slurp;
using wikic::test::source_path;

TEST_CASE("wikic --version and --help") {
  auto v = run_wikic("--version");
  CHECK(v.status == 0);
  CHECK(v.out.rfind("wikic ", 0) == 0);
  auto h = run_wikic("--help");
  CHECK(h.status == 0);
  CHECK(h.out.find("pages") != std::string::npos);
  CHECK(h.out.find("compile") != std::string::npos);
  auto sub = run_wikic("compile --help");
  CHECK(sub.status == 0);
  CHECK(sub.out.find("--out") != std::string::npos);
  CHECK(run_wikic("frobnicate").status == 2);
  CHECK(run_wikic("").status == 2);
}

TEST_CASE("wikic pages lists the seed page: ns, title, language, bytes, sha1") {
  auto r = run_wikic("pages " + source_path("corpus/wica/scoring-during-turn-sequence.xml"));
  CHECK(r.status == 0);
  CHECK(r.out.rfind("0\tCarcassonne Scoring During Turn Sequence\ten\t179452\t", 0) == 0);
  CHECK(r.err == "wikic: 1 page, 0 warnings, 0 errors\n");
}

TEST_CASE("wikic compile writes the manifest, byte-identical from run to run") {
  ScratchDir dir;
  std::string inputs = source_path("corpus/wica/scoring-during-turn-sequence.xml") + " " +
                       source_path("corpus/exports/mini-export-0.10.xml");
  auto a = run_wikic("compile " + inputs + " --out " + (dir / "a").string());
  auto b = run_wikic("compile " + inputs + " --out " + (dir / "b").string());
  CHECK(a.status == 0);
  // compile runs the whole pipeline now, so the seed's lints are reported; no errors.
  CHECK(a.err.find("\nwikic: 7 pages, ") != std::string::npos);
  CHECK(a.err.size() > 10);
  CHECK(a.err.compare(a.err.size() - 10, 10, " 0 errors\n") == 0);
  for (const char* name : {"pages.yaml", "pages.xml"}) {
    auto first = slurp(dir / "a" / name);
    CHECK(first.size() > 500);
    CHECK(first == slurp(dir / "b" / name));
  }
  auto yaml = slurp(dir / "a/pages.yaml");
  CHECK(yaml.find("title: \"Carcassonne Scoring During Turn Sequence\"") != std::string::npos);
  CHECK(yaml.find("bytes: 179452") != std::string::npos);
  CHECK(yaml.find("language: \"fr\"") != std::string::npos);
  CHECK(yaml.find("redirect: \"Scoring Basics\"") != std::string::npos);
  auto xml = slurp(dir / "a/pages.xml");
  CHECK(xml.find("<page title=\"Scoring Basics\" ns=\"0\" id=\"200\" language=\"en\" revision=\"6002\"") !=
        std::string::npos);
}

TEST_CASE("wikic compile --timings names every stage once, and leaves the outputs alone") {
  ScratchDir dir;
  std::string input = source_path("corpus/wica/scoring-during-turn-sequence.xml");
  auto plain = run_wikic("compile " + input + " --out " + (dir / "a").string());
  auto timed = run_wikic("compile " + input + " --timings --out " + (dir / "b").string());
  CHECK(timed.status == plain.status);
  auto at = timed.err.find("wikic: time: templates pass ");
  REQUIRE(at != std::string::npos);
  std::string line = timed.err.substr(at, timed.err.find('\n', at) - at);
  for (const char* stage : {"restore", "expand", "parse", "select", "extract", "emit", "total"})
    CHECK_MESSAGE(line.find(std::string(", ") + stage + " ") != std::string::npos, stage);
  CHECK(plain.err.find("wikic: time:") == std::string::npos);
  for (const char* name : {"rules.yaml", "rules.json", "rules.xml"}) CHECK(slurp(dir / "a" / name) == slurp(dir / "b" / name));
}

TEST_CASE("compile and expand read a pipe given by name once, with the templates it defines late") {
  // compile reads a file twice (templates first, then pages) and expand may too; a pipe
  // named by a path (/dev/stdin, a shell's <(zcat export.xml.gz)) gives its bytes once,
  // and the second reading used to find an empty input: no pages, an error.
  ScratchDir dir;
  std::string mini = slurp(source_path("corpus/exports/mini-export-0.10.xml"));
  // A page with a rule that calls Template:Wells, and the Template pages (Wells among
  // them) after every page that uses them.
  auto first = mini.find("  <page>"), pages = mini.find("  <page>\n    <title>Scoring Basics</title>");
  REQUIRE(first != std::string::npos);
  REQUIRE(pages != std::string::npos);
  std::string templates = mini.substr(first, pages - first);
  mini.erase(first, pages - first);
  mini.insert(first,
              "  <page>\n    <title>Late Rules</title>\n    <ns>0</ns>\n    <id>204</id>\n    <revision>\n"
              "      <id>6006</id>\n      <timestamp>2024-01-06T09:00:00Z</timestamp>\n"
              "      <model>wikitext</model>\n      <format>text/x-wiki</format>\n"
              "      <text xml:space=\"preserve\">{|\n|-\n| class=\"scoringFeature\" | Road with {{Wells}}\n"
              "| '''(+1)''' point / well\n|}</text>\n    </revision>\n  </page>\n");
  templates += "  <page>\n    <title>Template:Wells</title>\n    <ns>10</ns>\n    <id>103</id>\n    <revision>\n"
               "      <id>5003</id>\n      <timestamp>2024-01-06T09:00:00Z</timestamp>\n"
               "      <model>wikitext</model>\n      <format>text/x-wiki</format>\n"
               "      <text xml:space=\"preserve\">wells of the road</text>\n    </revision>\n  </page>\n";
  mini.insert(mini.rfind("</mediawiki>"), templates);
  auto input = (dir / "late-templates.xml").string();
  wikic::test::spit(input, mini);

  auto file = run_wikic("compile " + input + " --out " + (dir / "file").string());
  auto pipe = run_wikic("compile /dev/stdin --out " + (dir / "pipe").string(), input);
  CHECK(file.status == 0);
  CHECK(pipe.status == 0);
  CHECK(file.err.find("'Wells' is not in the input") == std::string::npos);
  CHECK(pipe.err.find("\nwikic: 8 pages, ") != std::string::npos);
  CHECK(slurp(dir / "file/rules.yaml").find("description: \"Road with wells of the road\"") != std::string::npos);
  for (const char* name : {"rules.yaml", "rules.json", "rules.xml", "pages.yaml", "pages.xml"}) {
    std::string from_file = slurp(dir / "file" / name);  // the same, but for the input's name
    for (auto at = from_file.find(input); at != std::string::npos; at = from_file.find(input, at))
      from_file.replace(at, input.size(), "/dev/stdin");
    CHECK_MESSAGE(from_file == slurp(dir / "pipe" / name), name);
  }

  auto expanded = run_wikic("expand " + input + " --page 'Late Rules'");
  auto expanded_piped = run_wikic("expand /dev/stdin --page 'Late Rules'", input);
  CHECK(expanded.status == 0);
  CHECK(expanded.out.find("Road with wells of the road") != std::string::npos);
  CHECK(expanded_piped.status == expanded.status);
  CHECK(expanded_piped.out == expanded.out);
}

TEST_CASE("exit codes: 1 for input errors, 2 for a missing input") {
  ScratchDir dir;
  auto full = slurp(source_path("corpus/wica/scoring-during-turn-sequence.xml"));
  wikic::test::spit(dir / "cut.xml", full.substr(0, full.size() / 2));
  auto cut = run_wikic("compile " + (dir / "cut.xml").string() + " --out " + (dir / "o").string());
  CHECK(cut.status == 1);
  CHECK(cut.err.find((dir / "cut.xml").string() + ":") == 0);
  CHECK(cut.err.find(": error: unexpected end of file inside <page> opened at line 31:3") != std::string::npos);
  CHECK(cut.err.find("wikic: 0 pages, 0 warnings, 1 error\n") != std::string::npos);
  // The manifest is still written: a damaged input never costs the other pages' output.
  CHECK(std::filesystem::exists(dir / "o/pages.yaml"));

  auto missing = run_wikic("compile " + (dir / "nope.xml").string() + " --out " + (dir / "o2").string());
  CHECK(missing.status == 2);
  CHECK(missing.err.find("nope.xml: error: cannot open: No such file or directory") != std::string::npos);
}

namespace {
/// Every file under `folder`: its path inside, its bytes, and its inode (a file
/// replaced by a rename has a new one even when its bytes are the same).
std::vector<std::tuple<std::string, std::string, std::uintmax_t>> snapshot(const std::filesystem::path& folder) {
  std::vector<std::tuple<std::string, std::string, std::uintmax_t>> files;
  for (const auto& e : std::filesystem::recursive_directory_iterator(folder)) {
    if (!e.is_regular_file()) continue;
    struct stat st {};
    ::stat(e.path().c_str(), &st);
    files.emplace_back(std::filesystem::relative(e.path(), folder).string(), slurp(e.path()), st.st_ino);
  }
  std::sort(files.begin(), files.end());
  return files;
}
}  // namespace

TEST_CASE("a compile that cannot write its output leaves the last good output whole") {
  ScratchDir dir;
  // The first run's output: a small export with translations, so l10n/ is written too.
  std::string roads = source_path("corpus/l10n/unit/roads.xml");
  std::string out = (dir / "o").string();
  REQUIRE(run_wikic("compile " + roads + " --out " + out).status == 0);
  auto before = snapshot(out);
  REQUIRE(before.size() == 14);  // six files and the eight of l10n/

  // The second run adds the seed page, whose rules.yaml is larger than the file size
  // limit: write(2) fails with EFBIG as a full disk fails with ENOSPC (the shell ignores
  // the signal the limit raises, and the compiler inherits that). pages.yaml and l10n/
  // are small enough to be written whole, and must not replace the old ones either.
  std::string err = (dir / "err").string();
  std::string cmd = "(ulimit -f 200; trap '' XFSZ; exec " + wikic::test::wikic_binary() + " compile " + roads + " " +
                    source_path("corpus/wica/scoring-during-turn-sequence.xml") + " --out " + out + ") >/dev/null 2>" +
                    err;
  int raw = std::system(cmd.c_str());
  REQUIRE(WIFEXITED(raw));
  CHECK(WEXITSTATUS(raw) == 2);
  std::string messages = slurp(err);
  CHECK(messages.find(out + "/rules.yaml: error: cannot write: File too large\n") != std::string::npos);
  CHECK(snapshot(out) == before);  // the same files, bytes and inodes; no temporaries

  // Nothing is opened into a folder that cannot take the files: the run stops at once.
  if (std::filesystem::is_directory("/proc/self")) {
    auto refused = run_wikic("compile " + roads + " --out /proc/self");
    CHECK(refused.status == 2);
    CHECK(refused.err.find("/proc/self/rules.yaml: error: cannot write: ") == 0);
    CHECK(refused.err.find("wikic: 0 pages, 0 warnings, 1 error\n") != std::string::npos);
  }
}

TEST_CASE("wikic expand prints the page with semantic templates as calls") {
  auto r = run_wikic("expand " + source_path("corpus/exports/mini-export-0.10.xml") + " --page 'Scoring Basics'");
  CHECK(r.status == 0);
  CHECK(r.out == "{| class=\"wica-table\"\n|- class=\"showWells\"\n| Road with '''{{Feature|name=Well|text=well(s)}}''' || "
                 "'''(+1)''' point\n|}\n");
  auto all = run_wikic("expand " + source_path("corpus/exports/mini-export-0.10.xml") + " --page 'Scoring Basics' --expand-all");
  CHECK(all.out.find("'''[[Well|well(s)]]'''") != std::string::npos);
  auto missing = run_wikic("expand " + source_path("corpus/exports/mini-export-0.10.xml") + " --page 'Nope'");
  CHECK(missing.status == 2);
  CHECK(missing.err.find("error: no page titled 'Nope' in the input") != std::string::npos);
}

namespace {
// Column (1-based, in characters; the fixture is ASCII) of `needle` in `line`.
std::string column_of(const std::string& line, const std::string& needle) {
  auto at = line.find(needle);
  REQUIRE(at != std::string::npos);
  return std::to_string(at + 1);
}

// Every diagnostic line of a run names file:line:col.
void every_diagnostic_positioned(const std::string& err, const std::string& file) {
  std::istringstream lines(err);
  std::string l;
  while (std::getline(lines, l)) {
    if (l.find(": warning: ") == std::string::npos && l.find(": error: ") == std::string::npos) continue;
    INFO(l);
    REQUIRE(l.rfind(file + ":", 0) == 0);
    std::size_t p = file.size() + 1;
    std::size_t line_end = l.find(':', p), col_end = line_end == std::string::npos ? line_end : l.find(':', line_end + 1);
    REQUIRE(col_end != std::string::npos);
    CHECK(std::stoi(l.substr(p, line_end - p)) > 0);
    CHECK(std::stoi(l.substr(line_end + 1, col_end - line_end - 1)) > 0);
  }
}
}  // namespace

TEST_CASE("selector lints inside ScoringRow parameters point into the page; repeated classes are opt-in") {
  ScratchDir dir;
  const std::string row =
      "{{ScoringRow |selectorid=showWells |scoringtype=Tile |description=Road with a well "
      "|rules= '''(+1)''' point / <span class=\"showWells\">well</span> <span class=\"scoring showInnz\">inn</span>}}";
  const std::string text = "Lead text.\n{| class=\"wica-table\"\n|-\n" + row + "\n|}\n";
  wikic::test::spit(dir / "Lints.wiki", text);
  const std::string file = (dir / "Lints.wiki").string() + "#Lints";
  auto plain = run_wikic("compile " + (dir / "Lints.wiki").string() + " --out " + (dir / "a").string());
  CHECK(plain.status == 0);
  every_diagnostic_positioned(plain.err, file);
  // The unknown id is reported at its own column of line 4, inside the parameter value.
  CHECK(plain.err.find(file + ":4:" + column_of(row, "showInnz") + ": warning: unknown selector id 'showInnz'") !=
        std::string::npos);
  CHECK(plain.err.find("repeats a condition") == std::string::npos);
  CHECK(slurp(dir / "a/diagnostics.txt").find("showInnz") != std::string::npos);

  auto linted = run_wikic("compile " + (dir / "Lints.wiki").string() + " --lint redundant --out " + (dir / "b").string());
  CHECK(linted.status == 0);
  every_diagnostic_positioned(linted.err, file);
  CHECK(linted.err.find(file + ":4:" + column_of(row, "<span class=\"showWells\"") +
                        ": warning: class 'showWells' repeats a condition already implied by the enclosing Wells") !=
        std::string::npos);
  // The rules themselves do not depend on which lints ran.
  CHECK(slurp(dir / "a/rules.yaml") == slurp(dir / "b/rules.yaml"));

  auto select = run_wikic("select " + (dir / "Lints.wiki").string() + " --with Wells --lint redundant");
  CHECK(select.err.find(file + ":4:" + column_of(row, "<span class=\"showWells\"") + ": warning: class 'showWells'") !=
        std::string::npos);
}
