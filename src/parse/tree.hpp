// The document tree: what an expanded wikitext page means as blocks and inlines
// (MediaWiki's Table/TableRow/TableCell, Heading, lists, HtmlTag elements, links…).
// Nodes live in one arena and point into the page's own bytes through spans, so a tree
// costs a few dozen bytes per node and never copies text.
#pragma once
#include <cstdint>
#include <memory>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "support/source.hpp"

namespace wikic::parse {

using NodeId = std::uint32_t;
inline constexpr NodeId kNoNode = 0xFFFFFFFFu;

/// Node kinds, named after MediaWiki's own words for the construct.
enum class NodeKind : std::uint8_t {
  Document,        ///< the root of a page
  Fragment,        ///< the root of a semantic-template parameter value
  Heading,         ///< `== x ==`; level() is 1..6
  Paragraph,       ///< a run of text lines (BlockLevelPass's <p>)
  List,            ///< one level of `* # : ;`; marker() is the list character
  ListItem,        ///< <li>/<dt>/<dd> of a wiki list; marker() is `*`, `#`, `;` or `:`
  HorizontalRule,  ///< `----`
  Preformatted,    ///< leading-space <pre>, or a literal <pre> tag (text only)
  Table,           ///< `{|` … `|}`
  TableCaption,    ///< `|+`
  TableRow,        ///< `|-` (or the implicit first row)
  TableCell,       ///< `|` or `!` (header() tells)
  Element,         ///< an HTML tag allowed in wikitext (Sanitizer list); name() is lowercase
  Text,            ///< literal text, the span's bytes
  Entity,          ///< `&amp;`, `&#123;`; decoded by decode_entity()
  Comment,         ///< `<!-- … -->` left in the text (raw input only)
  Wikilink,        ///< `[[Page|text]]`, `[[:Page]]`; name() is the target
  FileLink,        ///< `[[File:…|options|caption]]`; attributes are the options
  ExternalLink,    ///< `[http://x text]`; name() is the URL
  Bold,            ///< `'''` (doQuotes)
  Italic,          ///< `''` (doQuotes)
  Template,        ///< an unexpanded `{{…}}`/`{{{…}}}` kept opaque (raw input only)
  SemanticTemplate,  ///< a template call the expander kept as a typed node
  TemplateParameter,  ///< one named parameter of a SemanticTemplate; child is a Fragment
  Nowiki,          ///< `<nowiki>…</nowiki>`, content is literal text
  ExtensionTag,    ///< `<ref>`, `<gallery>`, … kept opaque; name() is the tag
};

const char* to_string(NodeKind kind);

/// One attribute as written: `name="value"`, `name=value`, `name`. Views into the source.
struct Attribute {
  std::string_view name;   ///< as written (compare case-insensitively)
  std::string_view value;  ///< raw value (quotes stripped, entities not decoded)
  support::Span span;      ///< the whole attribute in the node's source
  bool has_value = false;
};

struct Node {
  NodeKind kind = NodeKind::Text;
  std::uint8_t aux = 0;        ///< heading level, list marker, header-cell flag
  std::uint16_t source = 0;    ///< which Document source the span points into (0 = page)
  support::Span span;          ///< bytes of the whole construct in its source
  NodeId parent = kNoNode;
  NodeId first_child = kNoNode;
  NodeId last_child = kNoNode;
  NodeId next_sibling = kNoNode;
  std::string_view name;       ///< tag name, link target, URL, template or parameter name
  std::uint32_t attr_begin = 0;
  std::uint32_t attr_count = 0;
  /// Set when the construct was closed by recovery rather than by its own end markup.
  bool implicitly_closed = false;

  int level() const { return aux; }
  char marker() const { return static_cast<char>(aux); }
  bool header() const { return aux != 0; }
};
// A power of two: the parser compares the arena's size with its node limit at every
// node it adds, and a vector's size is then a shift, not a division.
static_assert(sizeof(Node) == 64);

/// A parsed page: the arena of nodes, the attribute pool and the sources they view.
/// Lookups never throw; a missing attribute is nullptr, a missing node kNoNode.
class Document {
public:
  Document();
  Document(Document&&) noexcept = default;
  Document& operator=(Document&&) noexcept = default;

  NodeId root() const { return 0; }
  std::size_t size() const { return nodes_.size(); }
  const Node& node(NodeId id) const { return nodes_[id]; }

