// The subcommands of `wikic`. Each registers its options on the CLI11 app and returns
// the function that runs it; main() only dispatches. Commands wire stages together and
// hold no parsing or formatting logic of their own.
#pragma once
#include <CLI/CLI.hpp>
#include <functional>
#include <string>
#include <vector>

#include "support/diagnostic.hpp"

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

/// Writes the translation report into `dir` (atomically, file by file); false on failure.
bool write_l10n(const l10n::Report& report, const std::string& dir, support::DiagnosticSink& sink);
/// "fr 41% (5/12, 2 fuzzy), …" for the closing lines.
std::string l10n_summary(const l10n::Report& report);

/// Prints the closing one-line summary and maps the diagnostics to an exit code.
int finish(const support::DiagnosticSink& sink, std::size_t pages, bool io_failure);
/// The same from counts, for commands that report into more than one sink.
int finish(std::size_t warnings, std::size_t errors, std::size_t pages, bool io_failure);

}  // namespace wikic::cli
