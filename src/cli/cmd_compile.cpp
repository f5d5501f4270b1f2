// `wikic compile INPUT… --out DIR`: runs the pipeline over every page and writes the
// outputs into DIR atomically. So far: the page manifest (pages.yaml, pages.xml).
#include <filesystem>
#include <iostream>

#include "cli/commands.hpp"
#include "emit/manifest.hpp"
#include "ingest/input.hpp"
#include "support/files.hpp"

namespace wikic::cli {

Runner add_compile(CLI::App& app) {
  struct Options {
    std::vector<std::string> inputs;
    std::string out = "out";
    std::string title;
  };
  auto opt = std::make_shared<Options>();
  auto* cmd = app.add_subcommand("compile", "Compile exports or .wiki files into the output folder");
  cmd->add_option("INPUT", opt->inputs, "Special:Export XML, .wiki/.wikitext file or folder ('-' = stdin)")->required();
  cmd->add_option("-o,--out", opt->out, "Output folder (created if missing)")->capture_default_str();
  cmd->add_option("--title", opt->title, "Title of a single .wiki input (default: from the file name)");
  return [opt] {
    support::DiagnosticSink sink(support::print_to(std::cerr));
    ingest::InputOptions options;
    if (!opt->title.empty()) options.title = opt->title;
    emit::Manifest manifest;
    auto stats = ingest::read_inputs(opt->inputs, options, sink, [&](const ingest::SiteInfo& site, ingest::Page&& page) {
      manifest.add(site, page, sink);
    });
    std::error_code ec;
    std::filesystem::create_directories(opt->out, ec);
    if (ec) {
      sink.error(opt->out, support::nowhere, "cannot create output folder: " + ec.message());
      return finish(sink, stats.pages, true);
    }
    bool io_failure = stats.io_failure;
    for (auto [name, text] : {std::pair{"pages.yaml", manifest.to_yaml()}, std::pair{"pages.xml", manifest.to_xml()}}) {
      std::string error;
      if (!support::write_file_atomic(opt->out + "/" + name, text, error)) {
        sink.error(error.substr(0, error.find(": ")), support::nowhere, "cannot write: " + error.substr(error.find(": ") + 2));
        io_failure = true;
      }
    }
    return finish(sink, stats.pages, io_failure);
  };
}

}  // namespace wikic::cli
