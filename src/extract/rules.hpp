// The rule database's records and their extraction from one page that the front end
// (restore lines, expand with semantic templates kept, parse, selector conditions: the
// cli's pipeline) has prepared: a walk of the tree for sections → phases/steps →
// blocks → rules. Mapping rules live in schema/extract.yaml; records carry only data,
// so emit/ never sees the grammar.
#pragma once
#include <cstdint>
#include <map>
#include <string>
#include <vector>

#include "expand/expander.hpp"
#include "extract/points.hpp"
#include "extract/shared_list.hpp"
#include "extract/shared_text.hpp"
#include "ingest/page.hpp"
#include "parse/tree.hpp"
#include "preprocess/restore_lines.hpp"
#include "select/tree_conditions.hpp"
#include "support/diagnostic.hpp"

namespace wikic::extract {

/// A text as each preferred edition reads it; `uniform` when all three agree: then only
/// `text` is set and c1, c2, we stay empty (rule texts are most of a page, and nearly
/// every one reads the same in all editions). A repeated cell or note shares its first
/// copy's SharedText; an edition that reads as another shares that one's.
struct Variants {
  SharedText text;  ///< the default edition's wording (C2)
  SharedText c1, c2, we;  ///< set only when not `uniform`
  bool uniform = true;
};

/// A note of a rule (a list item of its rules cell), with its own condition.
struct Note {
  Variants text;
  SharedText when;  ///< condition relative to the rule ("true" = always with the rule)
};

/// A stretch of a rule's text written under one condition: the alternatives a cell puts
/// side by side (`showSquareTiles` wording, then `showOtherTiles` wording) or a clause
/// only some readers see. Edition classes do not make parts; they stay in `text`.
struct TextPart {
  SharedText when;  ///< condition relative to the rule, edition atoms left out; "true" if none
  Variants text;
};

/// One scoring expression with the condition (relative to the rule) it is written under.
struct PointsEntry {
  Points points;
  /// Relative condition: the condition of the part the expression lies in (see
  /// Rule::rules_parts; edition atoms are left to `editions`), "true" if none.
  SharedText when;
  SharedList editions;  ///< empty: every edition's wording has it (a page has a few such lists)
};

struct RuleSource {
  SharedText page;
  std::uint64_t revision = 0;
  SharedText file;
  std::uint32_t line = 0, column = 0;  ///< in the line-restored page text
  std::int64_t offset = -1;            ///< byte offset in the original page text, -1 unknown
  std::vector<std::string> chain;      ///< templates the row was expanded in, innermost last
  std::string origin;                  ///< "row" (raw table row) or the semantic template name
};

struct Rule {
  std::string id;
  std::string parent;  ///< id of the enclosing rule for sub-rules, else ""
  // The structure around the rule, and below its condition and source page and file,
  // are SharedText: all the rules of a block (a table's rows) hold one string each.
  SharedText section;
  SharedText phase;  ///< the phase box ("3. Scoring a feature")
  SharedText round;  ///< the table header ("Round 3 - Scoring phase", "Round 1A: Begin Turn")
  SharedText step, block;
  std::string kind;  ///< tile, meeple, feature, surveyor, action
  bool core = false;
  SharedText when;  ///< canonical condition (select::to_string)
  // Shared lists: the rows of a table hold one atoms list, and a page few trigger lists.
  SharedList atoms;
  SharedList triggers;  ///< sorted, unique
  Variants description, rules;
  /// The same texts cut where their condition changes, in order; empty when no run of
  /// the text has a condition other than edition classes (the usual case). `rules` and
  /// `description` stay the texts every reader's parts add up to.
  std::vector<TextPart> description_parts, rules_parts;
  std::vector<Note> notes;
  std::vector<std::string> references;  ///< "Feature:Well", "Figure:HansStatue", in order, unique
  bool points_unparsed = false;         ///< rules text without any expression
  std::vector<PointsEntry> points;
  RuleSource source;
};

/// Something recognised as not a rule, with the reason (legend, no-actions, spacer,
/// comment, placeholder, header).
struct NonRule {
  std::string reason;
  std::string text;
  std::uint32_t line = 0, column = 0;
  std::size_t scoring_cells = 0;  ///< cells with a scoring… class it accounts for
};

/// Where every cell with a scoring… class went.
struct CellTally {
  std::size_t total = 0;
  std::map<std::string, std::size_t> by_use;  ///< "rule-description", "rule-core", "legend", …
  std::size_t unaccounted = 0;
};

struct PageRules {
  std::string title;
  std::uint64_t revision = 0;
  std::string timestamp;
  std::vector<Rule> rules;  ///< source order, sub-rules after their parent
  std::vector<NonRule> non_rules;
  CellTally cells;
  std::size_t sub_rules = 0, unparsed_points = 0, id_collisions = 0;
};

/// Version of the extraction mapping (schema/extract.yaml `version`).
int extract_mapping_version();

/// What the front end made of one page, as extraction reads it (all owned by the caller).
struct PageInput {
  const ingest::Page& page;                   ///< with its text as restored
  const std::string& file;                    ///< "file#Title", the diagnostics' file
  const preprocess::RestoreResult& restored;  ///< whether (and how) the lines were restored
  const expand::Expansion& expansion;
  const parse::Document& doc;                 ///< parsed from expansion.text
  const select::TreeConditions& conditions;   ///< of doc
  const select::Locate& locate;               ///< doc positions → page/template positions
};

/// Extracts the rules of one prepared page (`wikic`'s pipeline: cli::Pipeline::compile).
/// Never throws on page content; problems are warnings.
PageRules extract_rules(const PageInput& input, support::DiagnosticSink& sink);

}  // namespace wikic::extract
