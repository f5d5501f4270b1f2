// From what the wiki writes to conditions: one class name (`showCircusAndNotAcrobats`),
// the class list of one element, a dynamic selector, or a template's `selectorid` /
// `dynamicselector` pair, with the class-level lints. Tree code calls these per node and
// conjoins the results along the ancestor path (lint_nested checks each step).
#pragma once
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "select/condition.hpp"
#include "select/vocabulary.hpp"
#include "support/diagnostic.hpp"
#include "support/source.hpp"

namespace wikic::select {

/// Where the analysed text starts, for diagnostics. Columns inside the text are added
/// to `at.column` (counting code points), so pass the position of the text's first byte.
struct Where {
  Where() = default;
  Where(std::string f, support::Position a, std::string c = {}) : file(std::move(f)), at(a), chain(std::move(c)) {}

  std::string file;
  support::Position at{0, 0};  ///< line 0: no position
  /// " (in Template:X called at …)" when the text came out of a template, appended to
  /// every message (the expander's provenance; see expand::Expansion::locate).
  std::string chain;
  /// `at` moved forward over `prefix` (which must not contain a newline).
  support::Position after(std::string_view prefix) const;
  /// Reports a warning at `pos` (normally `at` or after(…)) of this text.
  void warn(support::DiagnosticSink& sink, support::Position pos, std::string message) const;
};

/// Nesting limit of dynamic selectors; deeper input is a diagnostic, not a stack overflow.
inline constexpr std::size_t kMaxSelectorDepth = 32;

enum class ClassKind {
  condition,     ///< a show* id or compound of known atoms
  structural,    ///< computed by the page (showAll, showStep1A_Empty, hideWhenDone)
  mark,          ///< markC1/markC2/markWE: adaptation highlight, not a condition
  non_selector,  ///< scoringTile, wica-table, …
  unknown,       ///< looks like a selector id but names no known atom
};

struct ClassMeaning {
  ClassKind kind = ClassKind::non_selector;
  Condition condition;                    ///< `true` unless kind is condition/unknown
  std::optional<Projection> projection;   ///< for structural ids
};

/// Splits `show…` against the known atoms, longest match first, backtracking when a
/// longer atom leaves no valid continuation. nullopt when no split exists. No lints.
std::optional<Condition> parse_class_name(std::string_view name, const Vocabulary& v = Vocabulary::builtin());

/// One class token, with the unknown-id lint.
ClassMeaning classify_class(std::string_view token, const Where& where, support::DiagnosticSink& sink,
                            const Vocabulary& v = Vocabulary::builtin());

/// The selector content of one element's class attribute value.
struct ClassList {
  Condition condition;                    ///< the show* classes combined (AND by default)
  std::vector<std::string> selector_classes;  ///< show*/structural tokens, in order
  std::vector<std::string> marks;
  std::optional<Projection> projection;   ///< strongest structural projection: hide > computed > show
  /// What structural classes need to be shown by the projection (not a rule condition).
  Condition projection_condition;
  bool has_selector() const { return !selector_classes.empty(); }
};

/// Lints: unknown ids, a token repeated in one attribute, classes that together can
/// never hold (`showC1 showC2`).
ClassList classify_class_list(std::string_view class_attribute, const Where& where, support::DiagnosticSink& sink,
                              const Vocabulary& v = Vocabulary::builtin());

/// A dynamic selector (`['OR','showInns',['NOT','showWells']]`, any quote style); nullopt
/// and a diagnostic when it does not parse.
std::optional<Condition> parse_dynamic_selector(std::string_view text, const Where& where,
                                                support::DiagnosticSink& sink,
                                                const Vocabulary& v = Vocabulary::builtin());

/// Anything the `wikic condition` command accepts: a dynamic selector when it starts
/// with '[', otherwise a class list. nullopt only for a malformed dynamic selector.
std::optional<Condition> condition_of_text(std::string_view text, const Where& where, support::DiagnosticSink& sink,
                                           const Vocabulary& v = Vocabulary::builtin());

/// One element of the document tree: its class attribute values (more than one when the
/// wikitext repeats `class=`), and its data-dynamic-selector, if any.
struct ElementSelectors {
  std::vector<std::string_view> class_values;
  std::vector<Where> class_where;              ///< parallel to class_values
  std::optional<std::string_view> dynamic_selector;
  Where dynamic_where;
};

/// The element's own condition. Duplicate `class` attributes are linted; the last one
/// counts, as MediaWiki's Sanitizer keeps the last value of a repeated attribute before
/// the browser ever sees the element.
Condition element_condition(const ElementSelectors& element, support::DiagnosticSink& sink,
                            const Vocabulary& v = Vocabulary::builtin());
/// The same with the structural projection and whether any selector was present.
struct ElementSelection {
  Condition condition;
  std::optional<Projection> projection;
  Condition projection_condition;
  bool has_selector = false;
};
ElementSelection element_selection(const ElementSelectors& element, support::DiagnosticSink& sink,
                                   const Vocabulary& v = Vocabulary::builtin());

/// A template call's condition from `selectorid` and `dynamicselector` (both optional;
/// when both are given both must hold).
Condition template_condition(std::optional<std::string_view> selectorid, const Where& selectorid_where,
                             std::optional<std::string_view> dynamicselector, const Where& dynamic_where,
                             support::DiagnosticSink& sink, const Vocabulary& v = Vocabulary::builtin());

/// Lints one step of a path: content that can never be shown given its ancestors, and
/// (when `redundant`) a class that repeats a condition its ancestors already imply.
/// `own_text` names the classes in the message. Returns the conjunction (the node's full
/// condition).
Condition lint_nested(const Condition& ancestors, const Condition& own, std::string_view own_text, const Where& where,
                      support::DiagnosticSink& sink, const Vocabulary& v = Vocabulary::builtin(),
                      bool redundant = true);

}  // namespace wikic::select
