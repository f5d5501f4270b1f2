// SHA-1 as MediaWiki uses it in exports: the digest of the revision text, written in
// base 36 and left-padded with zeros to 31 digits (Wikimedia\base_convert in
// RevisionStore / WikiExporter). Computed when an export or a .wiki file lacks it.
#pragma once
#include <array>
#include <cstdint>
#include <string>
#include <string_view>

namespace wikic::support {

std::array<std::uint8_t, 20> sha1(std::string_view data);
std::string sha1_hex(std::string_view data);
/// MediaWiki's form: base 36, lower case, 31 digits.
std::string sha1_base36(std::string_view data);

}  // namespace wikic::support
