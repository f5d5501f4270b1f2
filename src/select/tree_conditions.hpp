// Selector conditions on the document tree: each node's own condition (class attributes
// of tables, rows, cells and HTML elements, data-dynamic-selector, a template's
// selectorid/dynamicselector) conjoined along the path from the root, the tree-level
// lints, and the offline Expansion Selector: the page as plain text for one selection.
#pragma once
#include <cstdint>
#include <functional>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "parse/tree.hpp"
#include "select/classes.hpp"

namespace wikic::select {

/// Where byte `offset` of the document's source `source` (0: the page text, others the
/// Fragments of semantic-template parameters) came from, for diagnostics. The default
/// knows only source 0's own positions; `wikic`'s pipeline passes one that follows the
/// expansion's provenance back into the page and its templates.
using Locate = std::function<Where(std::uint16_t source, std::uint32_t offset)>;

struct TreeOptions {
  Locate locate;  ///< empty: the default above
  /// Also report classes that repeat a condition their ancestors already imply. Off by
  /// default: the wiki writes them on purpose (a row keeps its class when moved), so they
  /// are rarely something to fix (`--lint redundant` turns them on).
  bool lint_redundant = false;
};

/// What one node itself says about its visibility.
struct OwnSelector {
  Condition condition;                   ///< `true` when the node has no selector
  std::optional<Projection> projection;  ///< from structural classes (hideWhenDone: hide)
  Condition projection_condition;        ///< what those structural classes need to show
  bool has_selector = false;
  std::string text;                      ///< the classes/selector as written, for messages
};

/// The own selector of one node, with the class-level lints (unknown ids, repeated and
/// contradictory classes, duplicate class attributes, malformed dynamic selectors).
OwnSelector own_selector(const parse::Document& doc, parse::NodeId node, const std::string& file,
                         support::DiagnosticSink& sink, const Vocabulary& v = Vocabulary::builtin(),
                         const Locate& locate = {});

/// own_selector(…).condition without copying the rest: for callers that walk the tree
/// again after tree_conditions() reported the lints (diagnostics go to `sink` all the
/// same). The reference stays valid until the next call on this thread.
const Condition& own_condition(const parse::Document& doc, parse::NodeId node, const std::string& file,
                               support::DiagnosticSink& sink, const Vocabulary& v = Vocabulary::builtin());

/// Per-node conditions of a whole document, indexed by NodeId.
struct TreeConditions {
  std::vector<Condition> full;          ///< conjunction along the root→node path
  std::vector<Condition> own;           ///< own_selector(…).condition of each node
  std::vector<std::uint8_t> hidden;     ///< 1: a structural class hides it (hideWhenDone)
  /// Nodes whose structural classes need more than their path condition to be shown.
  std::map<parse::NodeId, Condition> projection_only;
};

/// Computes every node's condition and reports the tree-level lints: content that can
/// never be shown and (opt-in) classes that repeat what the ancestors already imply.
TreeConditions tree_conditions(const parse::Document& doc, const std::string& file, support::DiagnosticSink& sink,
                               const Vocabulary& v = Vocabulary::builtin(), const TreeOptions& options = {});
/// The same, in the arrays of `recycled` (conditions no longer needed, e.g. the previous
/// page's) instead of new ones.
TreeConditions tree_conditions(const parse::Document& doc, const std::string& file, support::DiagnosticSink& sink,
                               const Vocabulary& v, const TreeOptions& options, TreeConditions&& recycled);

/// The page as a reader with `selection` sees it, as plain text: hidden content removed,
/// the edition's wording chosen. Opaque templates, comments and files print nothing.
std::string project_text(const parse::Document& doc, const TreeConditions& conditions, const Selection& selection,
                         const Vocabulary& v = Vocabulary::builtin());

}  // namespace wikic::select
