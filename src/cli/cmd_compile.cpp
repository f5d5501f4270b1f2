// `wikic compile INPUT… --out DIR`: runs the pipeline over every page and writes the
// outputs into DIR, replacing the old ones together once all are on disk: the page
// manifest (pages.yaml, pages.xml), the rule database (rules.yaml, rules.xml,
// rules.json, streamed page by page) and every diagnostic (diagnostics.txt); and, when
// the input holds translations, the translation report in DIR/l10n/ (as `wikic l10n`).
#include <algorithm>
#include <chrono>
#include <cstdio>
#include <filesystem>
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
    std::ostream* diagnostics_file = nullptr;
    std::size_t page_warnings = 0, page_errors = 0;
    auto record = [&](const support::Diagnostic& d) {
      std::string line = d.format();
      line += '\n';
      std::cerr << line;
      if (diagnostics_file) *diagnostics_file << line;
    };
    // A page's diagnostics are written together once it is compiled: std::cerr is
    // unbuffered, and a system call per line was a measurable part of a large run.
    std::string page_lines;
    auto record_page = [&](const support::Diagnostic& d) {
      d.format_to(page_lines);
      page_lines += '\n';
    };
    support::DiagnosticSink sink(record);
    ingest::InputOptions options;
    if (!opt->title.empty()) options.title = opt->title;
    // The first pass notes where each page lies, so the second does not search again.
    ingest::PageIndex page_index;
    options.page_index = &page_index;
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
    // Standard input and pipes can be read once only: with one of those among the
    // inputs there is no first pass, and the pages are kept in memory until all are read.
    const bool read_once = !ingest::inputs_can_be_read_again(opt->inputs);
    std::vector<ingest::Page> kept;
    if (!read_once) {
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
    // Every file of the folder is written to a temporary of this run and all replace the
    // old ones together at the end (support::commit_together): a reader never sees a
    // half-written database, nor a new rules.yaml beside an old rules.xml; a run that
    // fails leaves the last good output as it was. A folder that cannot take the files
    // stops the run before any page is compiled.
    support::AtomicFile yaml_file(opt->out + "/rules.yaml"), xml_file(opt->out + "/rules.xml"),
        json_file(opt->out + "/rules.json"), diagnostics_out(opt->out + "/diagnostics.txt"),
        pages_yaml(opt->out + "/pages.yaml"), pages_xml(opt->out + "/pages.xml");
    std::vector<support::AtomicFile*> outputs{&yaml_file, &xml_file,   &json_file,
                                              &diagnostics_out, &pages_yaml, &pages_xml};
    for (support::AtomicFile* file : outputs) {
      std::string error;
      if (!file->open(error)) {
        report_write_error(sink, error);
        return finish(sink, 0, true);
      }
    }
    diagnostics_file = &diagnostics_out.stream();
    std::optional<emit::RulesWriter> writer;
    PipelineOptions pipeline_options;
    pipeline_options.lint_redundant = !opt->lints.empty();
    pipeline_options.times = timed;
    auto extract = [&](ingest::Page& page) {
      // Unit pages (Translate's namespace 1198) are fragments of a page, not pages: their
      // rules are the translation page's, which `wikic l10n` compares.
      if (is_template(page) || !page.redirect.empty() || page.ns == l10n::kTranslationsNamespace) return;
      if (!writer) writer.emplace(yaml_file.output(), xml_file.output(), json_file.output(), header);
      support::DiagnosticSink page_sink(record_page);
      auto rules = Pipeline(*store, page_sink, pipeline_options).compile(page);
      std::cerr << page_lines;
      *diagnostics_file << page_lines;
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
      if (read_once) {
        if (is_template(page)) store->add(page);
        note_header(site, page);
        kept.push_back(std::move(page));
      } else {
        extract(page);
      }
    });
    if (!store) store.emplace(ingest::default_site());
    for (auto& page : kept) extract(page);
    if (!writer) writer.emplace(yaml_file.output(), xml_file.output(), json_file.output(), header);
    writer->finish();
    std::string summary = writer->totals().text();
    bool io_failure = stats.io_failure;
    std::string l10n_line;
    std::vector<std::unique_ptr<support::AtomicFile>> l10n_files;  // committed with the rest
    bool l10n_staged = true;
    if (translations.has_translations()) {
      // The comparison compiles each source and translated page again; their own
      // warnings were reported above (or belong to pages built from units), so they are
      // not repeated here.
      support::DiagnosticSink quiet;
      Pipeline pipeline(*store, quiet, pipeline_options);
      l10n::Report report = translations.build({}, [&](ingest::Page& page) { return pipeline.compile(page); }, sink);
      l10n_files = stage_l10n(report, opt->out + "/l10n", sink, l10n_staged);
      for (auto& file : l10n_files) outputs.push_back(file.get());
      l10n_line = l10n_summary(report);
    }
    // diagnostics.txt is the run's record: every diagnostic and the summaries.
    auto count = [](std::size_t n, const char* what) { return std::to_string(n) + " " + what + (n == 1 ? "" : "s"); };
    *diagnostics_file << "wikic: " << count(stats.pages, "page") << ", " << count(sink.warnings() + page_warnings, "warning")
                      << ", " << count(sink.errors() + page_errors, "error") << "\n";
    *diagnostics_file << "wikic: rules: " << summary << "\n";
    if (!l10n_line.empty()) *diagnostics_file << "wikic: l10n: " << l10n_line << "\n";
    diagnostics_file = nullptr;  // what is reported from here on cannot be in it
    pages_yaml.stream() << manifest.to_yaml();
    pages_xml.stream() << manifest.to_xml();
    std::vector<std::string> errors;
    if (!l10n_staged) {
      for (support::AtomicFile* file : outputs) file->discard();  // the last good output stays whole
      io_failure = true;
    } else if (!support::commit_together(outputs, errors)) {
      for (const auto& error : errors) report_write_error(sink, error);
      io_failure = true;
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
