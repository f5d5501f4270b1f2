// `wikic select INPUT [--page T] --edition C1|C2|WE --with ID,… [--all-expansions]`: the
// Expansion Selector offline. Prints each page as plain text the way a reader with that
// selection sees it, and reports the selector lints of the page on stderr.
#include <iostream>

#include "cli/commands.hpp"
#include "ingest/input.hpp"
#include "expand/expander.hpp"
#include "parse/from_expansion.hpp"
#include "parse/parser.hpp"
#include "preprocess/restore_lines.hpp"
#include "select/tree_conditions.hpp"

namespace wikic::cli {

Runner add_select(CLI::App& app) {
  struct Options {
    std::vector<std::string> inputs;
    std::string page;
    std::string edition = "C2";
    std::vector<std::string> with;
    bool all_expansions = false;
    bool mark = false;
  };
  auto opt = std::make_shared<Options>();
  auto* cmd = app.add_subcommand("select", "Print pages as a reader with an Expansion Selector selection sees them");
  cmd->add_option("INPUT", opt->inputs, "Special:Export XML, .wiki/.wikitext file or folder ('-' = stdin)")->required();
  cmd->add_option("--page", opt->page, "Only the page with this title");
  cmd->add_option("--edition", opt->edition, "Preferred edition")
      ->check(CLI::IsMember({"C1", "C2", "C3", "WE"}))
      ->capture_default_str();
  cmd->add_option("--with", opt->with, "Selected expansions and parts (Inns,Wells,…)")->delimiter(',');
  cmd->add_flag("--all-expansions", opt->all_expansions, "Select every expansion");
  cmd->add_flag("--mark", opt->mark, "Mark rules adaptations (shows showMark content)");
  return [opt] {
    support::DiagnosticSink sink(support::print_to(std::cerr));
    const auto& vocabulary = select::Vocabulary::builtin();
    select::Selection selection;
    selection.edition = select::parse_edition(opt->edition).value_or(vocabulary.default_edition());
    selection.all_expansions = opt->all_expansions;
    selection.mark_adaptations = opt->mark;
    for (std::string id : opt->with) {
      if (id.rfind("show", 0) == 0) id.erase(0, 4);
      if (id.empty()) continue;
      if (!vocabulary.find_atom(id)) {
        std::string message = "unknown expansion id '" + id + "'";
        auto near = vocabulary.closest_ids("show" + id);
        if (!near.empty()) {
          message += " (closest known: ";
          for (std::size_t i = 0; i < near.size(); ++i) message += (i ? ", " : "") + near[i];
          message += ')';
        }
        sink.warning("--with", {0, 0}, std::move(message));
      }
      selection.expansions.insert(id);
    }
    // Pages are expanded before they are projected (ScoringRow and the other semantic
    // templates carry rules), so templates must be known first: keep every page.
    std::vector<ingest::Page> pages;
    std::optional<expand::TemplateStore> store;
    auto stats = ingest::read_inputs(opt->inputs, {}, sink, [&](const ingest::SiteInfo& site, ingest::Page&& page) {
      if (!store) store.emplace(site);
      store->add(page);
      if (opt->page.empty() ? page.ns != 10 : page.title == opt->page) pages.push_back(std::move(page));
    });
    if (!store) store.emplace(ingest::default_site());
    expand::Expander expander(*store, {}, sink);
    for (auto& page : pages) {
      std::string file = page.source.file + "#" + page.title;
      // Pages whose newlines arrived collapsed (the seed) get their line starts back
      // first, exactly as `wikic parse` does.
      auto restored = preprocess::restore_lines(page.revision.text, preprocess::RestoreMode::Auto, {}, {&sink, file});
      if (restored.restored) page.revision.text = std::move(restored.text);
      auto expansion = expander.expand_page(page);
      parse::ParseOptions options;
      options.page = file;
      parse::Document doc = parse::parse_expansion(expansion, sink, options);
      select::TreeConditions conditions = select::tree_conditions(doc, file, sink, vocabulary);
      std::cout << "# " << page.title << '\n' << select::project_text(doc, conditions, selection, vocabulary);
    }
    std::cout.flush();
    return finish(sink, stats.pages, stats.io_failure);
  };
}

}  // namespace wikic::cli
