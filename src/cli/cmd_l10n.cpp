// `wikic l10n INPUT… --out DIR [--previous DIR] [--lang fr,cs]`: the translation report
// of an export (Translate extension pages) into DIR/l10n/. `wikic compile` stages the
// same files (stage_l10n) when its input holds translations, and commits them with its own.
#include <filesystem>
#include <iostream>
#include <optional>

#include "cli/commands.hpp"
#include "cli/pipeline.hpp"
#include "expand/expander.hpp"
#include "ingest/input.hpp"
#include "l10n/report.hpp"
#include "support/files.hpp"

namespace wikic::cli {

std::vector<std::unique_ptr<support::AtomicFile>> stage_l10n(const l10n::Report& report, const std::string& dir,
                                                             support::DiagnosticSink& sink, bool& ok) {
  std::vector<std::unique_ptr<support::AtomicFile>> files;
  std::error_code ec;
  std::filesystem::create_directories(dir, ec);
  if (ec) {
    sink.error(dir, support::nowhere, "cannot create output folder: " + ec.message());
    ok = false;
    return files;
  }
  for (const auto& [name, text] : l10n::render_report(report)) {
    auto file = std::make_unique<support::AtomicFile>(dir + "/" + name);
    std::string error;
    if (!file->open(error)) {
      report_write_error(sink, error);
      ok = false;
      return {};
    }
    file->stream() << text;
    files.push_back(std::move(file));
  }
  return files;
}

bool write_l10n(const l10n::Report& report, const std::string& dir, support::DiagnosticSink& sink) {
  bool ok = true;
  auto files = stage_l10n(report, dir, sink, ok);
  if (!ok) return false;
  std::vector<support::AtomicFile*> group;
  for (auto& f : files) group.push_back(f.get());
  std::vector<std::string> errors;
  if (support::commit_together(group, errors)) return true;
  for (const auto& error : errors) report_write_error(sink, error);
  return false;
}

void report_write_error(support::DiagnosticSink& sink, const std::string& error) {
  std::size_t colon = error.rfind(": ");
  if (colon == std::string::npos) {
    sink.error(error, support::nowhere, "cannot write");
    return;
  }
  sink.error(error.substr(0, colon), support::nowhere, "cannot write: " + error.substr(colon + 2));
}

std::string l10n_summary(const l10n::Report& report) {
  std::string s;
  for (const auto& lang : report.languages) {
    std::size_t total = 0, translated = 0, fuzzy = 0;
    for (const auto& e : report.entries)
      if (e.language == lang) total += e.counts.total, translated += e.counts.translated, fuzzy += e.counts.fuzzy;
    l10n::Completeness c;
    c.total = total;
    c.translated = translated;
    s += (s.empty() ? "" : ", ") + lang + " " + std::to_string(c.percent_complete()) + "% (" + std::to_string(translated) +
         "/" + std::to_string(total) + ", " + std::to_string(fuzzy) + " fuzzy)";
  }
  return s.empty() ? "no translations" : s;
}

Runner add_l10n(CLI::App& app) {
  struct Options {
    std::vector<std::string> inputs;
    std::string out = "out";
    std::string previous;
    std::vector<std::string> languages;
    bool no_rules = false;
  };
  auto opt = std::make_shared<Options>();
  auto* cmd = app.add_subcommand("l10n", "Translation report: completeness, outdated units, structural and rule differences");
  cmd->add_option("INPUT", opt->inputs, "Special:Export XML, .wiki/.wikitext file or folder ('-' = stdin)")->required();
  cmd->add_option("-o,--out", opt->out, "Output folder; the report goes to OUT/l10n/")->capture_default_str();
  cmd->add_option("--previous", opt->previous,
                  "Output folder of an earlier run: units whose definition changed since are outdated");
  cmd->add_option("--lang", opt->languages, "Only these languages (comma-separated)")->delimiter(',');
  cmd->add_flag("--no-rules", opt->no_rules, "Skip compiling pages to rules for the rule comparison");
  return [opt] {
    support::DiagnosticSink sink(support::print_to(std::cerr));
    l10n::Options options;
    options.languages = opt->languages;
    options.compare_rules = !opt->no_rules;
    if (!opt->previous.empty()) {
      std::string error;
      options.previous = l10n::read_previous(opt->previous, error);
      if (!options.previous) {
        sink.error(opt->previous, support::nowhere, "cannot read the previous run: " + error);
        return finish(sink, 0, true);
      }
    }
    l10n::Collector collector;
    std::optional<expand::TemplateStore> store;
    auto stats = ingest::read_inputs(opt->inputs, {}, sink, [&](const ingest::SiteInfo& site, ingest::Page&& page) {
      if (!store) store.emplace(site);
      if (page.ns == 10) store->add(page);
      collector.add(site, page);
    });
    if (!store) store.emplace(ingest::default_site());
    support::DiagnosticSink quiet;  // the pages' own warnings belong to `wikic compile`
    Pipeline pipeline(*store, quiet);
    l10n::Report report = collector.build(options, [&](ingest::Page& page) { return pipeline.compile(page); }, sink);
    bool written = write_l10n(report, opt->out + "/l10n", sink);
    std::cerr << "wikic: l10n: " << l10n_summary(report) << '\n';
    return finish(sink, stats.pages, stats.io_failure || !written);
  };
}

}  // namespace wikic::cli
