// The preprocessor tree: the structure MediaWiki 1.39's Preprocessor_Hash builds
// (root, template, tplarg, part/name/equals/value, comment, ignore, ext, h), kept in one
// flat arena with byte spans into the source, so it is cheap to build, free to destroy,
// and printing it back gives the source byte for byte.
#pragma once
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "support/source.hpp"

namespace wikic::preprocess {

using NodeId = std::uint32_t;
inline constexpr NodeId kNoNode = ~NodeId{0};

/// Node kinds in MediaWiki's words; the comment gives the element name that
/// `preprocessToDom()->__toString()` prints.
enum class NodeKind : std::uint8_t {
  Root,          ///< <root>
  Text,          ///< literal text
  Template,      ///< <template> `{{title|part…}}`
  Argument,      ///< <tplarg> `{{{name|default}}}`
  Title,         ///< <title>
  Part,          ///< <part>
  Name,          ///< <name> (positional: no children, `index` set)
  Equals,        ///< <equals> the '=' of a named part (also left behind in broken syntax)
  Value,         ///< <value>
  Comment,       ///< <comment> `<!-- -->`, with the whitespace/newline it swallowed
  Ignore,        ///< <ignore> include-control tags and what they hide in this mode
  ExtensionTag,  ///< <ext> a registered tag kept opaque: name, attr, inner, close
  Heading,       ///< <h> (or <possible-h> below the root level)
};

const char* to_string(NodeKind kind);

struct Node {
  support::Span span;
  NodeId first_child = kNoNode;
  NodeId last_child = kNoNode;
  NodeId next_sibling = kNoNode;
  /// Heading: MediaWiki's section counter `i`; positional Name: its index (1, 2, …);
  /// ExtensionTag: the slot in Tree::extension_tags. 0 otherwise.
  std::uint32_t index = 0;
  NodeKind kind = NodeKind::Text;
  std::uint8_t level = 0;   ///< Heading level 1–6
  bool line_start = false;  ///< Template/Argument: MediaWiki's lineStart attribute
  bool possible = false;    ///< Heading inside a template part: <possible-h>
};

/// The pieces of an extension tag, as Preprocessor_Hash splits them.
struct ExtensionTagParts {
  support::Span name;        ///< as written (case kept)
  support::Span attributes;  ///< everything between the name and '>' or "/>"
  support::Span inner;       ///< valid iff has_inner (absent for `<tag/>`)
  support::Span close;       ///< valid iff has_close (absent when the tag ran to the end)
  bool has_inner = false;
  bool has_close = false;
};

struct Tree {
  std::string_view source;  ///< not owned: the caller keeps the text alive
  std::vector<Node> nodes;
  std::vector<ExtensionTagParts> extension_tags;
  NodeId root = kNoNode;
  bool for_inclusion = false;

  const Node& node(NodeId id) const { return nodes[id]; }
  std::string_view text(const Node& n) const { return source.substr(n.span.begin, n.span.size()); }
  std::string_view text(support::Span s) const { return source.substr(s.begin, s.size()); }
  const ExtensionTagParts& extension_tag(const Node& n) const { return extension_tags[n.index]; }

  /// Children of a node, for range-for: `for (NodeId c : tree.children(id))`.
  class ChildRange {
  public:
    struct Iterator {
      const Tree* tree;
      NodeId id;
      NodeId operator*() const { return id; }
      Iterator& operator++() {
        id = tree->nodes[id].next_sibling;
        return *this;
      }
      bool operator!=(const Iterator& o) const { return id != o.id; }
    };
    ChildRange(const Tree* t, NodeId first) : tree_(t), first_(first) {}
    Iterator begin() const { return {tree_, first_}; }
    Iterator end() const { return {tree_, kNoNode}; }

  private:
    const Tree* tree_;
    NodeId first_;
  };
  ChildRange children(NodeId id) const { return {this, nodes[id].first_child}; }
};

}  // namespace wikic::preprocess
