// Printers for the document tree: an indented S-expression (the debug and fixture form)
// and JSON with byte spans (for tools). Both are walks over the same tree.
#pragma once
#include <iosfwd>
#include <string>

#include "parse/tree.hpp"

namespace wikic::parse {

struct SexprOptions {
  /// Print whitespace as written; by default runs collapse to one space and text that is
  /// only whitespace is left out, which keeps fixtures readable.
  bool exact_whitespace = false;
  /// Append `@begin-end` byte spans to every node head.
  bool spans = false;
};

/// `(table class="x" (row (cell "a")))`, one node per line, two-space indentation.
std::string to_sexpr(const Document& doc, NodeId from = 0, const SexprOptions& options = {});

/// JSON: {"kind", "span": [begin, end], "name"?, "attributes"?, "text"?, "children"?, …}.
/// `indent` < 0 prints one line.
std::string to_json(const Document& doc, NodeId from = 0, int indent = 1);

}  // namespace wikic::parse
