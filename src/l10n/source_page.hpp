// A translatable source page as the Translate extension reads it: the <translate>
// regions, the translation units they split into, unit markers, translation variables
// (tvars) and the page display title unit, plus the page "template" (everything that is
// not a unit) that FuzzyBot fills in to write the translation pages Page/xx.
#pragma once
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "support/diagnostic.hpp"
#include "support/source.hpp"

namespace wikic::l10n {

/// Translate's default namespace for unit pages (NS_TRANSLATIONS).
inline constexpr int kTranslationsNamespace = 1198;
/// Translate's TRANSLATE_FUZZY constant: the prefix of an outdated unit translation.
inline constexpr std::string_view kFuzzyPrefix = "!!FUZZY!!";
/// The unit id Translate gives the page title (TranslatablePage's title unit).
inline constexpr std::string_view kDisplayTitleUnit = "Page display title";

/// A translation variable: `<tvar name=x>value</tvar>` or the old `<tvar|x>value</>`.
/// Translators see `$x` in place of the value.
struct Tvar {
  std::string name;
  std::string value;
  bool old_syntax = false;
};

/// Something wrong in the source page's markup for translation, tied to a unit.
struct SourceFinding {
  std::string kind;  ///< marker-duplicated, marker-missing, marker-multiple, marker-position, translate-nested, translate-unclosed
  std::string unit;  ///< unit id ("" for a unit without a marker)
  support::Position at{0, 0};
  std::string message;
  /// The lines it concerns: both occurrences of a duplicated marker, the first and last
  /// line of a unit without one; else the line of `at`.
  std::vector<std::uint32_t> lines;
};

struct TranslationUnit {
  std::string id;          ///< the marker's id; "" when the unit has no marker yet
  std::string text;        ///< the unit as written, marker removed (tvar tags kept)
  std::string definition;  ///< what translators see: tvars replaced by `$name`
  std::string rendered;    ///< what a reader sees: tvars replaced by their values
  std::vector<Tvar> tvars;
  support::Position at{0, 0};  ///< the unit's first character in the source page
  std::uint32_t last_line = 0;
  bool heading_marker = false;  ///< the marker sat at the end of a heading line
  bool inline_unit = false;     ///< the <translate> region had no newline (Translate's isInline)
  bool is_title = false;        ///< the page display title unit
};

/// The page split into literal text and unit slots, in order: filling each slot with a
/// unit's text in some language gives the page FuzzyBot writes for that language.
struct TemplatePiece {
  bool is_unit = false;
  std::string literal;     ///< when !is_unit
  std::size_t unit = 0;    ///< index into SourcePage::units when is_unit
};

struct SourcePage {
  std::string title;
  bool has_languages_tag = false;
  bool translatable = false;  ///< holds at least one <translate> region
  std::vector<TranslationUnit> units;  ///< the title unit first, then page order
  std::vector<TemplatePiece> pieces;
  std::vector<SourceFinding> findings;
  /// Index of the unit with `id` (the first one when the id is duplicated), or npos.
  std::size_t find(std::string_view id) const;
};

/// Reads `text` the way Translate's TranslatablePageParser does. `file` names the page in
/// diagnostics (`file#Title`); findings are also reported into `sink` as warnings.
SourcePage parse_source_page(std::string_view title, std::string_view text, const std::string& file,
                             support::DiagnosticSink& sink);

/// Tvars of a unit's text, in order, and the text with each replaced by `$name`
/// (definition) and by its value (rendered).
std::vector<Tvar> find_tvars(std::string_view text, std::string* definition, std::string* rendered);

/// Replaces `$name` of each tvar in a translation by the tvar's value, as Translate does
/// when it writes the translation page.
std::string substitute_tvars(std::string_view translation, const std::vector<Tvar>& tvars);

}  // namespace wikic::l10n
