// The parse stage fed by the expand stage: the expanded text with its semantic-template
// markers becomes a Document, and every parser diagnostic is moved from its position in
// the expanded text back to the page or template it came from, with the call chain.
#pragma once
#include "expand/expander.hpp"
#include "parse/parser.hpp"

namespace wikic::parse {

/// Parses `expansion` (whose sources must still be alive). The Document views the
/// expansion's text and parameter values: the expansion must outlive it, unmoved.
/// Every semantic node becomes a SemanticTemplate node, nested ones inside the Fragment
/// of the parameter they are in.
Document parse_expansion(const expand::Expansion& expansion, support::DiagnosticSink& diagnostics,
                         const ParseOptions& options = {});
/// The same, building the Document in the arrays of `recycled` (one no longer needed,
/// e.g. the previous page's) instead of allocating new ones.
Document parse_expansion(const expand::Expansion& expansion, support::DiagnosticSink& diagnostics,
                         const ParseOptions& options, Document&& recycled);

}  // namespace wikic::parse
