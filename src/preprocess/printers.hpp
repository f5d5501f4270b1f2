// Ways to print a preprocessor tree: back to wikitext (lossless), as MediaWiki's
// preprocessor XML (for the differential test), as an S-expression for reading, and as
// JSON with byte spans for tools. Walks recurse at most the tree depth, which
// kMaxStackDepth bounds.
#pragma once
#include <string>

#include "preprocess/tree.hpp"

namespace wikic::preprocess {

/// The source text the tree stands for; equals the input byte for byte.
std::string to_wikitext(const Tree& tree);
/// Same, for one node.
void append_wikitext(const Tree& tree, NodeId id, std::string& out);

/// `Parser::preprocessToDom($text)->__toString()` of MediaWiki 1.39 (PPNode_Hash_Tree,
/// PPNode_Hash_Text and PPNode_Hash_Attr's __toString, escaping with htmlspecialchars).
std::string to_xml(const Tree& tree);

/// Indented S-expression, one node per line, with `[begin,end)` byte spans.
std::string to_sexpr(const Tree& tree);

/// JSON: {"type", "span": [begin, end], …, "children": […]} for every node.
std::string to_json(const Tree& tree);

}  // namespace wikic::preprocess
