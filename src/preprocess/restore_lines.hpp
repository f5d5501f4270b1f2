// Restoration of line breaks in a page whose newlines were collapsed into spaces (the
// seed page arrived that way). It belongs to the preprocess stage because it must run
// before anything line-based (headings here, tables and lists in parse) and it needs the
// preprocessor tree of the damaged text to leave template, comment and extension-tag
// interiors alone; its output is then preprocessed again like any page.
#pragma once
#include <cstddef>
#include <optional>
#include <string>
#include <string_view>

#include "preprocess/preprocessor.hpp"

namespace wikic::preprocess {

enum class RestoreMode { Auto, Always, Never };

/// "auto", "always", "never" → mode; false if the word is none of them.
bool parse_restore_mode(std::string_view word, RestoreMode& mode);

/// A page counts as collapsed when it is long, has (almost) no newlines, and has table
/// or heading markup in mid-line where MediaWiki only honours it at a line start.
bool looks_collapsed(std::string_view text);

struct RestoreResult {
  bool restored = false;         ///< false: `text` is the input unchanged
  std::string text;
  std::size_t replaced = 0;      ///< spaces turned into newlines (offsets unchanged)
  std::size_t inserted = 0;      ///< newlines inserted where no space was (offsets shift)
  /// The collapsed page's plain runs, for preprocessing the restored text (recorded only
  /// when it was restored with nothing inserted, so its offsets still hold).
  PlainRuns plain_runs;
};

/// Restores the line starts MediaWiki needs: before `{|` `|-` `|+` `|}`, cell starts
/// (`|`, `!`), block-style template calls inside tables (`{{ScoringRow |…}}`), around
/// `== headings ==`, and before list items. Only top-level text outside `[[…]]` is
/// touched. Reports one warning when it changes the page.
RestoreResult restore_lines(std::string_view text, RestoreMode mode, const Options& options = {},
                            const DiagnosticTarget& diagnostics = {});

/// restore_lines() rewriting `text` itself, so a page that needs nothing is not copied;
/// the result's `text` is left empty. `newlines`: the number of '\n' in `text`, when the
/// caller knows it (the export reader counts them): a collapsed page is not searched for
/// them, or only up to its last. A wrong count misjudges the page.
RestoreResult restore_lines_in_place(std::string& text, RestoreMode mode, const Options& options = {},
                                     const DiagnosticTarget& diagnostics = {},
                                     std::optional<std::size_t> newlines = std::nullopt);

}  // namespace wikic::preprocess
