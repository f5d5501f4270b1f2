// The subcommands of `wikic`. Each registers its options on the CLI11 app and returns
// the function that runs it; main() only dispatches. Commands wire stages together and
// hold no parsing or formatting logic of their own.
#pragma once
#include <CLI/CLI.hpp>
#include <functional>
#include <memory>
#include <string>
#include <vector>

#include "support/diagnostic.hpp"
#include "support/files.hpp"

namespace wikic::l10n {
struct Report;
}

namespace wikic::cli {

/// Exit codes, documented in README.md.
enum Exit : int { ok = 0, input_errors = 1, usage_or_io = 2 };

using Runner = std::function<int()>;

Runner add_pages(CLI::App& app);
Runner add_compile(CLI::App& app);
Runner add_expand(CLI::App& app);
Runner add_parse(CLI::App& app);
Runner add_condition(CLI::App& app);
Runner add_select(CLI::App& app);
Runner add_query(CLI::App& app);
Runner add_l10n(CLI::App& app);

/// Writes the translation report into `dir`, its files replacing the old ones together
/// (support::commit_together); false on failure, reported into `sink`.
bool write_l10n(const l10n::Report& report, const std::string& dir, support::DiagnosticSink& sink);
/// The report's files as open AtomicFiles holding their content, for a caller that
/// commits them together with its own outputs; `ok` false (and nothing) on failure.
std::vector<std::unique_ptr<support::AtomicFile>> stage_l10n(const l10n::Report& report, const std::string& dir,
                                                             support::DiagnosticSink& sink, bool& ok);
/// Reports a support::AtomicFile failure ("path: reason") as "path: error: cannot write: reason".
void report_write_error(support::DiagnosticSink& sink, const std::string& error);
/// "fr 41% (5/12, 2 fuzzy), …" for the closing lines.
std::string l10n_summary(const l10n::Report& report);

/// Prints the closing one-line summary and maps the diagnostics to an exit code.
int finish(const support::DiagnosticSink& sink, std::size_t pages, bool io_failure);
/// The same from counts, for commands that report into more than one sink.
int finish(std::size_t warnings, std::size_t errors, std::size_t pages, bool io_failure);

}  // namespace wikic::cli
