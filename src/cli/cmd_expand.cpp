// `wikic expand INPUT [--page TITLE] [--templates EXPORT…] [--semantic|--expand-all]`:
// prints a page's wikitext after template expansion, as MediaWiki's expandtemplates
// would, with semantic templates shown as calls whose parameters are expanded.
#include <algorithm>
#include <iostream>
#include <unordered_map>

#include "cli/commands.hpp"
#include "expand/expander.hpp"
#include "ingest/input.hpp"

namespace wikic::cli {

Runner add_expand(CLI::App& app) {
  struct Options {
    std::vector<std::string> inputs;
    std::vector<std::string> templates;
    std::string page;
    std::string title;
    bool semantic = false;
    bool expand_all = false;
    bool keep_comments = false;
  };
  auto opt = std::make_shared<Options>();
  auto* cmd = app.add_subcommand("expand", "Print pages after template expansion");
  cmd->add_option("INPUT", opt->inputs, "Special:Export XML, .wiki/.wikitext file or folder")->required();
  cmd->add_option("--page", opt->page, "Only this page (default: every page outside the Template namespace)");
  cmd->add_option("--templates", opt->templates, "More exports or folders to take templates from");
  cmd->add_option("--title", opt->title, "Title of a single .wiki input (default: from the file name)");
  auto* semantic = cmd->add_flag("--semantic", opt->semantic, "Keep schema/templates.yaml templates as nodes (default)");
  cmd->add_flag("--expand-all", opt->expand_all, "Expand semantic templates too, as the wiki does")->excludes(semantic);
  cmd->add_flag("--keep-comments", opt->keep_comments, "Keep <!-- comments --> (MediaWiki removes them)");
  return [opt] {
    support::DiagnosticSink sink(support::print_to(std::cerr));
    ingest::InputOptions input_options;
    if (!opt->title.empty()) input_options.title = opt->title;
    // Pass 2, when it reads the inputs again, follows the page ends pass 1 noted.
    ingest::PageIndex page_index;
    input_options.page_index = &page_index;
    std::optional<expand::TemplateStore> store;
    using Entry = expand::TemplateStore::Entry;
    // Which page (index into `listed`) last set each store entry; templates count as none.
    std::unordered_map<const Entry*, std::size_t> set_by;
    constexpr std::size_t kTemplatesFile = static_cast<std::size_t>(-1);
    auto keep = [&](const ingest::SiteInfo& site, ingest::Page&& page) {
      if (!store) store.emplace(site);
      if (const Entry* e = store->add(std::move(page))) set_by[e] = kTemplatesFile;
    };
    // Pass 1: every page goes into the store (any page may be transcluded), which takes
    // its text over; `listed` keeps the rest of each page. Pass 2 expands the listed pages
    // one at a time with the text the store holds. When the store does not hold a page's
    // own text (its title is invalid, or a later page of the same title replaced it),
    // pass 2 reads the inputs again instead. Standard input and pipes cannot be read
    // twice: there whole pages are kept from pass 1.
    const bool read_once = !ingest::inputs_can_be_read_again(opt->inputs);
    std::vector<ingest::Page> kept;
    std::vector<ingest::Page> listed;
    std::vector<const Entry*> entry_of;
    auto stats = ingest::read_inputs(opt->inputs, input_options, sink, [&](const ingest::SiteInfo& site, ingest::Page&& page) {
      if (read_once) kept.push_back(page);
      if (!store) store.emplace(site);
      const Entry* e = store->add(std::move(page));
      if (read_once) return;
      if (e) set_by[e] = listed.size();
      entry_of.push_back(e);
      listed.push_back(std::move(page));  // everything but the text, now in the store
    });
    auto more = ingest::read_inputs(opt->templates, {}, sink, keep);
    if (!store) store.emplace(ingest::default_site());
    bool store_holds_all = true;
    for (std::size_t i = 0; i < entry_of.size() && store_holds_all; ++i)
      store_holds_all = entry_of[i] && set_by[entry_of[i]] == i;
    expand::ExpandOptions options;
    options.expand_all = opt->expand_all;
    options.remove_comments = !opt->keep_comments;
    expand::Expander expander(*store, options, sink);
    std::size_t printed = 0;
    auto selected = [&](const ingest::Page& page) {
      return opt->page.empty() ? page.ns != 10 : page.title == opt->page;
    };
    auto print = [&](const ingest::Page& page) {
      if (!selected(page)) return;
      auto result = expander.expand_page(page);
      if (stats.pages > 1 && opt->page.empty()) std::cout << "<!-- wikic expand: " << page.title << " -->\n";
      std::cout << result.text_with_semantic_calls() << '\n';
      ++printed;
    };
    if (read_once) {
      for (const auto& page : kept) print(page);
    } else if (store_holds_all) {
      for (std::size_t i = 0; i < listed.size(); ++i) {
        ingest::Page& page = listed[i];
        if (!selected(page)) continue;
        page.revision.text = entry_of[i]->text;
        print(page);
        std::string().swap(page.revision.text);
      }
    } else {
      support::DiagnosticSink again;  // pass 1 has reported the input's diagnostics
      ingest::read_inputs(opt->inputs, input_options, again,
                          [&](const ingest::SiteInfo&, ingest::Page&& page) { print(page); });
    }
    if (!opt->page.empty() && printed == 0) {
      sink.error(opt->inputs.front(), support::nowhere, "no page titled '" + opt->page + "' in the input");
      return finish(sink, stats.pages + more.pages, true);
    }
    return finish(sink, stats.pages + more.pages, stats.io_failure || more.io_failure);
  };
}

}  // namespace wikic::cli
