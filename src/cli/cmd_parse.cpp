// `wikic parse INPUT [--page T] --tree pp|doc [--json] [--restore-lines=…]` prints the
// tree of each page; `--roundtrip` instead checks that the preprocessor tree prints back
// the page byte for byte (exit 0 iff every page does).
#include <iostream>

#include "cli/commands.hpp"
#include "ingest/input.hpp"
#include "preprocess/preprocessor.hpp"
#include "preprocess/printers.hpp"
#include "preprocess/restore_lines.hpp"

namespace wikic::cli {

namespace {

/// Hook for the document tree (`--tree doc`). The integrator wires the parse stage in
/// here once it exists: build the document tree from `text` (already line-restored),
/// print it to `out` as an S-expression or JSON, and return true. Until then it
/// returns false and the command reports a usage error.
bool print_document_tree(const std::string& /*file*/, const std::string& /*text*/, bool /*json*/,
                         support::DiagnosticSink& /*sink*/, std::ostream& /*out*/) {
  return false;
}

}  // namespace

Runner add_parse(CLI::App& app) {
  struct Options {
    std::vector<std::string> inputs;
    std::string page;
    std::string tree = "pp";
    std::string restore = "auto";
    std::string title;
    bool json = false;
    bool xml = false;
    bool roundtrip = false;
    bool transclusion = false;
    std::vector<std::string> extension_tags;
  };
  auto opt = std::make_shared<Options>();
  auto* cmd = app.add_subcommand("parse", "Print the preprocessor (pp) or document (doc) tree of pages");
  cmd->add_option("INPUT", opt->inputs, "Special:Export XML, .wiki/.wikitext file or folder ('-' = stdin)")->required();
  cmd->add_option("--page", opt->page, "Only the page with this title");
  cmd->add_option("--title", opt->title, "Title of a single .wiki input (default: from the file name)");
  cmd->add_option("--tree", opt->tree, "Which tree to print")->check(CLI::IsMember({"pp", "doc"}))->capture_default_str();
  cmd->add_flag("--json", opt->json, "JSON with byte spans instead of an S-expression");
  cmd->add_flag("--xml", opt->xml, "--tree pp only: MediaWiki's preprocessToDom XML");
  cmd->add_flag("--transclusion", opt->transclusion, "Preprocess as a transclusion (noinclude/includeonly/onlyinclude)");
  cmd->add_option("--extension-tags", opt->extension_tags,
                  "Comma-separated tags kept opaque (default: wikic's list; 'oracle' = the test wiki's)")
      ->delimiter(',');
  cmd->add_option("--restore-lines", opt->restore, "Restore collapsed newlines first")
      ->check(CLI::IsMember({"auto", "always", "never"}))
      ->capture_default_str();
  cmd->add_flag("--roundtrip", opt->roundtrip, "Exit 0 iff the preprocessor tree prints back each page exactly");
  return [opt] {
    support::DiagnosticSink sink(support::print_to(std::cerr));
    ingest::InputOptions input_options;
    if (!opt->title.empty()) input_options.title = opt->title;
    preprocess::RestoreMode restore = preprocess::RestoreMode::Auto;
    preprocess::parse_restore_mode(opt->restore, restore);
    preprocess::Options pp;
    pp.for_inclusion = opt->transclusion;
    if (opt->extension_tags == std::vector<std::string>{"oracle"})
      pp.extension_tags = preprocess::oracle_extension_tags();
    else if (!opt->extension_tags.empty())
      pp.extension_tags = opt->extension_tags;
    std::size_t mismatches = 0;
    bool usage_error = false;
    auto stats = ingest::read_inputs(opt->inputs, input_options, sink, [&](const ingest::SiteInfo&, ingest::Page&& page) {
      if (usage_error || (!opt->page.empty() && page.title != opt->page)) return;
      const std::string& raw = page.revision.text;
      std::string file = page.source.file + "#" + page.title;
      if (opt->roundtrip) {
        // The round trip is about the page as stored: no restoration.
        preprocess::Tree tree = preprocess::preprocess(raw, pp, {nullptr, file});
        if (preprocess::to_wikitext(tree) != raw) {
          ++mismatches;
          sink.error(file, {0, 0}, "preprocessor tree does not print back the page text");
        }
        return;
      }
      preprocess::RestoreResult restored = preprocess::restore_lines(raw, restore, pp, {&sink, file});
      if (opt->tree == "doc") {
        if (!print_document_tree(file, restored.text, opt->json, sink, std::cout)) {
          std::cerr << "wikic parse: `--tree doc` needs the parse stage, which is not built in yet\n";
          usage_error = true;
        }
        return;
      }
      preprocess::Tree tree = preprocess::preprocess(restored.text, pp, {&sink, file});
      if (opt->json)
        std::cout << preprocess::to_json(tree);
      else if (opt->xml)
        std::cout << preprocess::to_xml(tree) << '\n';
      else
        std::cout << preprocess::to_sexpr(tree);
    });
    std::cout.flush();
    if (usage_error) return static_cast<int>(Exit::usage_or_io);
    int code = finish(sink, stats.pages, stats.io_failure);
    if (opt->roundtrip && mismatches > 0 && code == Exit::ok) code = Exit::input_errors;
    return code;
  };
}

}  // namespace wikic::cli
