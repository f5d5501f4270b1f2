// Structural comparison of one translation unit, source against translation: what a
// translation may change (words) and what it must not (selector classes, point values,
// templates, files, links, tvars, the markup that shapes the page). Each difference is a
// finding with a severity; line numbers count in the translation's own text.
#pragma once
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "l10n/source_page.hpp"

namespace wikic::l10n {

enum class Severity { error, warning, info };
const char* to_string(Severity s);

struct Finding {
  std::string unit;
  std::string kind;  ///< selector-lost, class-changed, number-changed, template-changed, link-changed,
                     ///< file-changed, tvar-missing, markup-broken, untranslated-identical,
                     ///< marker-duplicated, marker-missing, outdated-unmarked, …
  Severity severity = Severity::warning;
  std::string message;
  std::string page;                   ///< the page the line numbers count in
  std::vector<std::uint32_t> lines;   ///< 1-based, sorted, unique; empty when no line applies
  std::vector<std::uint32_t> leak_lines;  ///< lines of `page` that show markup as text because of this
};

/// Compares `source` (the unit as a reader sees it in the source language) with
/// `translation` (as a reader sees it in the target language). `first_line` is the line
/// of the translation's first character in `page`. `tvars` are checked in `raw_translation`
/// (as `$name`) when `tvars_as_names`, else by their values in `translation`.
std::vector<Finding> compare_unit(const std::string& unit, std::string_view source, std::string_view translation,
                                  std::string_view raw_translation, const std::vector<Tvar>& tvars,
                                  bool tvars_as_names, const std::string& page, std::uint32_t first_line);

/// Lines (1-based) of a whole page that MediaWiki shows as raw text because a table line
/// (`|-`, `|`, `!`, `|+`, `|}`) stands where no table is open (Parser::doTableStuff reads
/// line starts after template expansion; lines inside a template call or a comment are
/// skipped here, as they are not lines of the expanded page).
std::vector<std::uint32_t> leaking_table_lines(std::string_view page_text);

}  // namespace wikic::l10n
