// The translations an export holds, as the Translate extension models them: for each
// translatable source page (a MessageGroup of TranslationUnits) and each language, the
// status of every unit, which evidence it came from (unit pages, the translation page, or
// both), completeness, structural findings and the rule-level comparison with the source.
#pragma once
#include <cmath>
#include <cstdint>
#include <functional>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "extract/rules.hpp"
#include "ingest/page.hpp"
#include "l10n/source_page.hpp"
#include "l10n/structure.hpp"
#include "support/diagnostic.hpp"

namespace wikic::l10n {

enum class Status { translated, fuzzy, untranslated };
const char* to_string(Status s);

struct UnitState {
  std::string id;
  Status status = Status::untranslated;
  std::string evidence;  ///< "units", "translation-page", "both" or "none"
  std::string translation;  ///< the unit's text in the language (fuzzy mark and wrapper removed), "" if none
  std::uint32_t line = 0;   ///< where the unit's text starts in the translation page (0: not there)
  std::uint32_t last_line = 0;  ///< and where it ends
  bool outdated_unmarked = false;  ///< the source changed since --previous and nobody marked it !!FUZZY!!
};

/// One difference between the rules compiled from the source page and from its
/// translation, named by the English rule.
struct RuleDifference {
  std::string kind;  ///< missing-in-xx, extra-in-xx, when-different, points-different, notes-different, parts-different, triggers-different
  std::string rule;  ///< the source rule's id (the translation's for `extra`)
  std::string description;  ///< the English description (the translation's for `extra`)
  std::string source_value, translation_value;  ///< `when` or points, for the changed kinds
  std::string translation_rule;  ///< the matched translation rule id, if any
  std::string matched_by;        ///< "id" or "position"
};

struct Completeness {
  std::size_t total = 0, translated = 0, fuzzy = 0, untranslated = 0, outdated_unmarked = 0;
  /// Translated (not fuzzy) over total, in percent (MessageGroupStats counts fuzzy apart).
  double percent() const { return total ? static_cast<double>(translated) * 100.0 / static_cast<double>(total) : 0.0; }
  /// The whole percent reached: floor(translated / total × 100).
  std::size_t percent_complete() const { return total ? translated * 100 / total : 0; }
  /// What Translate's language bar and banner show: TranslatablePage::getTranslationPercentages
  /// formats translated / total with sprintf('%.2f'), the bar multiplies by 100.
  std::size_t percent_translate_bar() const {
    return total ? static_cast<std::size_t>(std::lround(static_cast<double>(translated) * 100.0 / static_cast<double>(total))) : 0;
  }
};

struct PageLanguage {
  std::string page;      ///< the source page title
  std::string language;
  std::string translation_page;  ///< "Page/xx" when the export holds it
  std::string translation_page_file;
  std::size_t unit_pages = 0;    ///< Translations:Page/N/xx pages read
  bool rules_compared = false;
  std::string rules_from;        ///< "translation-page" or "units" (a page assembled from unit pages)
  std::size_t source_rules = 0, translation_rules = 0;
  Completeness counts;
  std::vector<UnitState> units;  ///< the group's units in page order, the title first
  std::vector<Finding> findings;
  /// Lines of the translation page that MediaWiki shows as raw table markup.
  std::vector<std::uint32_t> leak_lines;
  std::vector<RuleDifference> rule_differences;
};

struct SourceSummary {
  std::string page;
  std::string file;
  std::uint64_t revision = 0;
  std::string timestamp;
  std::vector<std::pair<std::string, std::string>> definitions;  ///< (unit id, sha1 of the definition)
  std::vector<Finding> findings;  ///< marker problems of the source page itself
};

struct Report {
  std::string source_language = "en";
  std::vector<SourceSummary> sources;  ///< by title
  std::vector<PageLanguage> entries;   ///< by language, then page
  std::vector<std::string> languages;  ///< sorted
};

/// Definition hashes of an earlier run: page → unit → sha1.
using DefinitionHashes = std::map<std::string, std::map<std::string, std::string>>;

struct Options {
  std::vector<std::string> languages;       ///< empty: every language found
  std::optional<DefinitionHashes> previous; ///< --previous
  bool compare_rules = true;
};

/// Gathers the pages that matter for translation while the export streams by, then builds
/// the report. Keeps copies of source pages, unit pages and translation pages only.
class Collector {
public:
  void add(const ingest::SiteInfo& site, const ingest::Page& page);
  /// True when the export holds translations: unit pages, or `/xx` pages of a source page.
  bool has_translations() const;
  /// Compiles one page to rules for the rule comparison. The caller owns the pipeline
  /// (the cli's wiring), so l10n never reaches past extract; an empty function skips the
  /// comparison. The page's own warnings are the caller's to keep or drop.
  using CompilePage = std::function<extract::PageRules(ingest::Page& page)>;
  Report build(const Options& options, const CompilePage& compile, support::DiagnosticSink& sink) const;

private:
  std::string source_language_ = "en";
  std::vector<ingest::Page> sources_;       ///< pages holding <translate>
  std::vector<ingest::Page> unit_pages_;    ///< namespace 1198
  std::vector<ingest::Page> lang_pages_;    ///< titles ending in /xx
};

/// Reads the definition hashes from an earlier run's summary.yaml (`dir/l10n/summary.yaml`
/// or `dir/summary.yaml`); nullopt and `error` when neither can be read.
std::optional<DefinitionHashes> read_previous(const std::string& dir, std::string& error);

/// The unit page title parts: "Translations:Page/N/lang" → (Page, N, lang).
struct UnitPageName {
  std::string page, unit, language;
};
std::optional<UnitPageName> parse_unit_page_title(std::string_view title);

}  // namespace wikic::l10n
