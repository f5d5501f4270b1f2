// `wikic select INPUT [--page T] --edition C1|C2|WE --with ID,… [--all-expansions]`: the
// Expansion Selector offline. Prints each page as plain text the way a reader with that
// selection sees it, and reports the selector lints of the page on stderr.
#include <iostream>

#include "cli/commands.hpp"
#include "cli/pipeline.hpp"
#include "ingest/input.hpp"

namespace wikic::cli {

Runner add_select(CLI::App& app) {
  struct Options {
    std::vector<std::string> inputs;
    std::string page;
    std::string edition = "C2";
    std::vector<std::string> with;
    bool all_expansions = false;
    bool mark = false;
    std::vector<std::string> lints;
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
  cmd->add_option("--lint", opt->lints, "Extra lints: 'redundant' (classes repeating their ancestors' condition)")
      ->delimiter(',')
      ->check(CLI::IsMember({"redundant"}));
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
    PipelineOptions options;
    options.lint_redundant = !opt->lints.empty();
    Pipeline pipeline(*store, sink, options);
    for (auto& page : pages) {
      auto trees = pipeline.select(page);
      std::cout << "# " << page.title << '\n' << select::project_text(trees->doc, trees->conditions, selection, vocabulary);
    }
    std::cout.flush();
    return finish(sink, stats.pages, stats.io_failure);
  };
}

}  // namespace wikic::cli
