// `wikic parse INPUT [--page T] --tree pp|doc [--json] [--restore-lines=…]` prints the
// tree of each page (the document tree of the page after line restoration and template
// expansion); `--roundtrip` instead checks that the preprocessor tree prints back the
// page byte for byte (exit 0 iff every page does).
#include <iostream>

#include "cli/commands.hpp"
#include "cli/pipeline.hpp"
#include "ingest/input.hpp"
#include "preprocess/preprocessor.hpp"
#include "preprocess/printers.hpp"
#include "preprocess/restore_lines.hpp"
#include "parse/parser.hpp"
#include "parse/printer.hpp"

namespace wikic::cli {

namespace {

/// Counts of a document tree, for `--stats`.
std::string tree_stats(const std::string& title, const parse::Document& doc) {
  std::size_t tables = 0, rows = 0, cells = 0, semantic = 0, headings = 0;
  for (parse::NodeId id = 0; id < doc.size(); ++id) {
    switch (doc.node(id).kind) {
    case parse::NodeKind::Table: ++tables; break;
    case parse::NodeKind::TableRow: ++rows; break;
    case parse::NodeKind::TableCell: ++cells; break;
    case parse::NodeKind::SemanticTemplate: ++semantic; break;
    case parse::NodeKind::Heading: ++headings; break;
    default: break;
    }
  }
  return title + "\tnodes=" + std::to_string(doc.size()) + " headings=" + std::to_string(headings) +
         " tables=" + std::to_string(tables) + " rows=" + std::to_string(rows) + " cells=" + std::to_string(cells) +
         " semantic-templates=" + std::to_string(semantic) + "\n";
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
    bool stats = false;
    bool no_expand = false;
    bool print_restored = false;
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
  cmd->add_flag("--stats", opt->stats, "--tree doc: one line of counts per page instead of the tree");
  cmd->add_flag("--no-expand", opt->no_expand,
                "--tree doc: parse the page as written, templates kept opaque (default: expand first)");
  cmd->add_flag("--print-restored", opt->print_restored, "Print each page's wikitext after line restoration");
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
    // The document tree is built from the expanded page, so templates must be known
    // first: pages are kept until the whole input is read.
    bool doc_tree = opt->tree == "doc" && !opt->roundtrip && !opt->print_restored;
    bool keep_pages = doc_tree && !opt->no_expand;
    auto print_document = [&](const std::string& title, const parse::Document& doc) {
      if (opt->stats)
        std::cout << tree_stats(title, doc);
      else if (opt->json)
        std::cout << parse::to_json(doc) << '\n';
      else
        std::cout << parse::to_sexpr(doc);
    };
    std::vector<ingest::Page> pages;
    std::optional<expand::TemplateStore> store;
    auto stats = ingest::read_inputs(opt->inputs, input_options, sink, [&](const ingest::SiteInfo& site, ingest::Page&& page) {
      if (keep_pages) {
        if (!store) store.emplace(site);
        store->add(page);
        if (opt->page.empty() || page.title == opt->page) pages.push_back(std::move(page));
        return;
      }
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
      // The page text is restored in place and handed on: nothing below needs the raw text.
      std::string& text = page.revision.text;
      preprocess::restore_lines_in_place(text, restore, pp, {&sink, file});
      if (opt->print_restored) {
        std::cout << text << '\n';
        return;
      }
      if (doc_tree) {  // --no-expand: the page as written, one page at a time
        parse::ParseOptions parse_options;
        parse_options.page = file;
        print_document(page.title, parse::parse_document_moved(std::move(text), sink, parse_options));
        return;
      }
      preprocess::Tree tree = preprocess::preprocess(text, pp, {&sink, file});
      if (opt->json)
        std::cout << preprocess::to_json(tree);
      else if (opt->xml)
        std::cout << preprocess::to_xml(tree) << '\n';
      else
        std::cout << preprocess::to_sexpr(tree);
    });
    if (keep_pages) {
      if (!store) store.emplace(ingest::default_site());
      PipelineOptions options;
      options.restore = restore;
      options.preprocess = pp;
      if (!pp.extension_tags.empty()) options.expand.extension_tags = pp.extension_tags;
      Pipeline pipeline(*store, sink, options);
      for (auto& page : pages) print_document(page.title, pipeline.parse(page)->doc);
    }
    std::cout.flush();
    if (usage_error) return static_cast<int>(Exit::usage_or_io);
    int code = finish(sink, stats.pages, stats.io_failure);
    if (opt->roundtrip && mismatches > 0 && code == Exit::ok) code = Exit::input_errors;
    return code;
  };
}

}  // namespace wikic::cli
