// `wikic compile INPUT… --out DIR`: runs the pipeline over every page and writes the
// outputs into DIR atomically: the page manifest (pages.yaml, pages.xml), the rule
// database (rules.yaml, rules.xml, rules.json, streamed page by page) and every
// diagnostic (diagnostics.txt); and, when the input holds translations, the translation
// report in DIR/l10n/ (as `wikic l10n`).
#include <algorithm>
#include <chrono>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <optional>

#include "cli/commands.hpp"
#include "cli/pipeline.hpp"
#include "emit/manifest.hpp"
#include "emit/rules_writer.hpp"
#include "ingest/input.hpp"
#include "l10n/translations.hpp"
#include "select/vocabulary.hpp"
#include "support/files.hpp"

namespace wikic::cli {

Runner add_compile(CLI::App& app) {
  struct Options {
    std::vector<std::string> inputs;
    std::string out = "out";
    std::string title;
    std::vector<std::string> lints;
    bool timings = false;
  };
  auto opt = std::make_shared<Options>();
  auto* cmd = app.add_subcommand("compile", "Compile exports or .wiki files into the output folder");
  cmd->add_option("INPUT", opt->inputs, "Special:Export XML, .wiki/.wikitext file or folder ('-' = stdin)")->required();
  cmd->add_option("-o,--out", opt->out, "Output folder (created if missing)")->capture_default_str();
  cmd->add_option("--title", opt->title, "Title of a single .wiki input (default: from the file name)");
  cmd->add_option("--lint", opt->lints, "Extra lints: 'redundant' (classes repeating their ancestors' condition)")
      ->delimiter(',')
      ->check(CLI::IsMember({"redundant"}));
  cmd->add_flag("--timings", opt->timings, "Print the seconds spent in each stage to stderr");
  return [opt] {
    const auto started = std::chrono::steady_clock::now();
    StageTimes times;
    StageTimes* timed = opt->timings ? &times : nullptr;
    // Diagnostics are streamed to stderr and to diagnostics.txt as they come (a large
    // export has tens of thousands); each page reports into a sink of its own, so none
    // of them is held for the whole run.
    std::ofstream diagnostics_file;
    std::size_t page_warnings = 0, page_errors = 0;
    auto record = [&](const support::Diagnostic& d) {
      std::string line = d.format();
      line += '\n';
      std::cerr << line;
      if (diagnostics_file.is_open()) diagnostics_file << line;
    };
    // A page's diagnostics are written together once it is compiled: std::cerr is
    // unbuffered, and a system call per line was a measurable part of a large run.
    std::string page_lines;
    auto record_page = [&](const support::Diagnostic& d) {
      page_lines += d.format();
      page_lines += '\n';
    };
    support::DiagnosticSink sink(record);
    ingest::InputOptions options;
    if (!opt->title.empty()) options.title = opt->title;
    emit::Manifest manifest;
    l10n::Collector translations;
    emit::RulesHeader header;
    std::optional<expand::TemplateStore> store;
    auto is_template = [](const ingest::Page& page) { return page.ns == 10; };
    auto note_header = [&](const ingest::SiteInfo& site, const ingest::Page& page) {
      if (header.sitename.empty()) header.sitename = site.sitename;
      header.dump_date = std::max(header.dump_date, page.revision.timestamp);
    };
    // Templates may come after the pages that use them, and the header (site, dump
    // date) comes before every page, so a first pass keeps only the Template namespace
    // and the header facts (its diagnostics are dropped: the second pass reports them);
    // the second pass extracts each page as it streams by and writes it out at once.
    // Standard input can be read once only, so with '-' the pages are kept in memory.
    bool stdin_input = std::find(opt->inputs.begin(), opt->inputs.end(), "-") != opt->inputs.end();
    std::vector<ingest::Page> kept;
    if (!stdin_input) {
      Stopwatch clock(timed);
      support::DiagnosticSink quiet;
      ingest::InputOptions templates_only = options;
      templates_only.want_text = [](int ns, std::string_view) { return ns == 10; };
      ingest::read_inputs(opt->inputs, templates_only, quiet, [&](const ingest::SiteInfo& site, ingest::Page&& page) {
        if (!store) store.emplace(site);
        if (is_template(page)) store->add(page);
        note_header(site, page);
      });
      clock.lap(&StageTimes::templates);
    }
    header.vocabulary_version = select::Vocabulary::builtin().version();
    header.mapping_version = extract::extract_mapping_version();
    std::error_code ec;
    std::filesystem::create_directories(opt->out, ec);
    if (ec) {
      sink.error(opt->out, support::nowhere, "cannot create output folder: " + ec.message());
      return finish(sink, 0, true);
    }
    // The rule files are written to temporaries as pages arrive and renamed at the end,
    // so a reader never sees a half-written database.
    const char* rule_files[] = {"rules.yaml", "rules.xml", "rules.json"};
    std::ofstream streams[3];
    for (int i = 0; i < 3; ++i) streams[i].open(opt->out + "/." + rule_files[i] + ".tmp", std::ios::binary);
    const std::string diagnostics_tmp = opt->out + "/.diagnostics.txt.tmp";
    diagnostics_file.open(diagnostics_tmp, std::ios::binary);
    std::optional<emit::RulesWriter> writer;
    PipelineOptions pipeline_options;
    pipeline_options.lint_redundant = !opt->lints.empty();
    pipeline_options.times = timed;
    auto extract = [&](ingest::Page& page) {
      // Unit pages (Translate's namespace 1198) are fragments of a page, not pages: their
      // rules are the translation page's, which `wikic l10n` compares.
      if (is_template(page) || !page.redirect.empty() || page.ns == l10n::kTranslationsNamespace) return;
      if (!writer) writer.emplace(streams[0], streams[1], streams[2], header);
      support::DiagnosticSink page_sink(record_page);
      auto rules = Pipeline(*store, page_sink, pipeline_options).compile(page);
      std::cerr << page_lines;
      diagnostics_file << page_lines;
      page_lines.clear();
      Stopwatch clock(timed);
      writer->page(rules);
      clock.lap(&StageTimes::emit);
      page_warnings += page_sink.warnings();
      page_errors += page_sink.errors();
    };
    auto stats = ingest::read_inputs(opt->inputs, options, sink, [&](const ingest::SiteInfo& site, ingest::Page&& page) {
      manifest.add(site, page, sink);
      translations.add(site, page);
      if (!store) store.emplace(site);
      if (stdin_input) {
        if (is_template(page)) store->add(page);
        note_header(site, page);
        kept.push_back(std::move(page));
      } else {
        extract(page);
      }
    });
    if (!store) store.emplace(ingest::default_site());
    for (auto& page : kept) extract(page);
    if (!writer) writer.emplace(streams[0], streams[1], streams[2], header);
    writer->finish();
    std::string summary = writer->totals().text();
    bool io_failure = stats.io_failure;
    std::string l10n_line;
    if (translations.has_translations()) {
      // The comparison compiles each source and translated page again; their own
      // warnings were reported above (or belong to pages built from units), so they are
      // not repeated here.
      support::DiagnosticSink quiet;
      Pipeline pipeline(*store, quiet, pipeline_options);
      l10n::Report report = translations.build({}, [&](ingest::Page& page) { return pipeline.compile(page); }, sink);
      if (!write_l10n(report, opt->out + "/l10n", sink)) io_failure = true;
      l10n_line = l10n_summary(report);
    }
    for (int i = 0; i < 3; ++i) {
      std::string tmp = opt->out + "/." + rule_files[i] + ".tmp";
      streams[i].close();
      std::filesystem::rename(tmp, opt->out + "/" + rule_files[i], ec);
      if (!streams[i] || ec) {
        sink.error(opt->out + "/" + rule_files[i], support::nowhere, "cannot write: " + (ec ? ec.message() : "write failed"));
        std::filesystem::remove(tmp, ec);
        io_failure = true;
      }
    }
    // diagnostics.txt is the run's record: every diagnostic and the summaries.
    auto count = [](std::size_t n, const char* what) { return std::to_string(n) + " " + what + (n == 1 ? "" : "s"); };
    diagnostics_file << "wikic: " << count(stats.pages, "page") << ", " << count(sink.warnings() + page_warnings, "warning")
                     << ", " << count(sink.errors() + page_errors, "error") << "\n";
    diagnostics_file << "wikic: rules: " << summary << "\n";
    if (!l10n_line.empty()) diagnostics_file << "wikic: l10n: " << l10n_line << "\n";
    diagnostics_file.close();
    std::filesystem::rename(diagnostics_tmp, opt->out + "/diagnostics.txt", ec);
    if (!diagnostics_file || ec) {
      sink.error(opt->out + "/diagnostics.txt", support::nowhere, "cannot write: " + (ec ? ec.message() : "write failed"));
      std::filesystem::remove(diagnostics_tmp, ec);
      io_failure = true;
    }
    for (auto [name, text] : {std::pair{"pages.yaml", manifest.to_yaml()}, std::pair{"pages.xml", manifest.to_xml()}}) {
      std::string error;
      if (!support::write_file_atomic(opt->out + "/" + name, text, error)) {
        sink.error(error.substr(0, error.find(": ")), support::nowhere, "cannot write: " + error.substr(error.find(": ") + 2));
        io_failure = true;
      }
    }
    std::cerr << "wikic: rules: " << summary << '\n';
    if (!l10n_line.empty()) std::cerr << "wikic: l10n: " << l10n_line << '\n';
    if (opt->timings) {
      // "read" is what the stages leave: decoding the export, the manifest, diagnostics.
      double total = std::chrono::duration<double>(std::chrono::steady_clock::now() - started).count();
      char line[400];
      std::snprintf(line, sizeof line,
                    "wikic: time: templates pass %.3f s, read and rest %.3f s, restore %.3f s, expand %.3f s, "
                    "parse %.3f s, select %.3f s, extract %.3f s, emit %.3f s, total %.3f s\n",
                    times.templates, total - times.sum(), times.restore, times.expand, times.parse, times.select,
                    times.extract, times.emit, total);
      std::cerr << line;
    }
    return finish(sink.warnings() + page_warnings, sink.errors() + page_errors, stats.pages, io_failure);
  };
}

}  // namespace wikic::cli
