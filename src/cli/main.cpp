// Entry point of the `wikic` command: parses the command line and runs one subcommand.
#include <iostream>
#include <string>

#include "cli/commands.hpp"
#include "support/ref_count.hpp"

#ifdef WIKIC_MIMALLOC
#include <mimalloc.h>
#endif

#ifndef WIKIC_VERSION
#define WIKIC_VERSION "unknown"
#endif

int main(int argc, char** argv) {
  using namespace wikic::cli;
  // Every record this program makes is dropped on the thread that made it; the one
  // other thread (the rule files' block writer) handles bytes only.
  wikic::support::RefCount::confine_to_this_thread();
  CLI::App app{"wikic: compiles Wikicarpedia's MediaWiki export into a rule database", "wikic"};
  std::string version = std::string("wikic ") + WIKIC_VERSION;
#ifdef WIKIC_MIMALLOC
  // Which allocator this build uses matters to anyone comparing timings between builds.
  int mi = mi_version();  // e.g. 209 for 2.0.9
  version += " (mimalloc " + std::to_string(mi / 100) + "." + std::to_string(mi / 10 % 10) + "." +
             std::to_string(mi % 10) + ")";
#endif
  app.set_version_flag("--version", version);
  app.require_subcommand(1);
  app.footer("Exit status: 0 ok, 1 the input had errors, 2 usage or I/O failure.\n"
             "Run 'wikic COMMAND --help' for a command's options.");
  std::vector<std::pair<CLI::App*, Runner>> commands;
  auto add = [&](Runner (*make)(CLI::App&)) {
    std::size_t before = app.get_subcommands({}).size();
    Runner run = make(app);
    commands.emplace_back(app.get_subcommands({}).at(before), std::move(run));
  };
  add(add_pages);
  add(add_compile);
  add(add_expand);
  add(add_parse);
  add(add_condition);
  add(add_select);
  add(add_query);
  add(add_l10n);
  try {
    app.parse(argc, argv);
  } catch (const CLI::ParseError& e) {
    int code = app.exit(e);
    return code == 0 ? Exit::ok : Exit::usage_or_io;
  }
  for (auto& [sub, run] : commands)
    if (sub->parsed()) {
      try {
        return run();
      } catch (const std::exception& e) {
        std::cerr << "wikic: internal error: " << e.what() << '\n';
        return Exit::usage_or_io;
      }
    }
  return Exit::usage_or_io;
}
