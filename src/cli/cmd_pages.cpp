// `wikic pages INPUT…`: one line per page (ns, title, language, bytes, sha1), so a
// maintainer can see what an export holds before compiling it.
#include <iostream>

#include "cli/commands.hpp"
#include "ingest/input.hpp"

namespace wikic::cli {

Runner add_pages(CLI::App& app) {
  struct Options {
    std::vector<std::string> inputs;
    std::string title;
  };
  auto opt = std::make_shared<Options>();
  auto* cmd = app.add_subcommand("pages", "List the pages of exports or .wiki files: ns, title, language, bytes, sha1");
  cmd->add_option("INPUT", opt->inputs, "Special:Export XML, .wiki/.wikitext file or folder ('-' = stdin)")->required();
  cmd->add_option("--title", opt->title, "Title of a single .wiki input (default: from the file name)");
  return [opt] {
    support::DiagnosticSink sink(support::print_to(std::cerr));
    ingest::InputOptions options;
    if (!opt->title.empty()) options.title = opt->title;
    auto stats = ingest::read_inputs(opt->inputs, options, sink, [](const ingest::SiteInfo&, ingest::Page&& page) {
      std::cout << page.ns << '\t' << page.title << '\t' << page.language << '\t' << page.revision.text.size()
                << '\t' << page.revision.sha1 << '\n';
    });
    std::cout.flush();
    return finish(sink, stats.pages, stats.io_failure);
  };
}

}  // namespace wikic::cli
