// `wikic condition CLASS…`: the canonical condition of each class name, class list or
// dynamic selector, one per line (`showCircusAndNotAcrobats: Circus & !Acrobats`), with
// the selector lints on stderr. Lets an editor check a class before using it on the wiki.
#include <iostream>

#include "cli/commands.hpp"
#include "select/classes.hpp"

namespace wikic::cli {

Runner add_condition(CLI::App& app) {
  struct Options {
    std::vector<std::string> items;
  };
  auto opt = std::make_shared<Options>();
  auto* cmd = app.add_subcommand("condition",
                                 "Print the canonical condition of show* classes or dynamic selectors, one per line");
  cmd->add_option("CLASS", opt->items,
                  "A class name (showInns), a class list (\"showC1 showInns\") or a dynamic selector "
                  "(\"['OR','showInns','showWells']\")")
      ->required()
      // CLI11 reads "[a,b]" given to a multi-value option as a list and would split a
      // dynamic selector at its commas; so the option takes one value and the rest
      // arrive verbatim as extras.
      ->allow_extra_args(false);
  cmd->allow_extras();
  return [opt, cmd] {
    for (const auto& extra : cmd->remaining()) opt->items.push_back(extra);
    support::DiagnosticSink sink(support::print_to(std::cerr));
    const auto& vocabulary = select::Vocabulary::builtin();
    for (std::size_t i = 0; i < opt->items.size(); ++i) {
      const std::string& item = opt->items[i];
      // Diagnostics point into the argument: `<arg 2>:1:9: warning: …`.
      select::Where where{"<arg " + std::to_string(i + 1) + ">", {1, 1}};
      auto condition = select::condition_of_text(item, where, sink, vocabulary);
      std::cout << item << ": " << (condition ? select::to_string(*condition) : std::string("(malformed)")) << '\n';
    }
    std::cout.flush();
    // No summary line: the command reads no pages, and its stdout is meant for scripts.
    return sink.errors() > 0 ? Exit::input_errors : Exit::ok;
  };
}

}  // namespace wikic::cli
