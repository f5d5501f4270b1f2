// Internal to src/parse: parsing for a caller that places the parser's warnings by byte
// offset itself (parse_expansion maps offsets through provenance), so no line index is
// built only to turn line:column back into the offset the parser started from.
#pragma once
#include <cstdint>
#include <functional>
#include <string>

#include "parse/parser.hpp"

namespace wikic::parse {

/// Receives each parser warning with its byte offset in the parsed text (source 0).
using OffsetWarning = std::function<void(std::uint32_t offset, std::string message)>;

/// parse_document(input, …), except that warnings with a position go to `warning` as
/// offsets; those without one (line 0) still go to `diagnostics`.
/// `recycled`: a Document no longer needed whose arrays the result reuses.
Document parse_document_offsets(const ParseInput& input, support::DiagnosticSink& diagnostics,
                                const ParseOptions& options, const OffsetWarning& warning,
                                Document&& recycled = Document());

}  // namespace wikic::parse
