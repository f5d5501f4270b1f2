// The parse stage fed by the expand stage: the expanded text with its semantic-template
// markers becomes a Document, and every parser diagnostic is moved from its position in
// the expanded text back to the page or template it came from, with the call chain.
#pragma once
#include "expand/expander.hpp"
#include "parse/parser.hpp"

namespace wikic::parse {

/// Parses `expansion` (whose sources must still be alive). Top-level semantic nodes
/// become SemanticTemplate nodes; markers of nested nodes in their parameter values are
/// written back as the template calls they stand for, so a value parses as wikitext.
Document parse_expansion(const expand::Expansion& expansion, support::DiagnosticSink& diagnostics,
                         const ParseOptions& options = {});

}  // namespace wikic::parse
