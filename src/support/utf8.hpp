// UTF-8 validation. MediaWiki stores and exports only valid UTF-8; a byte sequence
// that is not is a damaged export, reported at its exact offset and replaced by
// U+FFFD so the rest of the page can still be compiled.
#pragma once
#include <cstddef>
#include <string>
#include <string_view>

namespace wikic::support {

/// Offset of the first byte that does not start a valid UTF-8 sequence, or npos.
std::size_t find_invalid_utf8(std::string_view s);

/// Appends code point `cp` to `out` as UTF-8.
void append_utf8(std::string& out, char32_t cp);

/// Replaces each maximal invalid subsequence with U+FFFD (as WHATWG decoders do).
std::string replace_invalid_utf8(std::string_view s);

}  // namespace wikic::support
