// The document parser's entry point: expanded wikitext (plus the semantic-template
// markers the expander left in it) in, a Document and diagnostics out. Parsing never
// fails; recovery follows what MediaWiki + a browser would show, see parser.cpp.
#pragma once
#include <string>
#include <string_view>
#include <vector>

#include "parse/tree.hpp"
#include "support/diagnostic.hpp"
#include "support/source.hpp"

namespace wikic::parse {

struct SemanticNodeRef;

/// One named parameter of a semantic template; `value` is wikitext, parsed into its own
/// Fragment (spans of that fragment point into a Document source of its own). `nested`
/// are the semantic templates inside the value (a Feature in a ScoringRow's rules),
/// with marker spans into `value`.
/// The strings are views: the Document copies them unless ParseInput::borrow_texts.
struct SemanticParam {
  std::string_view name;
  std::string_view value;
  std::vector<SemanticNodeRef> nested;
};

/// A template call the expander kept as a typed node instead of expanding it. The
/// expander writes a placeholder (any bytes, e.g. a strip marker) into the text and
/// passes its span here; the parser never looks inside the placeholder and puts a
/// SemanticTemplate node there, with one TemplateParameter child per parameter.
struct SemanticNodeRef {
  support::Span marker;
  std::string_view name;
  std::vector<SemanticParam> params;
};

struct ParseInput {
  std::string_view text;
  /// Placeholders sorted by marker.begin, non-overlapping; invalid ones are reported
  /// and ignored.
  std::vector<SemanticNodeRef> semantic;
  /// The text and the semantic names and values outlive the Document, at the same
  /// addresses (an Expansion parsed by parse_expansion): the Document then views them
  /// instead of keeping copies, which saves a copy of the page and of every parameter.
  bool borrow_texts = false;
};

struct ParseOptions {
  /// Page name used in diagnostics (`page:line:col: warning: …`).
  std::string page;
  /// Raw (unexpanded) input: keep balanced `{{…}}` as opaque Template nodes so that
  /// their `|` never splits table cells. Harmless on expanded text, where `{{` is rare.
  bool opaque_templates = true;
};

/// Parses a whole page. The Document owns a copy of the text (unless
/// `input.borrow_texts`). Diagnostics (warnings)
/// go to `diagnostics` as `page:line:col`: `<x> opened here is never closed`,
/// `stray </x> ignored…`, `duplicate attribute…`, `{| opened here is never closed`,
/// unclosed comments, and limit notices (parse/limits.hpp).
///
/// Where this differs from MediaWiki + a browser, on purpose or not yet:
/// - an inline element left open at a paragraph break keeps the following blocks inside
///   it (author intent; a browser would close it at </p>);
/// - text inside a table but outside any cell stays under the table/row (browsers move
///   it before the table);
/// - '' and ''' are balanced per table cell, not per source line (doQuotes);
/// - no link trails (`[[a]]bc`), no free URLs, no magic links, no language variants;
/// - HTML end tags stop at table cells/captions/tables and link texts (HTML scope);
///   misnested formatting is closed, not re-opened (no adoption agency).
/// Useful invariants: every node's span lies inside its source; a parent precedes
/// its children in the arena; walk() visits in document order.
Document parse_document(const ParseInput& input, support::DiagnosticSink& diagnostics,
                        const ParseOptions& options = {});

/// Convenience overload without semantic markers.
Document parse_document(std::string_view text, support::DiagnosticSink& diagnostics,
                        const ParseOptions& options = {});

/// The same as parse_document(text, …), but the Document takes the page text over
/// instead of copying it (a page is parsed once and its text is not needed after).
Document parse_document_moved(std::string&& text, support::DiagnosticSink& diagnostics,
                              const ParseOptions& options = {});

}  // namespace wikic::parse