  /// The source text a node's span points into (0 is the page).
  std::string_view source(std::uint16_t id = 0) const { return sources_[id]; }
  std::size_t source_count() const { return sources_.size(); }
  /// The node's bytes (for Text the literal text; for others the whole construct).
  std::string_view text(const Node& n) const {
    return source(n.source).substr(n.span.begin, n.span.size());
  }
  std::span<const Attribute> attributes(const Node& n) const {
    return {attributes_.data() + n.attr_begin, n.attr_count};
  }
  /// The attribute MediaWiki's Sanitizer keeps when a name repeats: the last one
  /// (Sanitizer::decodeTagAttributes overwrites). Names compare case-insensitively.
  const Attribute* attribute(const Node& n, std::string_view name) const;
  /// The effective `class` attribute split on ASCII whitespace (empty if none).
  std::vector<std::string_view> classes(const Node& n) const;
  /// True if the effective class list contains `cls`.
  bool has_class(const Node& n, std::string_view cls) const;
  /// Concatenated text of Text/Entity(decoded)/Nowiki descendants.
  std::string plain_text(NodeId id) const;

  /// Children of `id` in order (allocates; prefer first_child/next_sibling in hot loops).
  std::vector<NodeId> children(NodeId id) const;

  /// Byte position → line:column in source 0 (built lazily).
  support::Position position(std::uint32_t offset) const;

  // --- building (used by the parser) ---
  std::uint16_t add_source(std::string text);
  /// A source the Document views without owning: the caller keeps `text` alive (and in
  /// place) as long as the Document.
  std::uint16_t add_source_view(std::string_view text);
  // add_node and add_attribute are defined below the class: the parser calls them for
  // every node and attribute of a page, and inlined they cost a few instructions.
  NodeId add_node(NodeKind kind, std::uint16_t source, support::Span span, NodeId parent);
  Node& mutable_node(NodeId id) { return nodes_[id]; }
  std::uint32_t add_attribute(const Attribute& a);
  /// Appends copies of the `count` attributes from index `from`, parsed from a list at
  /// offset `list_at` and address `list_bytes`, as an identical list at offset
  /// `moved_to` and address `moved_bytes` (of the same source or another) gives them;
  /// returns the first copy's index.
  /// The caller has made room with has_room_for_attributes() or grow_attributes_for().
  std::uint32_t repeat_attributes(std::uint32_t from, std::uint32_t count, std::uint32_t list_at,
                                  const char* list_bytes, std::uint32_t moved_to, const char* moved_bytes);
  /// Whether `count` more attributes fit without moving the pool (bytes compared: the
  /// counts would take a division each).
  bool has_room_for_attributes(std::uint32_t count) const {
    const auto* base = reinterpret_cast<const char*>(attributes_.data());
    return static_cast<std::size_t>(base + attributes_.capacity() * sizeof(Attribute) -
                                    reinterpret_cast<const char*>(std::to_address(attributes_.end()))) >=
           std::size_t{count} * sizeof(Attribute);
  }
  void grow_attributes_for(std::uint32_t count) {
    while (!has_room_for_attributes(count)) grow_attributes();
  }
  /// Keeps a string alive as long as the Document (for names that are not in a source).
  std::string_view keep(std::string s);
  /// Empties the Document for a new page, keeping its arrays' capacity.
  void clear() {
    sources_.clear();
    nodes_.clear();
    attributes_.clear();
    kept_.clear();
    lines_.reset();
  }
  void reserve(std::size_t nodes, std::size_t attributes = 0) {
    nodes_.reserve(nodes);
    attributes_.reserve(attributes);
  }

private:
  std::vector<std::string_view> sources_;  ///< into kept_ or into the caller's texts
  std::vector<Node> nodes_;
  std::vector<Attribute> attributes_;
  std::vector<std::unique_ptr<std::string>> kept_;  ///< owned sources and kept names
  mutable std::unique_ptr<support::LineIndex> lines_;

