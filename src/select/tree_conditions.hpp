// Selector conditions on the document tree: each node's own condition (class attributes
// of tables, rows, cells and HTML elements, data-dynamic-selector, a template's
// selectorid/dynamicselector) conjoined along the path from the root, the tree-level
// lints, and the offline Expansion Selector: the page as plain text for one selection.
#pragma once
#include <compare>
#include <cstddef>
#include <cstdint>
#include <iterator>
#include <memory>
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

/// One condition per node, read like a `const std::vector<Condition>`: each node's entry
/// is the index of one of the page's distinct conditions, kept once in a table the
/// columns of one TreeConditions share. A page has some ten thousand nodes but a few
/// hundred distinct conditions, and filling a column of Conditions copied a shared_ptr
/// (two atomic counts) per node; an index costs a store.
class ConditionColumn {
public:
  using value_type = Condition;
  using size_type = std::size_t;
  using const_reference = const Condition&;
  class const_iterator {
  public:
    using iterator_category = std::random_access_iterator_tag;
    using value_type = Condition;
    using difference_type = std::ptrdiff_t;
    using pointer = const Condition*;
    using reference = const Condition&;
    const_iterator() = default;
    reference operator*() const { return (*table_)[*at_]; }
    pointer operator->() const { return &**this; }
    reference operator[](difference_type n) const { return (*table_)[at_[n]]; }
    const_iterator& operator++() { ++at_; return *this; }
    const_iterator operator++(int) { auto old = *this; ++at_; return old; }
    const_iterator& operator--() { --at_; return *this; }
    const_iterator operator--(int) { auto old = *this; --at_; return old; }
    const_iterator& operator+=(difference_type n) { at_ += n; return *this; }
    const_iterator& operator-=(difference_type n) { at_ -= n; return *this; }
    friend const_iterator operator+(const_iterator i, difference_type n) { return i += n; }
    friend const_iterator operator+(difference_type n, const_iterator i) { return i += n; }
    friend const_iterator operator-(const_iterator i, difference_type n) { return i -= n; }
    friend difference_type operator-(const const_iterator& a, const const_iterator& b) { return a.at_ - b.at_; }
    friend bool operator==(const const_iterator& a, const const_iterator& b) { return a.at_ == b.at_; }
    friend auto operator<=>(const const_iterator& a, const const_iterator& b) { return a.at_ <=> b.at_; }

  private:
    friend class ConditionColumn;
    const_iterator(const std::vector<Condition>* table, const std::uint32_t* at) : table_(table), at_(at) {}
    const std::vector<Condition>* table_ = nullptr;
    const std::uint32_t* at_ = nullptr;
  };
  using iterator = const_iterator;

  std::size_t size() const { return index_.size(); }
  bool empty() const { return index_.empty(); }
  const Condition& operator[](std::size_t node) const { return (*table_)[index_[node]]; }
  /// Like std::vector::at: std::out_of_range for a node past the end.
  const Condition& at(std::size_t node) const { return (*table_)[index_.at(node)]; }
  const Condition& front() const { return (*this)[0]; }
  const Condition& back() const { return (*this)[size() - 1]; }
  const_iterator begin() const { return {table_.get(), index_.data()}; }
  const_iterator end() const { return {table_.get(), index_.data() + index_.size()}; }

private:
  friend struct ColumnsBuilder;
  // Shared by the columns of one document and never changed once built (a recycled
  // table is added to or refilled only when no other column holds it). It may also hold
  // conditions of earlier pages, which these columns do not name.
  std::shared_ptr<std::vector<Condition>> table_;
  std::vector<std::uint32_t> index_;
};

/// Per-node conditions of a whole document, indexed by NodeId.
struct TreeConditions {
  ConditionColumn full;                 ///< conjunction along the root→node path
  ConditionColumn own;                  ///< own_selector(…).condition of each node
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
