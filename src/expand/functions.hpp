// String helpers behind the core parser functions (CoreParserFunctions: padleft,
// padright, urlencode, anchorencode; ParserFunctions: #titleparts) and the entity
// decoding that #ifeq and #switch apply (Sanitizer::decodeCharReferences).
#pragma once
#include <string>
#include <string_view>

#include "ingest/page.hpp"

namespace wikic::expand {

/// Sanitizer::decodeCharReferences: numeric references and the common named entities.
std::string decode_char_references(std::string_view s);
/// CoreParserFunctions::pad: `length` counts characters, at most 500.
std::string pad_string(std::string_view s, std::string_view length, std::string_view padding, bool left);
/// {{urlencode:s|QUERY|PATH|WIKI}}: PHP urlencode, rawurlencode, or wfUrlencode.
std::string url_encode(std::string_view s, std::string_view mode);
/// {{anchorencode:}}: the section anchor a heading with this text gets.
std::string anchor_encode(std::string_view s);
/// {{#titleparts:title|parts|offset}} with PHP array_slice semantics.
std::string title_parts(std::string_view title, std::string_view parts, std::string_view offset,
                        const ingest::SiteInfo& site);

}  // namespace wikic::expand