  void grow_attributes();
  void grow_nodes();
};

inline NodeId Document::add_node(NodeKind kind, std::uint16_t source, support::Span span,
                                 NodeId parent) {
  auto id = static_cast<NodeId>(nodes_.size());
  // As in add_attribute: the growth out of line, and emplace_back told there is room.
  // The parser reserves for a page's nodes, so the growth is rare.
  if (nodes_.size() == nodes_.capacity()) [[unlikely]] grow_nodes();
  if (nodes_.size() == nodes_.capacity()) __builtin_unreachable();
  Node& n = nodes_.emplace_back();
  n.kind = kind;
  n.source = source;
  n.span = span;
  n.parent = parent;
  if (parent != kNoNode) {
    Node& p = nodes_[parent];
    if (p.last_child == kNoNode)
      p.first_child = id;
    else
      nodes_[p.last_child].next_sibling = id;
    p.last_child = id;
  }
  return id;
}

inline std::uint32_t Document::add_attribute(const Attribute& a) {
  // The growth out of line and the push told there is room: push_back carried its
  // reallocation along, and GCC called it out of line, saving six registers around a
  // 48-byte copy.
  if (attributes_.size() == attributes_.capacity()) [[unlikely]] grow_attributes();
  if (attributes_.size() == attributes_.capacity()) __builtin_unreachable();
  attributes_.push_back(a);
  return static_cast<std::uint32_t>(attributes_.size() - 1);
}

// Inlined into the memo (AttributeListMemo): out of line, the call and the frame cost
// as much as the copy.
__attribute__((always_inline)) inline std::uint32_t Document::repeat_attributes(
    std::uint32_t from, std::uint32_t count, std::uint32_t list_at, const char* list_bytes,
    std::uint32_t moved_to, const char* moved_bytes) {
  const auto first = static_cast<std::uint32_t>(attributes_.size());
  // The list may lie before or after its first occurrence, in another source too:
  // unsigned offsets and addresses wrap alike (addresses as integers, since pointer
  // arithmetic may not cross from one source's string to another's).
  const std::uint32_t delta = moved_to - list_at;
  const std::uintptr_t shift = reinterpret_cast<std::uintptr_t>(moved_bytes) - reinterpret_cast<std::uintptr_t>(list_bytes);
  const auto moved = [shift](std::string_view v) {
    return std::string_view(reinterpret_cast<const char*>(reinterpret_cast<std::uintptr_t>(v.data()) + shift), v.size());
  };
  for (std::uint32_t k = 0; k < count; ++k) {
    // Copied whole, then moved in place: fields taken apart into registers kept a
    // dozen values live and made the memo's lookup save registers on every call.
    if (attributes_.size() == attributes_.capacity()) __builtin_unreachable();
    Attribute& a = attributes_.emplace_back(attributes_[from + k]);
    a.name = moved(a.name);
    // A name without a value keeps the empty view it was given.
    if (a.has_value) a.value = moved(a.value);
    a.span.begin += delta;
    a.span.end += delta;
  }
  return first;
}

/// Decodes one entity as written (`&amp;`, `&#x41;`); unknown names come back unchanged.
std::string decode_entity(std::string_view entity);

/// Walks a subtree depth first with the ancestor path, for the selector and extraction
/// stages: `ancestors` runs from `from` (the root by default) to the parent of `node`;
/// the node itself is not in it. Returning false from enter() skips the node's children (exit() still runs).
/// The walk is iterative, so deep trees cannot overflow the C stack.
class TreeVisitor {
public:
  virtual ~TreeVisitor() = default;
  virtual bool enter(const Document& doc, NodeId node, std::span<const NodeId> ancestors) = 0;
  virtual void exit(const Document& /*doc*/, NodeId /*node*/,
                    std::span<const NodeId> /*ancestors*/) {}
};

void walk(const Document& doc, TreeVisitor& visitor, NodeId from = 0);

/// One step of the order walk() visits `root`'s subtree in, for walks that need to stop
/// early or avoid a virtual call per node: from `n` to its first child when `descend`,
/// else past n's subtree to the next sibling of n or of its nearest ancestor below
/// `root`. `leave` sees each node whose subtree is done, n first and `root` last.
/// kNoNode once `root` is left. It climbs by the parent links add_node keeps with the
/// child lists: a stack of the nodes above cost a push and a pop per node with children,
/// and every caller but walk() (which keeps its own, for its visitor) only needed it here.
template <class Leave>
NodeId next_in_subtree(const Document& doc, NodeId root, NodeId n, bool descend, Leave&& leave) {
  const Node* x = &doc.node(n);
  if (descend && x->first_child != kNoNode) return x->first_child;
  for (;;) {
    leave(n);
    if (n == root) return kNoNode;
    if (x->next_sibling != kNoNode) return x->next_sibling;
    n = x->parent;
    x = &doc.node(n);
  }
}

inline NodeId next_in_subtree(const Document& doc, NodeId root, NodeId n, bool descend) {
  return next_in_subtree(doc, root, n, descend, [](NodeId) {});
}

}  // namespace wikic::parse
